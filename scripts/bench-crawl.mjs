// npm run bench:crawl — how fast a web source reads a site (issue 39's target: a 200-page local
// site, page limit 200, in under 60 s, every page cited by its URL).
//
// Serves a generated documentation site of BENCH_CRAWL_PAGES pages (200) from a real HTTP server
// on 127.0.0.1 (each page some 3 KB of text under a header, navigation and footer, linking to
// four others), then crawls it from its home page in 'site' mode with the page limit at the page
// count, through the real crawler (network guard, pinned connections, robots.txt, the default
// four pages at a time). Prints the crawl's time, pages/s, the pages read and whether each
// cites its own URL. Traffic stays on loopback. Prints the figures; never fails on a figure.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { crawlWebSource } = require(path.join(root, 'packages/data-sources/dist/index.js'));
const { generatedSite, startTestSite } = require(
  path.join(root, 'packages/data-sources/dist/testing/index.js'),
);

const PAGES = Number(process.env.BENCH_CRAWL_PAGES ?? 200);
const ROUNDS = Number(process.env.BENCH_CRAWL_ROUNDS ?? 3);

const site = await startTestSite(generatedSite(PAGES));
const settings = {
  platformUrls: {
    database: 'postgresql://postgres@127.0.0.1:5432/agentloom',
    redis: 'redis://127.0.0.1:6379',
  },
  strict: false,
  allowedHosts: [],
  timeoutMs: 5000,
};

console.log(
  `bench:crawl — ${PAGES}-page site on ${site.origin}, page limit ${PAGES}, ${ROUNDS} rounds`,
);
try {
  for (let round = 1; round <= ROUNDS; round += 1) {
    const started = process.hrtime.bigint();
    const crawler = crawlWebSource(
      { url: `${site.origin}/`, mode: 'site', maxPages: PAGES },
      settings,
    );
    let read = 0;
    let cited = 0;
    let documents = 0;
    let summary;
    for (;;) {
      const next = await crawler.next();
      if (next.done) {
        summary = next.value;
        break;
      }
      const page = next.value;
      if (page.status !== 'ok') continue;
      read += 1;
      documents += page.documents.length;
      // A citation names the page's own URL: its final address, one per page.
      if (page.finalUrl.startsWith(`${site.origin}/docs/page-`)) cited += 1;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(
      `round ${round}: ${seconds.toFixed(2)} s, ${(read / seconds).toFixed(1)} pages/s — ` +
        `${read} pages read (${summary.failed} failed, ${summary.skipped} skipped), ` +
        `${cited} cited by their own URL, ${documents} sections, stopped: ${summary.stoppedBy}; ` +
        `rss ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`,
    );
  }
} finally {
  await site.close();
}
