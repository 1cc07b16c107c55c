// What bench:hosted measures beside answers: /health under load, and the HNSW index's recall
// against exact search over the very vectors the build stored.
import * as lancedb from '@lancedb/lancedb';
import path from 'node:path';
import { percentile } from './bench-rag-agent.mjs';

/** p95 of GET /health while `busy` runs. */
export async function healthWhile(base, busy) {
  const times = [];
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t0 = performance.now();
      await fetch(`${base}/health`).then((r) => r.text());
      times.push(performance.now() - t0);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await busy();
  done = true;
  await probe;
  return percentile(
    times.sort((a, b) => a - b),
    0.95,
  );
}

/** recall@4 of the agent's HNSW search against exact search over the same stored vectors. */
export async function recallAt4(dataDir, pipelineId, buildId, llm, questions) {
  const db = await lancedb.connect(path.join(dataDir, 'indexes', pipelineId, buildId));
  const table = await db.openTable('chunks');
  let found = 0;
  for (const question of questions) {
    const response = await fetch(`${llm.baseUrls.openai}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-ada-002', input: [question] }),
    });
    const vector = (await response.json()).data[0].embedding;
    const exact = await table
      .vectorSearch(vector)
      .distanceType('dot')
      .bypassVectorIndex()
      .limit(4)
      .select(['position', '_distance'])
      .toArray();
    const ann = await table
      .vectorSearch(vector)
      .distanceType('dot')
      .ef(64)
      .refineFactor(2)
      .limit(4)
      .select(['position', '_distance'])
      .toArray();
    // Ties count as found: a chunk exactly as close as the exact search's 4th is as good.
    const fourth = exact.at(-1)._distance;
    found += ann.filter((row) => row._distance <= fourth + 1e-6).length;
  }
  return found / (4 * questions.length);
}
