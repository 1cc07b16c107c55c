// Shared by bench:preview and bench:published: the stack they measure (the built gateway and
// builder-worker as real processes, the agent runtime's LLM test server in this process), a ~1 MB
// sales CSV, and a RAG agent over it configured through the wizard's HTTP API and built by that
// worker, exactly as a user's would be.
import { buildPaths, WIZARD_ROUTES } from '@agentloom/contracts';
import { startLlmTestServer } from '@agentloom/agent-runtime/testing';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { signedInUser, startGateway } from './bench-gateway.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CSV_BYTES = 1024 * 1024;
const CITIES = ['Lisbon', 'Porto', 'Braga', 'Faro', 'Coimbra', 'Aveiro', 'Evora', 'Leiria'];
const PRODUCTS = ['lantern', 'umbrella', 'kettle', 'compass', 'notebook', 'teapot', 'scarf'];

/** ~1 MB of sales rows; every row names its own order number, so questions have one answer. */
export function salesCsv(size = CSV_BYTES) {
  const lines = ['order,city,product,units,note'];
  let bytes = lines[0].length + 1;
  for (let order = 1; bytes < size; order += 1) {
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

/**
 * Runs `measure` against a fresh stack named `name`: its own database
 * (BENCH_<NAME>_DATABASE_URL, else agentloom_bench_<name>), data folder, queue prefix and vault
 * key; a gateway on BENCH_PORT (else `port`) whose OpenAI calls reach the test server, with `env`
 * added; a worker; a signed-in user; and the sales CSV the agents are built over. Everything is stopped and removed afterwards, even when
 * `measure` fails.
 */
export async function withRagStack({ name, port, env = {} }, measure) {
  const databaseUrl =
    process.env[`BENCH_${name.toUpperCase()}_DATABASE_URL`] ??
    `postgresql://postgres@127.0.0.1:5432/agentloom_bench_${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `agentloom-bench-${name}-`));
  const masterKey = randomBytes(32).toString('base64');
  const prefix = `agentloom-bench-${name}-${process.pid}`;
  const llm = await startLlmTestServer();
  let gateway;
  let worker;
  try {
    process.env.BENCH_DATABASE_URL = databaseUrl;
    gateway = await startGateway({
      port: Number(process.env.BENCH_PORT ?? port),
      dataDir,
      env: {
        VAULT_MASTER_KEY: masterKey,
        QUEUE_PREFIX: prefix,
        OPENAI_BASE_URL: llm.baseUrls.openai,
        ...env,
      },
    });
    // The worker embeds each build's chunks into its hosted index through the same stand-in.
    const openaiBaseUrl = llm.baseUrls.openai;
    worker = startWorker({ databaseUrl, prefix, dataDir, masterKey, openaiBaseUrl });
    const token = await signedInUser(gateway);
    await measure({
      llm,
      gateway,
      worker,
      token,
      csv: salesCsv(),
      stack: { databaseUrl, dataDir, masterKey, prefix },
    });
  } finally {
    worker?.kill('SIGTERM');
    gateway?.stop();
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs a benchmark and exits with its outcome (a child's handle must not keep this alive). */
export function runBench(main) {
  main().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}

/** The built builder-worker on the bench's database, queue prefix and data folder. */
export function startWorker({ databaseUrl, prefix, dataDir, masterKey, openaiBaseUrl }) {
  // BENCH_WORKER_FLAGS: Node flags for the worker (say, --cpu-prof to profile its builds).
  const flags = process.env.BENCH_WORKER_FLAGS?.split(' ') ?? [];
  const main = path.join(root, 'apps/builder-worker/dist/main.js');
  const child = spawn(process.execPath, [...flags, main], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: prefix,
      DATA_DIR: dataDir,
      VAULT_MASTER_KEY: masterKey,
      ...(openaiBaseUrl && { OPENAI_BASE_URL: openaiBaseUrl }),
      // Production refuses loopback data sources; the bench's tables and sites run on this machine.
      DATA_SOURCE_ALLOWED_HOSTS: '127.0.0.1,localhost',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.on('exit', () => child.kill('SIGTERM'));
  return child;
}

/**
 * A RAG agent over `csv` (OpenAI embeddings and chat), configured and built; its id. The build
 * embeds every chunk into the agent's hosted index; `timeoutS` bounds the wait.
 */
export async function buildRagAgent(gateway, token, name, csv, timeoutS = 120) {
  const form = (url, body) => gateway.call('POST', url, body, token, 'form');
  const { session_id: id } = await gateway.call(
    'POST',
    '/pipelines',
    { name, agent_type: 'rag' },
    token,
  );
  await form(WIZARD_ROUTES.rag.source, { session_id: id, source_type: 'csv' });
  const upload = new FormData();
  upload.set('session_id', id);
  upload.set('file', new Blob([csv.text], { type: 'text/csv' }), 'sales.csv');
  await gateway.call('POST', WIZARD_ROUTES.rag.upload, upload, token, 'multipart');
  await form(WIZARD_ROUTES.rag.embedding, {
    session_id: id,
    model_name: 'text-embedding-ada-002',
  });
  await form(WIZARD_ROUTES.rag.vectorDb, { session_id: id, vector_db: 'chromadb' });
  await form(WIZARD_ROUTES.rag.localVectorDb, {
    session_id: id,
    vector_db: 'chromadb',
    url: 'http://chroma:8000',
  });
  await form(WIZARD_ROUTES.rag.provider, { session_id: id, provider: 'openai' });
  await form(WIZARD_ROUTES.rag.credentials, {
    session_id: id,
    api_key: `sk-bench-${randomBytes(12).toString('hex')}`,
    model_name: 'gpt-4o-mini',
  });
  await form(WIZARD_ROUTES.rag.systemPrompt, {
    session_id: id,
    prompt: 'Answer from the sales rows.',
  });
  await form(WIZARD_ROUTES.rag.ui, { session_id: id, ui: 'gradio' });
  await form(buildPaths.start('rag'), { session_id: id });
  for (let i = 0; ; i += 1) {
    const build = await gateway.call('GET', buildPaths.view(id), undefined, token);
    if (build.status === 'Built') break;
    if (build.status === 'Failed') throw new Error(`the build failed: ${build.error}`);
    if (i > timeoutS * 10) throw new Error(`the build did not finish in ${timeoutS} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return id;
}

/**
 * Texts the stand-in `llm` has embedded so far. Counted as requests arrive (the builds send
 * hundreds of large batches): re-reading every request for each question would make a bench its
 * own bottleneck. Shared by bench:hosted and bench:knowledge.
 */
const tallies = new WeakMap();
export function embedded(llm) {
  const tally = tallies.get(llm) ?? { seen: 0, inputs: 0 };
  for (const request of llm.requests.slice(tally.seen)) {
    if (request.path === '/v1/embeddings') tally.inputs += request.body.input.length;
  }
  tally.seen = llm.requests.length;
  tallies.set(llm, tally);
  return tally.inputs;
}

export const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
export const ms = (value) => `${value.toFixed(1)} ms`;

/**
 * The provider's time for one question: among `requests` (those made since it was asked), the
 * ones whose question is this one — the embedding of the question, and the chat call whose last
 * message asks it (earlier turns in a later call's history do not count).
 */
function providerMs(requests, marker) {
  return requests
    .filter((request) => {
      const body = request.body ?? {};
      if (typeof body.input === 'string' || Array.isArray(body.input)) {
        return JSON.stringify(body.input).includes(marker);
      }
      const last = body.messages?.at(-1);
      return last ? JSON.stringify(last.content).includes(marker) : false;
    })
    .reduce((sum, request) => sum + request.ms, 0);
}

/**
 * One question to a published agent through `POST /agents/{id}/chat`, streamed to its end: its
 * total time and overhead (total minus the stand-in provider's time), and its conversation. A
 * refusal (429/503) is returned as `failed`, not thrown: under load it is itself a figure.
 */
export async function askPublished(base, llm, agent, order, conversationId) {
  const marker = `ORD-${order}?`;
  // Only the requests made since this question was asked can be its own: the builds sent
  // thousands before, and reading them all again for every answer made the bench its own bottleneck.
  const from = llm.requests.length;
  const t0 = performance.now();
  const response = await fetch(`${base}/agents/${agent.id}/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${agent.key}` },
    body: JSON.stringify({
      message: `What was shipped on order ${marker}`,
      conversation_id: conversationId,
      stream: true,
    }),
  });
  const body = await response.text();
  const total = performance.now() - t0;
  if (!response.ok || !body.includes('event: done')) {
    return { failed: `${response.status} ${/"detail":"([^"]*)"/.exec(body)?.[1] ?? ''}`.trim() };
  }
  return {
    total,
    overhead: total - providerMs(llm.requests.slice(from), marker),
    conversation: /"conversation_id":"([^"]+)"/.exec(body)?.[1],
  };
}

