// npm run bench:preview-memory — what one hostile question costs a SQLite preview (issue 16,
// finding 3: SELECT zeroblob(900000000) took the gateway from 120 MB to 1.9 GB and it kept 1.5 GB).
//
// Loads a CSV into the preview's SQL engine exactly as the gateway does (agent-runtime's
// fileSqlEngine: sql.js in a worker thread of this process), then runs zeroblob-class queries
// straight into the engine — past the SQL guard, which refuses most of them, to measure the caps
// inside SQLite themselves — and prints this process's RSS after each one and at the end, with
// the engine's memory cap for comparison. Prints the figures; never fails on a figure.
import { fileSqlEngine } from '@agentloom/agent-runtime';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const QUERIES = [
  ['zeroblob(900000000)', 'SELECT zeroblob(900000000)'],
  ['randomblob(900000000)', 'SELECT randomblob(900000000)'],
  ["printf('%.*c', 900000000)", "SELECT printf('%.*c', 900000000, 'x')"],
  [
    'recursive x || x to 900 MB',
    "WITH RECURSIVE r(x) AS (SELECT 'aaaaaaaaaa' UNION ALL SELECT x || x FROM r WHERE length(x) < 900000000) SELECT length(max(x)) FROM r",
  ],
  [
    'group_concat over a cross join',
    'SELECT length(group_concat(a.note || b.note)) FROM sales a, sales b',
  ],
];

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const rss = () => process.memoryUsage().rss;

const dir = mkdtempSync(path.join(tmpdir(), 'agentloom-bench-preview-memory-'));
try {
  const csv = path.join(dir, 'sales.csv');
  const lines = ['id,city,note'];
  for (let id = 1; id <= 20_000; id += 1) lines.push(`${id},City ${id % 50},note number ${id}`);
  writeFileSync(csv, `${lines.join('\n')}\n`);

  const before = rss();
  const engine = await fileSqlEngine({ kind: 'csv', path: csv, tableName: 'sales.csv' });
  console.log(`RSS at start ${mb(before)}; after loading a 20,000-row CSV ${mb(rss())}`);
  console.log(
    `the engine's memory cap (kept bytes + worker copy + SQLite heap) ${mb(engine.memoryBytes())}`,
  );
  let peak = rss();
  for (const [label, sql] of QUERIES) {
    const started = Date.now();
    const outcome = await engine.query(sql, { timeoutMs: 10_000, maxRows: 10 }).then(
      () => 'ran',
      (error) => `refused: ${error.message}`,
    );
    peak = Math.max(peak, rss());
    console.log(
      `${label.padEnd(32)} ${String(Date.now() - started).padStart(6)} ms  RSS ${mb(rss()).padStart(7)}  ${outcome}`,
    );
  }
  const answer = await engine.query('SELECT count(*) AS n FROM sales', { timeoutMs: 10_000 });
  console.log(`the next question still works: ${JSON.stringify(answer.rows)}`);
  await engine.close();
  console.log(`RSS peak ${mb(peak)}, at the end ${mb(rss())} (was ${mb(before)} before loading)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
