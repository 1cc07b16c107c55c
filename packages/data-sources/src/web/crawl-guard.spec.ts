import { RefusedDataSourceError } from '../databases';
import { html, redirect, startTestSite, typed, type TestSite } from '../testing/web-site';
import { crawlWebSource, type CrawledPage, type WebCrawlRequest } from './crawl';
import type { WebSourceSettings } from './web-target';

/**
 * The network guard inside a crawl: every hop's host is judged before any connection, and each
 * connection goes to the address the guard approved. The "forbidden" targets here are a second
 * loopback address (127.0.0.2, where a real server counts connections, to prove none came) and
 * the metadata address, which is only ever judged, never connected to.
 */

const PLATFORM = {
  database: 'postgresql://postgres@127.0.0.1:5432/agentloom',
  redis: 'redis://127.0.0.1:6379',
};

async function crawl(
  request: WebCrawlRequest,
  settings: WebSourceSettings,
): Promise<CrawledPage[]> {
  const pages: CrawledPage[] = [];
  for await (const page of crawlWebSource(request, settings)) pages.push(page);
  return pages;
}

let allowed: TestSite;
let forbidden: TestSite;

beforeAll(async () => {
  forbidden = await startTestSite(
    { '/': html('<p>should never be read</p>') },
    { host: '127.0.0.2' },
  );
  allowed = await startTestSite({
    '/robots.txt': typed('text/plain', ''),
    '/': html('<p>home</p>'),
    '/to-other-loopback': redirect(`${forbidden.origin}/`),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/iam/'),
    '/to-mapped-metadata': redirect('http://[::ffff:a9fe:a9fe]/latest/'),
    '/to-file': redirect('file:///etc/passwd'),
    '/to-platform': redirect('http://127.0.0.1:6379/'),
  });
});

afterAll(async () => {
  await allowed.close();
  await forbidden.close();
});

describe('a crawl in strict mode, with 127.0.0.1 allowed', () => {
  const strict: WebSourceSettings = {
    platformUrls: PLATFORM,
    strict: true,
    allowedHosts: ['127.0.0.1'],
    timeoutMs: 2000,
  };

  it.each([
    ['/to-other-loopback', 'Private and loopback addresses are not allowed on this server.'],
    ['/to-metadata', 'Cloud metadata addresses cannot be used as a data source.'],
    ['/to-mapped-metadata', 'Cloud metadata addresses cannot be used as a data source.'],
    [
      '/to-platform',
      "This address belongs to Agentloom's own database or cache and cannot be used as a data source.",
    ],
    ['/to-file', 'The page redirected to a file:// address; only http:// and https:// are read.'],
  ])('refuses the redirect of %s before connecting to its target', async (path, detail) => {
    const pages = await crawl({ url: allowed.origin + path, mode: 'page' }, strict);
    expect(pages).toEqual([
      expect.objectContaining({ status: 'error', reason: 'refused', detail }),
    ]);
    expect(forbidden.connections).toBe(0);
  });

  it('refuses a start address the guard refuses, before any request', async () => {
    const before = forbidden.connections;
    await expect(crawl({ url: `${forbidden.origin}/`, mode: 'page' }, strict)).rejects.toThrow(
      RefusedDataSourceError,
    );
    expect(forbidden.connections).toBe(before);
  });

  it('still reads the allowed address', async () => {
    const pages = await crawl({ url: `${allowed.origin}/`, mode: 'page' }, strict);
    expect(pages[0]).toMatchObject({ status: 'ok', documents: [{ text: 'home' }] });
  });
});

describe('a crawl of a name whose DNS answer changes (rebinding)', () => {
  it('connects only to the address the guard approved, with the name as Host', async () => {
    // The same port on another loopback address: where a rebound name would lead.
    const rebound = await startTestSite(
      { '/': html('<p>rebound</p>') },
      { host: '127.0.0.2', port: allowed.port },
    );
    const answers = ['127.0.0.1'];
    let lookups = 0;
    const lookup = (host: string) => {
      lookups += 1;
      // First answer: the allowed server. Every later answer: the other address.
      return Promise.resolve(host === 'site.test' ? [answers.shift() ?? '127.0.0.2'] : []);
    };
    try {
      const pages = await crawl(
        { url: `http://site.test:${allowed.port}/`, mode: 'site', maxPages: 3 },
        { platformUrls: PLATFORM, strict: false, allowedHosts: [], timeoutMs: 2000, lookup },
      );
      expect(pages[0]).toMatchObject({ status: 'ok', documents: [{ text: 'home' }] });
      expect(rebound.connections).toBe(0);
      expect(allowed.hostHeaders.at(-1)).toBe(`site.test:${allowed.port}`);
      // Resolved once, when the start address was checked; never again during the crawl.
      expect(lookups).toBe(1);
    } finally {
      await rebound.close();
    }
  });
});