/** User plus system CPU a process has used, in ms (Linux clock ticks of 10 ms). */
export const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/**
 * `conversations` conversations at once, `turns` turns each, every turn after the first
 * continuing its conversation, to a published `agent` over `rows` sales rows: answers/s, p50/p95,
 * errors, and the gateway's CPU per question (the process `gateway.pid`).
 */
export async function conversationsAtOnce(gateway, llm, agent, rows, { conversations, turns }) {
  const results = [];
  const cpu0 = cpuMs(gateway.pid);
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: conversations }, async (_, c) => {
      let conversation;
      for (let turn = 0; turn < turns; turn += 1) {
        const order = 1 + (((c * turns + turn) * 104729) % rows);
        const result = await askPublished(gateway.base, llm, agent, order, conversation);
        conversation = result.conversation ?? conversation;
        results.push(result);
      }
    }),
  );
  const wall = performance.now() - t0;
  const ok = results.filter((r) => !r.failed);
  const totals = ok.map((r) => r.total).sort((a, b) => a - b);
  return {
    rate: (ok.length / wall) * 1000,
    p50: percentile(totals, 0.5),
    p95: percentile(totals, 0.95),
    errors: results.length - ok.length,
    cpuPerQuestion: (cpuMs(gateway.pid) - cpu0) / results.length,
  };
}
