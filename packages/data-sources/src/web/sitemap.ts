import { gunzipSync } from 'node:zlib';
import { SaxesParser } from 'saxes';
import { UnreachableDataSourceError } from '../databases';
import { WebPageError, type WebFetcher } from './web-fetcher';
import { parseWebUrl } from './web-target';

/*
 * sitemap.xml (and sitemap index) files, read with saxes, a streaming XML parser that follows
 * the XML specification and never expands entities a document defines itself (no "billion
 * laughs", no external entities). Only the text of <loc> elements under <url> or <sitemap> is
 * taken. As the sitemaps protocol says, a sitemap lists pages of its own site: addresses on
 * another origin are skipped, as are the children of a sitemap index on another origin.
 */

/** The sitemaps protocol's own limit per file. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Child sitemaps of an index read at most (each up to the protocol's 50,000 addresses). */
const MAX_CHILD_SITEMAPS = 50;

export interface SitemapEntries {
  kind: 'urlset' | 'sitemapindex';
  locations: string[];
}

/** The <loc> addresses of one sitemap document, and whether it is an index of sitemaps. */
export function parseSitemap(xml: string): SitemapEntries {
  const parser = new SaxesParser({ xmlns: true });
  let kind: SitemapEntries['kind'] | undefined;
  const locations: string[] = [];
  const path: string[] = [];
  let text = '';
  parser.on('opentag', (tag) => {
    if (path.length === 0) {
      if (tag.local !== 'urlset' && tag.local !== 'sitemapindex') {
        throw new Error(`its root element is <${tag.name}>, not <urlset> or <sitemapindex>`);
      }
      kind = tag.local;
    }
    path.push(tag.local);
    text = '';
  });
  parser.on('text', (chunk) => (text += chunk));
  parser.on('cdata', (chunk) => (text += chunk));
  parser.on('closetag', (tag) => {
    const parent = path[path.length - 2];
    if (tag.local === 'loc' && (parent === 'url' || parent === 'sitemap') && path.length === 3) {
      const location = text.trim();
      if (location) locations.push(location);
    }
    path.pop();
    text = '';
  });
  parser.write(xml).close();
  if (!kind) throw new Error('it has no root element');
  return { kind, locations };
}

/**
 * The page addresses a sitemap (or a sitemap index, one level down) lists on the sitemap's own
 * origin, in order, at most `limit`. A sitemap that cannot be read throws
 * UnreachableDataSourceError: without it the source has no pages.
 */
export async function sitemapPages(
  sitemapUrl: string,
  fetcher: WebFetcher,
  signal: AbortSignal,
  limit: number,
): Promise<string[]> {
  const origin = new URL(sitemapUrl).origin;
  const root = await readSitemap(sitemapUrl, fetcher, signal);
  const sameSite = (location: string) => {
    try {
      return parseWebUrl(location).origin === origin;
    } catch {
      return false;
    }
  };
  if (root.kind === 'urlset') return root.locations.filter(sameSite).slice(0, limit);
  const pages: string[] = [];
  for (const child of root.locations.filter(sameSite).slice(0, MAX_CHILD_SITEMAPS)) {
    if (pages.length >= limit) break;
    const sitemap = await readSitemap(child, fetcher, signal);
    if (sitemap.kind === 'urlset') pages.push(...sitemap.locations.filter(sameSite));
  }
  return pages.slice(0, limit);
}

async function readSitemap(
  url: string,
  fetcher: WebFetcher,
  signal: AbortSignal,
): Promise<SitemapEntries> {
  let xml: string;
  try {
    const response = await fetcher.get(
      url,
      'application/xml,text/xml;q=0.9,*/*;q=0.1',
      signal,
      MAX_SITEMAP_BYTES,
    );
    // A .xml.gz sitemap is a gzip file (not a compressed transfer): inflated here, within limit.
    const gzipped = response.body[0] === 0x1f && response.body[1] === 0x8b;
    const body = gzipped
      ? gunzipSync(response.body, { maxOutputLength: MAX_SITEMAP_BYTES })
      : response.body;
    xml = body.toString('utf8');
  } catch (error) {
    if (signal.aborted) throw error;
    const detail =
      error instanceof WebPageError || error instanceof Error ? error.message : String(error);
    throw new UnreachableDataSourceError(`The sitemap ${url} could not be read: ${detail}`);
  }
  try {
    return parseSitemap(xml);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new UnreachableDataSourceError(`The sitemap ${url} is not a valid sitemap: ${detail}`);
  }
}
