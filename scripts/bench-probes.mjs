// What bench:hosted measures beside answers: /health under load, and the HNSW index's recall
// against exact search over the very vectors the build stored.
import * as lancedb from '@lancedb/lancedb';
import {
  embedderFor,
  localIndexFolder,
  openHostedIndex,
  openSegmentedIndex,
} from '@agentloom/agent-runtime';
import { storeKeys } from '@agentloom/server-kit';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { percentile } from './bench-rag-agent.mjs';

/**
 * The probe's loop, on a thread of its own: this process also plays the provider (the stand-in
 * streams every answer) and reads the answers, and on its event loop the probe's own waits were
 * counted as the gateway's (p95 27.9 ms in one run, 54.5 ms in the next, the gateway unchanged).
 * Its first request is made before timing starts: a new thread's first fetch sets up its HTTP
 * client and connection (30–35 ms on an idle machine, over 100 ms beside a busy gateway), and
 * among the 20–40 probes of a short phase that one request was the p95.
 */
const HEALTH_PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const times = [];
let done = false;
parentPort.on('message', () => { done = true; });
(async () => {
  await fetch(workerData.url).then((r) => r.text());
  parentPort.postMessage('warm');
  while (!done) {
    const t0 = performance.now();
    await fetch(workerData.url).then((r) => r.text());
    times.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  parentPort.postMessage(times);
})();
`;

/**
 * GET /health (or `route`) asked every 20 ms from a thread of its own while `busy` runs: its
 * latency's p50, p95, p99 and max, and the count.
 */
export async function healthWhile(base, busy, route = '/health') {
  const probe = new Worker(HEALTH_PROBE, { eval: true, workerData: { url: `${base}${route}` } });
  const next = () => new Promise((resolve) => probe.once('message', resolve));
  await next(); // 'warm': its first request made, untimed
  const times = next();
  await busy();
  probe.postMessage('stop');
  const sorted = (await times).sort((a, b) => a - b);
  await probe.terminate();
  return {
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? 0,
    count: sorted.length,
  };
}

/**
 * recall@4 of the agent's search graph (opened as a replica opens it: its build's segments, as
 * HostedIndexes does) against exact search over the very vectors the build stored in its
 * segments' tables. Ties with the exact 4th count as found. A build made before segments is read
 * from its one table.
 */
export async function recallAt4({ dataDir, databaseUrl }, pipelineId, buildId, llm, questions) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const { rows } = await db.query('SELECT hosted_index FROM builds WHERE id = $1', [buildId]);
  await db.end();
  const info = rows[0].hosted_index;
  const embedder = await embedderFor(info.embedding_model, {
    openai: { apiKey: 'sk-bench-recall', baseUrl: llm.baseUrls.openai },
    cacheDir: dataDir,
  });
  const folders = info.segments
    ? info.segments.map((segment) => ({
        segment,
        location: localIndexFolder(
          path.join(dataDir, storeKeys.indexSegment(pipelineId, segment.id)),
        ),
      }))
    : [
        {
          location: localIndexFolder(
            path.join(dataDir, storeKeys.hostedIndex(pipelineId, buildId)),
          ),
        },
      ];
  const graph = info.segments
    ? await openSegmentedIndex(info, folders, embedder, 'meaning')
    : await openHostedIndex(folders[0].location, info, embedder);
  const tables = await Promise.all(
    folders
      .filter(({ segment }) => !segment || segment.chunks > 0)
      .map(async ({ location }) => (await lancedb.connect(location.uri)).openTable('chunks')),
  );
  let found = 0;
  for (const question of questions) {
    const vector = await embedder.embedQuery(question);
    const exact = (await Promise.all(tables.map((table) => exactTop4(table, vector))))
      .flat()
      .sort((a, b) => a._distance - b._distance)
      .slice(0, 4);
    const ids = (await graph.search(question, 4)).map((hit) => `'${hit.chunk.id}'`);
    const hits = (
      await Promise.all(
        tables.map((table) =>
          table
            .query()
            .where(`id IN (${ids.join(', ')})`)
            .select(['vector'])
            .toArray(),
        ),
      )
    ).flat();
    const fourth = 1 - exact.at(-1)._distance;
    for (const hit of hits) {
      let cosine = 0;
      hit.vector.toArray().forEach((value, i) => (cosine += value * vector[i]));
      if (cosine >= fourth - 1e-6) found += 1;
    }
  }
  for (const table of tables) table.close();
  return found / (4 * questions.length);
}

/** The 4 nearest stored vectors of one table, by exact search. */
const exactTop4 = (table, vector) =>
  table
    .vectorSearch(vector)
    .distanceType('dot')
    .bypassVectorIndex()
    .limit(4)
    .select(['id', '_distance'])
    .toArray();
