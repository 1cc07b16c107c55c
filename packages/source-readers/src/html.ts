import sniffHtmlEncoding from 'html-encoding-sniffer';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import {
  SectionWriter,
  collapseWhitespace,
  trimText,
  type BlockGroup,
  type TextDocument,
} from './text-documents';

/*
 * HTML → cited passages.
 *
 * The page is parsed by parse5, an implementation of the HTML standard's own parsing algorithm,
 * so a malformed page becomes the tree a browser would build (and the tree html5lib builds for
 * the generated agent's loader: both follow the standard, which is what keeps them in step).
 *
 * The main content is chosen by the page's own structure rather than by scoring heuristics such
 * as Mozilla's Readability: the first <main> (or role="main"), else the page's only <article>,
 * else <body>; inside it, navigation, asides, page-level headers and footers (those outside any
 * article, section, main, nav or aside: the banner and the footer of the page), scripts, styles,
 * forms' controls, embedded media and anything hidden are left out. Readability was the other
 * candidate. It scores paragraphs by length and link density, so it drops short pages, FAQ
 * entries, price tables and lists, and its choices cannot be repeated by a Python loader; rules
 * taken from HTML's own landmarks keep every heading (which citations need), do the same thing on
 * every page of a site, and read the same in both languages.
 *
 * parse5 7 rather than 8, and html-encoding-sniffer 4 rather than 6: the newer ones are published
 * as ES modules only (or need one), which jest's CommonJS loader (the
 * apps' tests) cannot load.
 */

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** Elements left out with everything inside them. */
const DROPPED = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'canvas',
  'video',
  'audio',
  'picture',
  'img',
  'map',
  'button',
  'input',
  'select',
  'textarea',
  'datalist',
  'nav',
  'aside',
  'dialog',
]);

/** ARIA roles of navigation and page furniture, whatever element carries them. */
const DROPPED_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);

/** A <header> or <footer> inside one of these belongs to it; elsewhere it is the page's. */
const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

/** Elements that end the text before them and start a new block. */
const BLOCKS = new Set([
  'address',
  'article',
  'blockquote',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'hr',
  'legend',
  'main',
  'ol',
  'p',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'ul',
]);

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** What one HTML page yields. */
export interface HtmlPage {
  /** The page's `<title>`, whitespace collapsed; absent when it has none. */
  title?: string;
  /** The main content, one document per section. */
  documents: TextDocument[];
  /**
   * Every link of the page (`<a href>`, `<area href>`), navigation included, resolved against the
   * page's address and its `<base href>`, in document order, without duplicates. Only when the
   * page's own address is given.
   */
  links: string[];
  /** `<meta name="robots">`: whether the page asks not to be indexed, or its links not followed. */
  robots: { noindex: boolean; nofollow: boolean };
}

/** Reads an HTML page's text. `url` is where it was fetched from (for its links). */
export function readHtmlPage(html: string, options: { url?: string } = {}): HtmlPage {
  // Scripting off, as html5lib parses by default: <noscript> is then parsed as markup (and left
  // out), so both build the same tree.
  const document = parse(html, { scriptingEnabled: false });
  const title = findTitle(document);
  return {
    ...(title ? { title } : {}),
    documents: htmlDocuments(document, title),
    links: options.url ? pageLinks(document, options.url) : [],
    robots: robotsOf(document),
  };
}

/** Sections of an already parsed HTML document (also how a Word document is read). */
export function htmlDocuments(document: ParentNode, title?: string): TextDocument[] {
  const root = contentRoot(document);
  const writer = new SectionWriter();
  if (root) new HtmlWalker(writer, insideSectioning(root)).walk(root);
  return writer.finish(title);
}

export function parseHtml(html: string): ParentNode {
  return parse(html, { scriptingEnabled: false });
}

// ---- encoding -----------------------------------------------------------------------------

/**
 * The text of an HTML file or response: the encoding its byte-order mark, the transport (an HTTP
 * Content-Type charset) or its `<meta charset>` names, if the bytes decode in it; else UTF-8 if
 * they are valid UTF-8; else windows-1252, the web's historical default. (The generated agent
 * reads files the same way, with Beautiful Soup's UnicodeDammit.)
 */
export function decodeHtml(bytes: Uint8Array, transportCharset?: string): string {
  const declared = sniffHtmlEncoding(bytes, {
    transportLayerEncodingLabel: transportCharset,
    defaultEncoding: '',
  });
  for (const encoding of [declared, 'UTF-8']) {
    if (!encoding) continue;
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      // Not in this encoding (or an encoding this runtime does not know): try the next.
    }
  }
  return new TextDecoder('windows-1252').decode(bytes);
}

// ---- structure ----------------------------------------------------------------------------

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

function roles(element: Element): string[] {
  return (attribute(element, 'role') ?? '').toLowerCase().split(/[ \t\n\f\r]+/);
}

