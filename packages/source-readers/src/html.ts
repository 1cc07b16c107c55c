import sniffHtmlEncoding from 'html-encoding-sniffer';
import { html as spec, parse } from 'parse5';
import { HtmlWalker } from './html-text';
import {
  allElements,
  attribute,
  children,
  contentRoot,
  insideSectioning,
  isElement,
  type ParentNode,
  type TextNode,
} from './html-tree';
import { SectionWriter, collapseWhitespace, type TextDocument } from './text-documents';

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
 * as ES modules only (or need one), which jest's CommonJS loader (the apps' tests) cannot load.
 */

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

function findTitle(document: ParentNode): string | undefined {
  for (const element of allElements(document)) {
    if (element.tagName === 'title' && element.namespaceURI === spec.NS.HTML) {
      return collapseWhitespace(rawText(element)) || undefined;
    }
  }
  return undefined;
}

function rawText(node: ParentNode): string {
  let text = '';
  for (const child of children(node)) {
    if (child.nodeName === '#text') text += (child as TextNode).value;
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
