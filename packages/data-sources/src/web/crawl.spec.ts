import { startTestSite } from '../testing/web-site';
import type { CrawledPage } from './crawl';
import { crawl, hugeWrites, site, useTestSite } from './crawl.spec-helper';

useTestSite();

describe('crawlWebSource: one page', () => {
  it('reads the page into cited sections with its title, final address and a content hash', async () => {
    const { pages, summary } = await crawl({ url: `${site.origin}/guide#top`, mode: 'page' });
    expect(pages).toEqual([
      {
        status: 'ok',
        url: `${site.origin}/guide`,
        finalUrl: `${site.origin}/guide`,
        httpStatus: 200,
        title: 'Guide',
        fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        documents: [
          { title: 'Guide', section: 'Guide', position: 1, text: 'Guide\n\nIntro.' },
          { title: 'Guide', section: 'Sizes', position: 2, text: 'Sizes\n\nM and L.\n\nnf t' },
        ],
      },
    ]);
    expect(summary).toMatchObject({ pages: 1, read: 1, failed: 0, skipped: 0, stoppedBy: 'done' });
    // robots.txt, then the page; its links are not followed in this mode.
    expect(site.requests).toEqual(['/robots.txt', '/guide']);
  });

  it('gives the same hash for the same text, and another when the text changes', async () => {
    const first = await crawl({ url: `${site.origin}/about`, mode: 'page' });
    const again = await crawl({ url: `${site.origin}/about`, mode: 'page' });
    const other = await crawl({ url: `${site.origin}/guide`, mode: 'page' });
    const hash = (result: { pages: CrawledPage[] }) =>
      result.pages[0]!.status === 'ok' ? result.pages[0]!.contentHash : '';
    expect(hash(first)).toBe(hash(again));
    expect(hash(first)).not.toBe(hash(other));
  });

  it('follows a redirect and cites the address it ended at', async () => {
    const { pages } = await crawl({ url: `${site.origin}/old`, mode: 'page' });
    expect(pages[0]).toMatchObject({
      status: 'ok',
      url: `${site.origin}/old`,
      finalUrl: `${site.origin}/moved`,
    });
  });

  it('reads text pages, other charsets and compressed pages', async () => {
    const read = async (path: string) =>
      (await crawl({ url: site.origin + path, mode: 'page' })).pages[0]!;
    expect(await read('/text')).toMatchObject({
      status: 'ok',
      documents: [{ text: 'Plain text page.' }],
    });
    expect(await read('/cp1252')).toMatchObject({ status: 'ok', documents: [{ text: '€ café' }] });
    expect(await read('/brotli')).toMatchObject({
      status: 'ok',
      title: 'Br',
      documents: [{ text: 'Compressed café', title: 'Br' }],
    });
  });
});

describe('crawlWebSource: each failing page is its own plain error', () => {
  const limits = { pageTimeoutMs: 400, pageBytes: 1024 * 1024 };
  const failure = async (path: string) => {
    const { pages } = await crawl({ url: site.origin + path, mode: 'page' }, { limits });
    return pages[0]!;
  };

  it('an HTTP error', async () => {
    expect(await failure('/missing')).toMatchObject({
      status: 'error',
      reason: 'http_status',
      httpStatus: 404,
      detail: 'The page answered HTTP 404.',
    });
  });

  it('a page slower than the limit', async () => {
    const started = Date.now();
    expect(await failure('/slow')).toMatchObject({
      status: 'error',
      reason: 'timeout',
      detail: 'The page took longer than 0.4 s to load.',
    });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a page larger than the limit, read no further than it', async () => {
    hugeWrites.bytes = 0;
    expect(await failure('/huge')).toMatchObject({
      status: 'error',
      reason: 'too_large',
      detail: 'The page is larger than 1 MB, the most read from one page.',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The connection was dropped: the server stopped at about the limit plus its buffers.
    expect(hugeWrites.closed).toBe(true);
    expect(hugeWrites.bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('a compression bomb, stopped as it inflates', async () => {
    const before = process.memoryUsage().rss;
    expect(await failure('/bomb')).toMatchObject({ status: 'error', reason: 'too_large' });
    expect(process.memoryUsage().rss - before).toBeLessThan(48 * 1024 * 1024);
  });

  it('a redirect loop', async () => {
    expect(await failure('/loop')).toMatchObject({
      status: 'error',
      reason: 'too_many_redirects',
      detail: 'The page redirected more than 5 times.',
    });
  });

  it('a server that refuses the connection', async () => {
    const closed = await startTestSite({});
    await closed.close();
    const { pages } = await crawl({ url: `${closed.origin}/`, mode: 'page' });
    // robots.txt could not be read either: RFC 9309 says to read nothing then.
    expect(pages[0]).toMatchObject({ status: 'skipped', reason: 'robots' });
    expect(pages[0]!.status === 'skipped' && pages[0]!.detail).toContain('connection was refused');
  });

  it('a PDF or an image: skipped, with what to do instead', async () => {
    expect(await failure('/report.pdf')).toMatchObject({
      status: 'skipped',
      reason: 'unsupported_type',
      detail:
        'It is application/pdf, not a web page or text. Upload the PDF as a file source instead.',
    });
    expect(await failure('/logo.png')).toMatchObject({
      status: 'skipped',
      reason: 'unsupported_type',
    });
  });
});
