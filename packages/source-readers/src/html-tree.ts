import type { DefaultTreeAdapterMap } from 'parse5';

/* The HTML standard's structure, as the readers use it: what is content and what is furniture. */

export type Node = DefaultTreeAdapterMap['node'];
export type Element = DefaultTreeAdapterMap['element'];
export type ParentNode = DefaultTreeAdapterMap['parentNode'];
export type TextNode = DefaultTreeAdapterMap['textNode'];

/** Elements left out with everything inside them. */
export const DROPPED = new Set([
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
export const SECTIONING = new Set(['article', 'aside', 'main', 'nav', 'section']);

/** Elements that end the text before them and start a new block. */
export const BLOCKS = new Set([
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

export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

// ---- structure ----------------------------------------------------------------------------

export function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

export function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

export function roles(element: Element): string[] {
  return (attribute(element, 'role') ?? '').toLowerCase().split(/[ \t\n\f\r]+/);
}

export function isDropped(element: Element, sectioned: boolean): boolean {
  const name = element.tagName;
  if (DROPPED.has(name)) return true;
  if (attribute(element, 'hidden') !== undefined) return true;
  if ((attribute(element, 'aria-hidden') ?? '').toLowerCase() === 'true') return true;
  if (roles(element).some((role) => DROPPED_ROLES.has(role))) return true;
  return (name === 'header' || name === 'footer') && !sectioned;
}

export function children(node: ParentNode): Node[] {
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

export function* allElements(node: ParentNode): Generator<Element> {
  for (const child of children(node)) {
    if (!isElement(child)) continue;
    yield child;
    yield* allElements(child);
  }
}

/** The first <main>, else the only <article>, else <body>. */
export function contentRoot(document: ParentNode): Element | undefined {
  let body: Element | undefined;
  const articles: Element[] = [];
  for (const element of visibleElements(document)) {
    if (element.tagName === 'main' || roles(element).includes('main')) return element;
    if (element.tagName === 'article') articles.push(element);
    if (element.tagName === 'body' && !body) body = element;
  }
  return articles.length === 1 ? articles[0] : body;
}

export function insideSectioning(element: Element): boolean {
  for (let node: ParentNode | null = element; node && isElement(node); node = node.parentNode) {
    if (SECTIONING.has(node.tagName)) return true;
  }
  return false;
}
