/**
 * A passage of a prose source (a Word document, a Markdown file, an HTML page) before chunking,
 * with what a citation needs. The generated agent's loaders (agent/loaders.py) produce the same
 * documents from the same file; a parity test holds them together.
 */
export interface TextDocument {
  /** The section's text: its heading first, then its paragraphs, list items and table rows. */
  text: string;
  /** The heading the passage falls under; absent for text before the first heading. */
  section?: string;
  /**
   * Which heading that is: 1 for the document's first heading, 2 for the next, in reading order
   * and whatever their level. Tells apart two sections with the same heading ("Examples").
   */
  position?: number;
  /** HTML pages: the page's `<title>`. */
  title?: string;
}

/** Blocks of one kind that follow each other are one line apart (list items, table rows). */
export type BlockGroup = 'item' | 'row';

interface Block {
  text: string;
  group?: BlockGroup;
}

/**
 * Collects a document's blocks in reading order and cuts them into one TextDocument per section:
 * a heading starts a section, and a section holding nothing but its heading is left out (its
 * heading still counts for `position`). Blocks are a blank line apart, except consecutive list
 * items and consecutive table rows, which are one line apart.
 */
export class SectionWriter {
  private readonly documents: TextDocument[] = [];
  private blocks: Block[] = [];
  private hasBody = false;
  private section: string | undefined;
  private position: number | undefined;
  private headings = 0;

  /** Starts a new section; an empty heading is ignored. */
  heading(text: string): void {
    if (!text) return;
    this.finishSection();
    this.headings += 1;
    this.section = text;
    this.position = this.headings;
    this.blocks.push({ text });
  }

  /** Adds a block of the current section; an empty block is ignored. */
  block(text: string, group?: BlockGroup): void {
    if (!text) return;
    this.blocks.push({ text, group });
    this.hasBody = true;
  }

  /** The documents, the page title (if any) on each. */
  finish(title?: string): TextDocument[] {
    this.finishSection();
    return title ? this.documents.map((document) => ({ ...document, title })) : this.documents;
  }

  private finishSection(): void {
    if (this.hasBody) {
      const document: TextDocument = { text: joinBlocks(this.blocks) };
      if (this.section !== undefined) {
        document.section = this.section;
        document.position = this.position;
      }
      this.documents.push(document);
    }
    this.blocks = [];
    this.hasBody = false;
  }
}

function joinBlocks(blocks: readonly Block[]): string {
  let text = '';
  blocks.forEach((block, index) => {
    const previous = blocks[index - 1];
    if (previous) text += previous.group && previous.group === block.group ? '\n' : '\n\n';
    text += block.text;
  });
  return text;
}

/** ASCII whitespace, the only kind both implementations strip (the chunker's rule too). */
const EDGE_WHITESPACE = new Set([' ', '\t', '\n', '\f', '\r']);

/** The text without ASCII whitespace at either end (a loop: a regex is quadratic on long text). */
export function trimText(text: string): string {
  let from = 0;
  let to = text.length;
  while (from < to && EDGE_WHITESPACE.has(text[from]!)) from += 1;
  while (to > from && EDGE_WHITESPACE.has(text[to - 1]!)) to -= 1;
  return text.slice(from, to);
}

/**
 * HTML's whitespace collapsing: every run of ASCII whitespace (and no-break spaces, which pages
 * use as padding) becomes one space, and the ends are trimmed.
 */
export function collapseWhitespace(text: string): string {
  return trimText(text.replace(/[ \t\n\f\r\u00a0]+/g, ' '));
}
