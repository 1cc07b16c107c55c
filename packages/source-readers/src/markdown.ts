import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { SectionWriter, trimText, type BlockGroup, type TextDocument } from './text-documents';

/*
 * Markdown → cited passages, through markdown-it: CommonMark with tables and strikethrough, the
 * same rules markdown-it-py (its Python port, in the generated agent's loader) applies, so both
 * see the same headings, paragraphs, lists and tables. Raw HTML in the Markdown is markup, not
 * text, and is left out; code blocks are kept as written.
 */

let parser: MarkdownIt | undefined;

function markdownIt(): MarkdownIt {
  parser ??= new MarkdownIt('commonmark').enable(['table', 'strikethrough']);
  return parser;
}

/**
 * YAML front matter (Jekyll, Hugo, Docusaurus): metadata, not text. CommonMark would read its
 * closing `---` as a heading underline and make a section of the last key.
 */
const FRONT_MATTER = /^---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

interface ListState {
  ordered: boolean;
  next: number;
}

/** The sections of a Markdown text. */
export function markdownDocuments(markdown: string): TextDocument[] {
  const tokens = markdownIt().parse(markdown.replace(FRONT_MATTER, ''), {});
  const writer = new SectionWriter();
  const lists: ListState[] = [];
  let marker: string | undefined;
  let items = 0;
  let cells: string[] | undefined;

  const emit = (text: string, group?: BlockGroup) => {
    if (!text) return;
    if (marker !== undefined) {
      text = marker + text;
      marker = undefined;
    }
    writer.block(text, group ?? (items > 0 ? 'item' : undefined));
  };

  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    switch (token.type) {
      case 'heading_open':
        writer.heading(trimText(inlineText(tokens[index + 1]?.children ?? [])));
        index += 2; // the heading's inline content and its closing token
        break;
      case 'inline':
        if (cells) cells.push(trimText(inlineText(token.children ?? [])));
        else emit(trimText(inlineText(token.children ?? [])));
        break;
      case 'fence':
      case 'code_block':
        emit(trimText(token.content));
        break;
      case 'bullet_list_open':
      case 'ordered_list_open':
        lists.push({
          ordered: token.type === 'ordered_list_open',
          next: Number(token.attrGet('start') ?? 1),
        });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        break;
      case 'list_item_open': {
        const list = lists[lists.length - 1];
        marker = list?.ordered ? `${list.next++}. ` : '- ';
        items += 1;
        break;
      }
      case 'list_item_close':
        marker = undefined;
        items -= 1;
        break;
      case 'tr_open':
        cells = [];
        break;
      case 'tr_close':
        if (cells?.some(Boolean)) emit(trimText(cells.join(' | ')), 'row');
        cells = undefined;
        break;
      default:
        // Paragraphs, block quotes, rules and tables' other tokens only frame the above; raw
        // HTML blocks are left out.
        break;
    }
  }
  return writer.finish();
}

/** Plain text of inline tokens: code spans as written, images by their alt text, no HTML. */
function inlineText(tokens: readonly Token[]): string {
  let text = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'text_special':
      case 'code_inline':
        text += token.content;
        break;
      case 'softbreak':
        text += ' ';
        break;
      case 'hardbreak':
        text += '\n';
        break;
      case 'image':
        text += inlineText(token.children ?? []);
        break;
      default:
        break;
    }
  }
  return text;
}
