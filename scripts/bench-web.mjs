#!/usr/bin/env node
// npm run bench:web — the web app's production build, measured (issue #5 targets: initial JS
// for `/` <= 170 KB gzip, Lighthouse performance >= 90 and accessibility >= 95).
//
// Expects a fresh `vite build` in apps/web/dist (the npm script builds first). Prints:
//   1. every JS chunk with its gzip size and the route it belongs to;
//   2. the initial JS for `/`: the entry and the landing chunk with everything they import
//      statically, and, as a cross-check, the scripts Chromium really fetched loading `/`;
//   3. Lighthouse (mobile, default throttling) on `/` and `/login` served by `vite preview` on a
//      free port: the median of BENCH_LIGHTHOUSE_RUNS (3) runs for each score.
// CHROME_PATH picks the browser (default /usr/bin/chromium). Reports go to
// apps/web/e2e-artifacts/lighthouse/.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(root, 'apps', 'web');
const dist = path.join(webDir, 'dist');
const assets = path.join(dist, 'assets');
const reportDir = path.join(webDir, 'e2e-artifacts', 'lighthouse');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

const TARGETS = { initialJsKb: 170, performance: 90, accessibility: 95 };

/** Lazy route chunks (named after their module by Vite) and the routes they serve. */
const ROUTE_CHUNKS = {
  'landing-page': '/',
  'login-page': '/login',
  'signup-page': '/signup',
  'forgot-password-page': '/forgot-password',
  'reset-password-page': '/reset-password',
  'features-page': '/features',
  'docs-page': '/docs',
  'developers-page': '/developers',
  'privacy-policy-page': '/privacy-policy',
  'dashboard-page': '/dashboard',
  'create-agent-page': '/dashboard/create-agent',
  'wizard-page': '/pipeline/:type',
  'build-page': '/build/:type/:id, /sql/build/animation/:type/:id',
  'image-agent-page': '/build/image',
  'not-found-page': '* (404)',
};

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const gzipSize = (file) => gzipSync(readFileSync(path.join(assets, file)), { level: 9 }).length;
const chunkName = (file) => file.replace(/-[\w-]{8}\.js$/, '');

// --- 1. chunks -------------------------------------------------------------------------------
const jsFiles = readdirSync(assets).filter((file) => file.endsWith('.js'));
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = html.match(/<script type="module"[^>]*src="\/assets\/([^"]+\.js)"/)?.[1];
if (!entry) throw new Error('no entry script in dist/index.html; run the build first');

const rows = jsFiles
  .map((file) => ({
    chunk: file,
    route: file === entry ? '(entry, every route)' : (ROUTE_CHUNKS[chunkName(file)] ?? '(shared)'),
    raw: readFileSync(path.join(assets, file)).length,
    gzip: gzipSize(file),
  }))
  .sort((a, b) => b.gzip - a.gzip);
console.log('\nbench:web — JS chunks of apps/web/dist (gzip -9)');
console.table(
  rows.map((row) => ({ chunk: row.chunk, route: row.route, raw: kb(row.raw), gzip: kb(row.gzip) })),
);

// --- 2. initial JS for `/` --------------------------------------------------------------------
/** Static imports only (`import{…}from"./x.js"`, `import"./x.js"`); `import("./x.js")` is lazy. */
function staticClosure(start) {
  const seen = new Set();
  const stack = [...start];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(path.join(assets, file), 'utf8');
    for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) stack.push(match[1]);
  }
  return [...seen];
}
const landing = jsFiles.find((file) => chunkName(file) === 'landing-page');
const initialFiles = staticClosure([entry, ...(landing ? [landing] : [])]);
const initialGzip = initialFiles.reduce((sum, file) => sum + gzipSize(file), 0);
console.log(
  `Initial JS for / (entry + landing chunk + their static imports): ${kb(initialGzip)} gzip`,
);
for (const file of initialFiles) console.log(`  ${file.padEnd(44)} ${kb(gzipSize(file))}`);

