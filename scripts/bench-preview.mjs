// npm run bench:preview — the live preview's speed (issue #6 targets: preview start < 2 s for a
// 1 MB CSV RAG agent with the test server's embeddings; the runtime's own overhead per question,
// total minus the provider's time, p95 < 30 ms).
//
// Runs the built gateway and builder-worker as real processes against their own database
// (agentloom_bench_preview) and a local OpenAI-compatible server (the agent runtime's test
// server, in this process: its time per request is recorded, so the provider's share of each
// question can be subtracted). The agent is configured through the wizard's HTTP API and built by
// the real worker, exactly as a user's would be; then:
//   start    POST /rag/previews/{id}/start: reads the build's chunks, embeds every chunk through
//            the embeddings API and builds the index (the first start; a second start reuses it);
//   ask      BENCH_QUESTIONS (200) questions, one at a time, each read to the end of its stream.
// Prints the figures; never fails on a figure.
import { buildRagAgent, ms, percentile, runBench, withRagStack } from './bench-rag-agent.mjs';

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 200);

async function main() {
  await withRagStack({ name: 'preview', port: 18300 }, async ({ llm, gateway, token, csv }) => {
    const id = await buildRagAgent(gateway, token, 'Preview benchmark', csv);

    let started = performance.now();
    const { preview_url: previewUrl } = await gateway.call(
      'POST',
      `/rag/previews/${id}/start`,
      undefined,
      token,
    );
    const startMs = performance.now() - started;
    started = performance.now();
    await gateway.call('POST', `/rag/previews/${id}/start`, undefined, token);
    const restartMs = performance.now() - started;
    const base = previewUrl.endsWith('/') ? previewUrl : `${previewUrl}/`;
    const info = await (await fetch(`${base}info`)).json();

    const totals = [];
    const overheads = [];
    for (let q = 0; q < QUESTIONS; q += 1) {
      const order = 1 + ((q * 7919) % csv.rows);
      const before = llm.requests.length;
      const t0 = performance.now();
      const response = await fetch(`${base}ask`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: `What was shipped on order ORD-${order}?` }),
      });
      const body = await response.text();
      const total = performance.now() - t0;
      if (!response.ok || !body.includes('event: done')) {
        throw new Error(`question ${q} failed: ${response.status} ${body.slice(0, 300)}`);
      }
      const providerMs = llm.requests.slice(before).reduce((sum, request) => sum + request.ms, 0);
      totals.push(total);
      overheads.push(total - providerMs);
    }
    totals.sort((a, b) => a - b);
    overheads.sort((a, b) => a - b);

    console.log('\nbench:preview — live preview of a RAG agent over a 1 MB CSV');
    console.log(
      `  source              ${csv.rows} rows, ${(csv.text.length / 1024).toFixed(0)} KB`,
    );
    console.log(
      `  index               ${info.retrieval.chunks} chunks, ${info.retrieval.mode}, ${(info.memory_bytes / 1024 / 1024).toFixed(1)} MB in memory`,
    );
    console.log(
      `  preview start       ${ms(startMs)} (target < 2000 ms); started again: ${ms(restartMs)}`,
    );
    console.log(`  questions           ${QUESTIONS}, one at a time, each streamed to its end`);
    console.log(
      `  total per question  p50 ${ms(percentile(totals, 0.5))}  p95 ${ms(percentile(totals, 0.95))}`,
    );
    console.log(
      `  runtime overhead    p50 ${ms(percentile(overheads, 0.5))}  p95 ${ms(percentile(overheads, 0.95))} (target p95 < 30 ms)`,
    );
  });
}

runBench(main);