function isDropped(element: Element, sectioned: boolean): boolean {
  const name = element.tagName;
  if (DROPPED.has(name)) return true;
  if (attribute(element, 'hidden') !== undefined) return true;
  if ((attribute(element, 'aria-hidden') ?? '').toLowerCase() === 'true') return true;
  if (roles(element).some((role) => DROPPED_ROLES.has(role))) return true;
  return (name === 'header' || name === 'footer') && !sectioned;
}

function children(node: ParentNode): Node[] {
  return node.childNodes;
}

/** Elements in document order, not entering dropped ones (nor a <header>'s or <footer>'s inside). */
function* visibleElements(node: ParentNode, sectioned = false): Generator<Element> {
  for (const child of children(node)) {
    if (!isElement(child) || isDropped(child, sectioned)) continue;
    yield child;
    yield* visibleElements(child, sectioned || SECTIONING.has(child.tagName));
  }
}

function* allElements(node: ParentNode): Generator<Element> {
  for (const child of children(node)) {
    if (!isElement(child)) continue;
    yield child;
    yield* allElements(child);
  }
}

/** The first <main>, else the only <article>, else <body>. */
function contentRoot(document: ParentNode): Element | undefined {
  let body: Element | undefined;
  const articles: Element[] = [];
  for (const element of visibleElements(document)) {
    if (element.tagName === 'main' || roles(element).includes('main')) return element;
    if (element.tagName === 'article') articles.push(element);
    if (element.tagName === 'body' && !body) body = element;
  }
  return articles.length === 1 ? articles[0] : body;
}

function insideSectioning(element: Element): boolean {
  for (let node: ParentNode | null = element; node && isElement(node); node = node.parentNode) {
    if (SECTIONING.has(node.tagName)) return true;
  }
  return false;
}

function findTitle(document: ParentNode): string | undefined {
  for (const element of allElements(document)) {
    if (element.tagName === 'title' && element.namespaceURI === HTML_NAMESPACE) {
      return collapseWhitespace(rawText(element)) || undefined;
    }
  }
  return undefined;
}

function rawText(node: ParentNode): string {
  let text = '';
  for (const child of children(node)) {
    if (child.nodeName === '#text') text += (child as DefaultTreeAdapterMap['textNode']).value;
    else if (isElement(child)) text += rawText(child);
  }
  return text;
}

function robotsOf(document: ParentNode): HtmlPage['robots'] {
  const robots = { noindex: false, nofollow: false };
  for (const element of allElements(document)) {
    if (element.tagName !== 'meta') continue;
    const name = (attribute(element, 'name') ?? '').toLowerCase();
    if (name !== 'robots' && name !== 'agentloombot') continue;
    const directives = (attribute(element, 'content') ?? '').toLowerCase().split(/[\s,]+/);
    if (directives.includes('noindex') || directives.includes('none')) robots.noindex = true;
    if (directives.includes('nofollow') || directives.includes('none')) robots.nofollow = true;
  }
  return robots;
}

function pageLinks(document: ParentNode, pageUrl: string): string[] {
  let base: string | undefined;
  const hrefs: string[] = [];
  for (const element of allElements(document)) {
    const href = attribute(element, 'href');
    if (href === undefined) continue;
    if (element.tagName === 'base' && base === undefined) base = resolve(href, pageUrl) ?? pageUrl;
    if (element.tagName === 'a' || element.tagName === 'area') hrefs.push(href);
  }
  const links = new Set<string>();
  for (const href of hrefs) {
    const url = resolve(href.trim(), base ?? pageUrl);
    if (url) links.add(url);
  }
  return [...links];
}

function resolve(href: string, base: string): string | undefined {
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}

// ---- text ---------------------------------------------------------------------------------

/**
 * Walks the content root in document order: text gathers into the current block; a block
 * element, a list item or a table row ends it; a heading starts a section; <pre> keeps its
 * whitespace; <br> breaks a line.
 */
class HtmlWalker {
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
      this.lines[this.lines.length - 1]!.push((node as DefaultTreeAdapterMap['textNode']).value);
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
      const texts = cells.filter((cell) => !isDropped(cell, inner)).map((c) => inlineText(c, inner));
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
        pieces.push((child as DefaultTreeAdapterMap['textNode']).value);
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
  return !BLOCKS.has(name) && !HEADINGS.has(name) && !['li', 'tr', 'td', 'th', 'pre'].includes(name);
}

/** A <pre>'s text as written, line breaks of <br> included. */
function preText(element: Element, sectioned: boolean): string {
  let text = '';
  for (const child of children(element)) {
    if (child.nodeName === '#text') text += (child as DefaultTreeAdapterMap['textNode']).value;
    else if (isElement(child) && !isDropped(child, sectioned)) {
      text += child.tagName === 'br' ? '\n' : preText(child, sectioned || SECTIONING.has(child.tagName));
    }
  }
  return text;
}
