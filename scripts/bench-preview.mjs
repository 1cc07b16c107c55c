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
import { startLlmTestServer } from '@agentloom/agent-runtime/testing';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signedInUser, startGateway } from './bench-gateway.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 200);
const CSV_BYTES = 1024 * 1024;
const databaseUrl =
  process.env.BENCH_PREVIEW_DATABASE_URL ??
  'postgresql://postgres@127.0.0.1:5432/agentloom_bench_preview';
const dataDir = mkdtempSync(path.join(tmpdir(), 'agentloom-bench-preview-'));
const masterKey = randomBytes(32).toString('base64');
const prefix = `agentloom-bench-preview-${process.pid}`;

const CITIES = ['Lisbon', 'Porto', 'Braga', 'Faro', 'Coimbra', 'Aveiro', 'Evora', 'Leiria'];
const PRODUCTS = ['lantern', 'umbrella', 'kettle', 'compass', 'notebook', 'teapot', 'scarf'];

/** ~1 MB of sales rows; every row names its own order number, so questions have one answer. */
function salesCsv() {
  const lines = ['order,city,product,units,note'];
  let bytes = lines[0].length + 1;
  for (let order = 1; bytes < CSV_BYTES; order += 1) {
    const line = [
      `ORD-${order}`,
      CITIES[order % CITIES.length],
      PRODUCTS[order % PRODUCTS.length],
      (order * 37) % 500,
      `shipped in week ${order % 52} by courier ${order % 9}`,
    ].join(',');
    lines.push(line);
    bytes += line.length + 1;
  }
  return { text: `${lines.join('\n')}\n`, rows: lines.length - 1 };
}

function startWorker() {
  const child = spawn(process.execPath, [path.join(root, 'apps/builder-worker/dist/main.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      VAULT_MASTER_KEY: masterKey,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.on('exit', () => child.kill('SIGTERM'));
  return child;
}

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const ms = (value) => `${value.toFixed(1)} ms`;

async function main() {
  const llm = await startLlmTestServer();
  process.env.BENCH_DATABASE_URL = databaseUrl;
  const gateway = await startGateway({
    port: Number(process.env.BENCH_PORT ?? 18300),
    dataDir,
    env: {
      VAULT_MASTER_KEY: masterKey,
      QUEUE_PREFIX: prefix,
      OPENAI_BASE_URL: llm.baseUrls.openai,
    },
  });
  const worker = startWorker();
  try {
    const token = await signedInUser(gateway);
    const form = (url, body) => gateway.call('POST', url, body, token, 'form');
    const { session_id: id } = await gateway.call(
      'POST',
      '/pipelines',
      { name: 'Preview benchmark', agent_type: 'rag' },
      token,
    );
    await form('/rag/api/source', { session_id: id, source_type: 'csv' });
    const csv = salesCsv();
    const upload = new FormData();
    upload.set('session_id', id);
    upload.set('file', new Blob([csv.text], { type: 'text/csv' }), 'sales.csv');
    await gateway.call('POST', '/rag/api/source/upload', upload, token, 'multipart');
    await form('/rag/api/embeddings/model', {
      session_id: id,
      model_name: 'text-embedding-ada-002',
    });
    await form('/rag/api/vectordb', { session_id: id, vector_db: 'chromadb' });
    await form('/rag/api/vectordb/credentials/local', {
      session_id: id,
      vector_db: 'chromadb',
      url: 'http://chroma:8000',
    });
    await form('/rag/api/llm/provider', { session_id: id, provider: 'openai' });
    await form('/rag/api/llm/credentials', {
      session_id: id,
      api_key: `sk-bench-${randomBytes(12).toString('hex')}`,
      model_name: 'gpt-4o-mini',
    });
    await form('/rag/api/system-prompt', { session_id: id, prompt: 'Answer from the sales rows.' });
    await form('/rag/api/ui', { session_id: id, ui: 'gradio' });
    await form('/rag/api/build/agent', { session_id: id });
    for (let i = 0; ; i += 1) {
      const build = await gateway.call('GET', `/builds/${id}`, undefined, token);
      if (build.status === 'Built') break;
      if (build.status === 'Failed') throw new Error(`the build failed: ${build.error}`);
      if (i > 600) throw new Error('the build did not finish in 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

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
  } finally {
    worker.kill('SIGTERM');
    gateway.stop();
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
