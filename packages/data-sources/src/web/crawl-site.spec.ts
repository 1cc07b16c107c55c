import { UnreachableDataSourceError } from '../databases';
import { html, startTestSite, typed, type SiteHandler } from '../testing/web-site';
import { SITE, crawl, site, statuses, useTestSite } from './crawl.spec-helper';

useTestSite();

describe('crawlWebSource: a site', () => {
  it('follows same-site links breadth-first, once each, as robots.txt and the pages allow', async () => {
    const { pages, summary } = await crawl({ url: `${site.origin}/`, mode: 'site', maxPages: 50 });
    expect(statuses(pages)).toEqual([
      ['/', 'ok'],
      ['/about', 'ok'],
      ['/private/x', 'skipped'], // robots.txt
      ['/guide', 'ok'], // "/guide?" and "/guide" are one address
      ['/old', 'ok'], // → /moved
      ['/missing', 'error'],
      ['/noindex', 'skipped'],
      ['/nofollow', 'ok'], // its link to /never is not followed
      ['/text', 'ok'],
    ]);
    expect(summary).toMatchObject({ pages: 9, read: 6, failed: 1, skipped: 2, stoppedBy: 'done' });
    expect(site.requests).not.toContain('/private/x');
    expect(site.requests).not.toContain('/never');
    expect(site.requests).not.toContain('/logo.png'); // a file, not a page
    expect(site.requests.filter((path) => path === '/robots.txt')).toHaveLength(1);
    expect(pages.find((p) => p.url.endsWith('/private/x'))).toMatchObject({
      detail: "The site's robots.txt does not allow reading this page.",
    });
  });

  it('stops at the page limit and says so', async () => {
    const { pages, summary } = await crawl({ url: `${site.origin}/`, mode: 'site', maxPages: 3 });
    expect(statuses(pages)).toEqual([
      ['/', 'ok'],
      ['/about', 'ok'],
      ['/private/x', 'skipped'],
    ]);
    expect(summary.stoppedBy).toBe('max_pages');
  });

  it('fetches a few pages at a time, never more', async () => {
    const pages = Object.fromEntries(
      Array.from({ length: 12 }, (_, n) => [
        `/p${n}`,
        ((_request, response) => {
          setTimeout(
            () => response.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${n}</p>`),
            50,
          );
        }) satisfies SiteHandler,
      ]),
    );
    const links = Object.keys(pages)
      .map((path) => `<a href="${path}">x</a>`)
      .join('');
    const wide = await startTestSite({ ...pages, '/': html(`<p>${links}</p>`) });
    try {
      const { summary } = await crawl(
        { url: `${wide.origin}/`, mode: 'site', maxPages: 13 },
        { limits: { concurrency: 3 } },
      );
      expect(summary.read).toBe(13);
      expect(wide.maxInFlight).toBe(3);
    } finally {
      await wide.close();
    }
  });

  it('stops when the crawl has used its time', async () => {
    const slow: Record<string, SiteHandler> = {
      '/': html('<a href="/a">a</a><a href="/b">b</a>'),
      '/a': SITE['/slow']!,
      '/b': SITE['/slow']!,
    };
    const server = await startTestSite(slow);
    try {
      const started = Date.now();
      const { pages, summary } = await crawl(
        { url: `${server.origin}/`, mode: 'site', maxPages: 10 },
        { limits: { crawlTimeoutMs: 700 } },
      );
      expect(statuses(pages)).toEqual([['/', 'ok']]);
      expect(summary.stoppedBy).toBe('time_budget');
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await server.close();
    }
  });

  it("waits out robots.txt's Crawl-delay between requests", async () => {
    const server = await startTestSite({
      '/robots.txt': typed('text/plain', 'User-agent: AgentloomBot\nCrawl-delay: 1\n'),
      '/': html('<a href="/a">a</a>'),
      '/a': html('<p>a</p>'),
    });
    try {
      const started = Date.now();
      const { summary } = await crawl({ url: `${server.origin}/`, mode: 'site', maxPages: 5 });
      expect(summary.read).toBe(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    } finally {
      await server.close();
    }
  });

  it('reads nothing of a site whose robots.txt fails, and everything when it is missing', async () => {
    const failing = await startTestSite({
      '/robots.txt': (_request, response) => response.writeHead(503).end(),
      '/': html('<p>home</p>'),
    });
    const missing = await startTestSite({ '/': html('<p>home</p>') });
    try {
      const blocked = await crawl({ url: `${failing.origin}/`, mode: 'page' });
      expect(blocked.pages[0]).toMatchObject({
        status: 'skipped',
        reason: 'robots',
        detail:
          "The site's robots.txt could not be read (The page answered HTTP 503.), so none of its pages are read.",
      });
      expect(failing.requests).toEqual(['/robots.txt']);
      const open = await crawl({ url: `${missing.origin}/`, mode: 'page' });
      expect(open.pages[0]).toMatchObject({ status: 'ok' });
    } finally {
      await failing.close();
      await missing.close();
    }
  });
});

describe('crawlWebSource: a sitemap', () => {
  it('reads the pages it lists on its own site, in its order', async () => {
    const { pages } = await crawl({
      url: `${site.origin}/sitemap.xml`,
      mode: 'sitemap',
      maxPages: 10,
    });
    expect(statuses(pages)).toEqual([
      ['/guide', 'ok'],
      ['/about', 'ok'],
    ]);
    expect(site.requests).not.toContain('/nofollow'); // links are not followed from a sitemap
  });

  it('reads a sitemap index and its gzipped sitemaps, up to the page limit', async () => {
    const { pages } = await crawl({
      url: `${site.origin}/sitemap-index.xml`,
      mode: 'sitemap',
      maxPages: 2,
    });
    expect(statuses(pages)).toEqual([
      ['/text', 'ok'],
      ['/guide', 'ok'],
    ]);
  });

  it('refuses a sitemap that is not one, or defines its own entities', async () => {
    for (const path of ['/not-a-sitemap.xml', '/entities.xml', '/missing.xml']) {
      const error = await crawl({ url: site.origin + path, mode: 'sitemap', maxPages: 5 }).then(
        () => new Error('read'),
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect((error as Error).message).toMatch(
        /^The sitemap http:\/\/127\.0\.0\.1:\d+\/\S+ (is not a valid sitemap|could not be read)/,
      );
    }
  });
});