// --- serve the build ---------------------------------------------------------------------------
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const preview = spawn(
  path.join(root, 'node_modules', '.bin', 'vite'),
  ['preview', '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
  { cwd: webDir, stdio: ['ignore', 'ignore', 'inherit'] },
);
const stopPreview = () => {
  if (preview.exitCode === null) preview.kill('SIGTERM');
};
process.on('exit', stopPreview);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

try {
  await waitFor(base);

  // Cross-check: the scripts a real browser fetches to show `/`.
  const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  const fetched = new Set();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) {
      fetched.add(url.pathname.slice('/assets/'.length));
    }
  });
  await page.goto(`${base}/`, { waitUntil: 'networkidle' });
  await browser.close();
  const fetchedGzip = [...fetched].reduce((sum, file) => sum + gzipSize(file), 0);
  console.log(
    `Scripts Chromium fetched for / (${fetched.size} files): ${kb(fetchedGzip)} gzip` +
      ` — target <= ${TARGETS.initialJsKb} KB: ${fetchedGzip / 1024 <= TARGETS.initialJsKb && initialGzip / 1024 <= TARGETS.initialJsKb ? 'PASS' : 'MISS'}`,
  );

  // --- 3. Lighthouse ----------------------------------------------------------------------------
  mkdirSync(reportDir, { recursive: true });
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const results = [];
  try {
    for (const route of ['/', '/login']) {
      const scores = { performance: [], accessibility: [], 'best-practices': [], seo: [] };
      const metrics = { fcp: [], lcp: [], tbt: [], cls: [] };
      for (let run = 0; run < runs; run += 1) {
        const answer = await lighthouse(`${base}${route}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: Object.keys(scores),
        });
        const { lhr } = answer;
        for (const key of Object.keys(scores))
          scores[key].push(Math.round(lhr.categories[key].score * 100));
        metrics.fcp.push(lhr.audits['first-contentful-paint'].numericValue);
        metrics.lcp.push(lhr.audits['largest-contentful-paint'].numericValue);
        metrics.tbt.push(lhr.audits['total-blocking-time'].numericValue);
        metrics.cls.push(lhr.audits['cumulative-layout-shift'].numericValue);
        const name = route === '/' ? 'home' : route.slice(1);
        writeFileSync(path.join(reportDir, `${name}-${run + 1}.json`), answer.report);
        if (run === 0) {
          const failing = Object.values(lhr.audits)
            .filter(
              (audit) =>
                audit.score !== null &&
                audit.score < 0.9 &&
                audit.scoreDisplayMode !== 'informative' &&
                audit.scoreDisplayMode !== 'notApplicable' &&
                audit.scoreDisplayMode !== 'manual',
            )
            .map((audit) => `${audit.id}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
          if (failing.length) console.log(`  ${route}: audits below 0.9: ${failing.join(', ')}`);
        }
      }
      results.push({
        route,
        performance: median(scores.performance),
        accessibility: median(scores.accessibility),
        'best-practices': median(scores['best-practices']),
        seo: median(scores.seo),
        'FCP ms': Math.round(median(metrics.fcp)),
        'LCP ms': Math.round(median(metrics.lcp)),
        'TBT ms': Math.round(median(metrics.tbt)),
        CLS: Number(median(metrics.cls).toFixed(3)),
        'all performance runs': scores.performance.join(' / '),
      });
    }
  } finally {
    await chrome.kill();
  }
  console.log(`\nLighthouse (mobile, simulated throttling; median of ${runs} runs)`);
  console.table(results);
  for (const result of results) {
    const verdict = (ok) => (ok ? 'PASS' : 'MISS');
    console.log(
      `${result.route}: performance ${result.performance} ${verdict(result.performance >= TARGETS.performance)} (target >= ${TARGETS.performance}); ` +
        `accessibility ${result.accessibility} ${verdict(result.accessibility >= TARGETS.accessibility)} (target >= ${TARGETS.accessibility})`,
    );
  }
} finally {
  stopPreview();
}
