import { brotliCompressSync, gzipSync } from 'node:zlib';
import {
  html,
  redirect,
  startTestSite,
  typed,
  type SiteHandler,
  type TestSite,
} from '../testing/web-site';
import {
  crawlWebSource,
  type CrawledPage,
  type WebCrawlLimits,
  type WebCrawlRequest,
  type WebCrawlSummary,
} from './crawl';
import type { WebSourceSettings } from './web-target';

// Shared by the crawler's specs.
/**
 * The crawler against real HTTP servers on loopback addresses, serving a site with what real
 * sites have: navigation, fragments and duplicate links, robots.txt, sitemaps, redirects, slow,
 * huge, compressed and non-HTML pages. Nothing here connects beyond 127.0.0.0/8.
 */

export const page = (title: string, body: string, head = '') =>
  html(
    `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`,
  );

export function settings(overrides: Partial<WebSourceSettings> = {}): WebSourceSettings {
  return {
    platformUrls: {
      database: 'postgresql://postgres@127.0.0.1:5432/agentloom',
      redis: 'redis://127.0.0.1:6379',
    },
    strict: false,
    allowedHosts: [],
    timeoutMs: 2000,
    ...overrides,
  };
}

export async function crawl(
  request: WebCrawlRequest,
  options: { settings?: Partial<WebSourceSettings>; limits?: Partial<WebCrawlLimits> } = {},
): Promise<{ pages: CrawledPage[]; summary: WebCrawlSummary }> {
  const pages: CrawledPage[] = [];
  const crawler = crawlWebSource(request, settings(options.settings), { limits: options.limits });
  for (;;) {
    const next = await crawler.next();
    if (next.done) return { pages, summary: next.value };
    pages.push(next.value);
  }
}

export const statuses = (pages: CrawledPage[]) =>
  pages.map((p) => [new URL(p.url).pathname + new URL(p.url).search, p.status]);

export let site: TestSite;
/** 64 MB of spaces in some 64 KB of gzip: to be refused as it inflates, not after. */
let bomb: Buffer;
export const hugeWrites = { bytes: 0, closed: false };

export const SITE: Record<string, SiteHandler> = {
  '/robots.txt': typed('text/plain', 'User-agent: *\nDisallow: /private/\n'),
  '/': page(
    'Home',
    '<nav><a href="/about">About</a> <a href="/about#team">Team</a> <a href="/private/x">Private</a></nav>' +
      '<main><h1>Welcome</h1><p>Start here.</p>' +
      '<a href="/guide?">Guide</a> <a href="/guide">Guide again</a> <a href="/logo.png">Logo</a>' +
      '<a href="http://elsewhere.example/page">Elsewhere</a> <a href="mailto:a@b.c">Mail</a>' +
      '<a href="/old">Old</a> <a href="/missing">Missing</a></main>',
  ),
  '/about': page(
    'About',
    '<main><h1>About us</h1><p>We sell jackets.</p><a href="/noindex">n</a></main>',
  ),
  '/guide': page(
    'Guide',
    '<main><h1>Guide</h1><p>Intro.</p><h2>Sizes</h2><p>M and L.</p>' +
      '<p><a href="/nofollow">nf</a> <a href="/text">t</a></p></main>',
  ),
  '/old': redirect('/moved'),
  '/moved': page('Moved', '<p>The new home of old.</p>'),
  '/private/x': page('Private', '<p>Secret</p>'),
  '/logo.png': typed('image/png', Buffer.from('\x89PNG', 'latin1')),
  '/noindex': page('No', '<p>Hidden</p>', '<meta name="robots" content="noindex">'),
  '/nofollow': page(
    'NF',
    '<p>Do not follow</p><a href="/never">never</a>',
    '<meta name="robots" content="nofollow">',
  ),
  '/never': page('Never', '<p>Never reached</p>'),
  '/text': typed('text/plain; charset=utf-8', 'Plain text page.\n'),
  '/loop': redirect('/loop', 302),
  '/slow': (_request, response) => {
    const timer = setTimeout(() => response.writeHead(200).end('<p>late</p>'), 5000);
    response.once('close', () => clearTimeout(timer));
  },
  '/huge': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    const chunk = Buffer.alloc(256 * 1024, 'a');
    const write = () => {
      while (!response.destroyed) {
        hugeWrites.bytes += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', write);
      }
    };
    response.once('close', () => (hugeWrites.closed = true));
    write();
  },
  '/bomb': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb);
  },
  '/brotli': (_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'br' })
      .end(brotliCompressSync(Buffer.from('<title>Br</title><p>Compressed café</p>')));
  },
  '/cp1252': typed('text/html; charset=windows-1252', Buffer.from('<p>\x80 caf\xe9</p>', 'latin1')),
  '/report.pdf': typed('application/pdf', '%PDF-1.7'),
  '/not-a-sitemap.xml': typed('application/xml', '<html><p>no</p></html>'),
  '/entities.xml': typed(
    'application/xml',
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>' +
      '<urlset><url><loc>&lol2;</loc></url></urlset>',
  ),
};

/** Call at the top of a spec that crawls the shared site. */
export function useTestSite(): void {
  beforeAll(async () => {
    bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, ' '), { level: 9 });
    site = await startTestSite(SITE);
    // Sitemaps name the site's own origin, known only once it listens.
    const origin = site.origin;
    const sitemap = (xml: string) => typed('application/xml', xml.replaceAll('ORIGIN', origin));
    SITE['/sitemap.xml'] = sitemap(
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        '<url><loc> /guide </loc></url><url><loc>ORIGIN/guide</loc></url>' +
        '<url><loc>ORIGIN/about</loc><lastmod>2026-01-01</lastmod></url>' +
        '<url><loc>http://elsewhere.example/x</loc></url></urlset>',
    );
    SITE['/sitemap-index.xml'] = sitemap(
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">' +
        '<sitemap><loc>ORIGIN/sitemap-a.xml.gz</loc></sitemap><sitemap><loc>ORIGIN/sitemap.xml</loc></sitemap>' +
        '<sitemap><loc>http://elsewhere.example/sitemap.xml</loc></sitemap></sitemapindex>',
    );
    SITE['/sitemap-a.xml.gz'] = typed(
      'application/gzip',
      gzipSync(
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/text</loc></url></urlset>`,
      ),
    );
  });

  afterAll(() => site.close());
  beforeEach(() => (site.requests.length = 0));
}
