import {
  BLOCKS,
  HEADINGS,
  SECTIONING,
  attribute,
  children,
  isDropped,
  isElement,
  type Element,
  type Node,
  type ParentNode,
  type TextNode,
} from './html-tree';
import {
  collapseWhitespace,
  trimText,
  type BlockGroup,
  type SectionWriter,
} from './text-documents';

// ---- text ---------------------------------------------------------------------------------

/**
 * Walks the content root in document order: text gathers into the current block; a block
 * element, a list item or a table row ends it; a heading starts a section; <pre> keeps its
 * whitespace; <br> breaks a line.
 */
export class HtmlWalker {
  /** The lines of the block being gathered (split at <br>), each a list of text pieces. */
  private lines: string[][] = [[]];
  /** A list item's marker, waiting for the item's first non-empty block. */
  private marker: string | undefined;
  private listDepth = 0;

  constructor(
    private readonly writer: SectionWriter,
    private readonly sectioned: boolean,
  ) {}

  walk(root: Element): void {
    this.children(root, this.sectioned || SECTIONING.has(root.tagName));
    this.flush();
  }

  private children(node: ParentNode, sectioned: boolean): void {
    for (const child of children(node)) this.node(child, sectioned);
  }

  private node(node: Node, sectioned: boolean): void {
    if (node.nodeName === '#text') {
      this.lines[this.lines.length - 1]!.push((node as TextNode).value);
      return;
    }
    if (!isElement(node) || isDropped(node, sectioned)) return;
    const name = node.tagName;
    const inner = sectioned || SECTIONING.has(name);
    if (HEADINGS.has(name)) {
      this.flush();
      this.writer.heading(inlineText(node, inner));
    } else if (name === 'br') {
      this.lines.push([]);
    } else if (name === 'pre') {
      this.flush();
      this.emit(trimText(preText(node, inner)));
    } else if (name === 'li') {
      this.flush();
      this.marker = listMarker(node);
      this.listDepth += 1;
      this.children(node, inner);
      this.flush();
      this.listDepth -= 1;
      this.marker = undefined;
    } else if (name === 'tr') {
      this.flush();
      const cells = children(node).filter(
        (cell): cell is Element =>
          isElement(cell) && (cell.tagName === 'td' || cell.tagName === 'th'),
      );
      const texts = cells
        .filter((cell) => !isDropped(cell, inner))
        .map((c) => inlineText(c, inner));
      if (texts.some(Boolean)) this.emit(trimText(texts.join(' | ')), 'row');
    } else if (BLOCKS.has(name)) {
      this.flush();
      this.children(node, inner);
      this.flush();
    } else {
      this.children(node, inner);
    }
  }

  /** Ends the block being gathered. */
  private flush(): void {
    const text = this.lines
      .map((pieces) => collapseWhitespace(pieces.join('')))
      .filter(Boolean)
      .join('\n');
    this.lines = [[]];
    this.emit(text);
  }

  private emit(text: string, group?: BlockGroup): void {
    if (!text) return;
    if (this.marker !== undefined) {
      text = this.marker + text;
      this.marker = undefined;
    }
    this.writer.block(text, group ?? (this.listDepth > 0 ? 'item' : undefined));
  }
}

/** "- " in a bulleted list, "3. " for the third item of a numbered one (from its start). */
function listMarker(item: Element): string {
  const list = item.parentNode;
  if (!list || !isElement(list) || list.tagName !== 'ol') return '- ';
  const start = /^[ \t\n\f\r]*(-?\d+)/.exec(attribute(list, 'start') ?? '');
  let number = start ? Number(start[1]) : 1;
  for (const sibling of children(list)) {
    if (sibling === item) break;
    if (isElement(sibling) && sibling.tagName === 'li') number += 1;
  }
  return `${number}. `;
}

/** The text of a heading or table cell on one line: blocks and line breaks become spaces. */
function inlineText(element: Element, sectioned: boolean): string {
  const pieces: string[] = [];
  const visit = (node: ParentNode, inner: boolean) => {
    for (const child of children(node)) {
      if (child.nodeName === '#text') {
        pieces.push((child as TextNode).value);
      } else if (isElement(child) && !isDropped(child, inner)) {
        const spaced = child.tagName === 'br' || !isInline(child.tagName);
        if (spaced) pieces.push(' ');
        visit(child, inner || SECTIONING.has(child.tagName));
        if (spaced) pieces.push(' ');
      }
    }
  };
  visit(element, sectioned || SECTIONING.has(element.tagName));
  return collapseWhitespace(pieces.join(''));
}

function isInline(name: string): boolean {
  return (
    !BLOCKS.has(name) && !HEADINGS.has(name) && !['li', 'tr', 'td', 'th', 'pre'].includes(name)
  );
}

/** A <pre>'s text as written, line breaks of <br> included. */
function preText(element: Element, sectioned: boolean): string {
  let text = '';
  for (const child of children(element)) {
    if (child.nodeName === '#text') text += (child as TextNode).value;
    else if (isElement(child) && !isDropped(child, sectioned)) {
      text +=
        child.tagName === 'br' ? '\n' : preText(child, sectioned || SECTIONING.has(child.tagName));
    }
  }
  return text;
}
