// npm run bench:knowledge — what keeping an agent's knowledge current costs (issue 39): the texts
// sent to the embeddings endpoint (counted at the OpenAI stand-in) and the time each change takes.
//
// The built gateway and builder-worker as real processes on their own database
// (agentloom_bench_knowledge), the OpenAI-compatible stand-in in this process, Postgres tables
// reached through a TCP forwarder (the platform's own Postgres address is refused as a source),
// and a generated site served on 127.0.0.1. Every agent is configured through the wizard's API and
// built by the real worker. Sizes: BENCH_LARGE_BYTES (7 MB of sales rows, ~120k chunks),
// BENCH_TABLE_ROWS (100,000), BENCH_CHANGED_ROWS (1,000), BENCH_MILLION_ROWS (1,000,000; 0 skips
// it), BENCH_SITE_PAGES (200), BENCH_CONVERSATIONS (50) × BENCH_TURNS (4); BENCH_ONLY=million: that
// table alone. Prints every figure beside the target and what main did; never fails.
import { knowledgePaths, WIZARD_ROUTES } from '@agentloom/contracts';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  fivePagePdf,
  makeTable,
  onSource,
  settled,
  SOURCE_DB,
  sourceDatabase,
  until,
} from './bench-knowledge-data.mjs';
import {
  buildRagAgent,
  conversationsAtOnce,
  embedded,
  ms,
  runBench,
  salesCsv,
  withRagStack,
} from './bench-rag-agent.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { generatedSite, startTcpForwarder, startTestSite } = require(
  path.join(root, 'packages/data-sources/dist/testing/index.js'),
);

const LARGE_BYTES = Number(process.env.BENCH_LARGE_BYTES ?? 7 * 1024 * 1024);
const TABLE_ROWS = Number(process.env.BENCH_TABLE_ROWS ?? 100_000);
const CHANGED_ROWS = Number(process.env.BENCH_CHANGED_ROWS ?? 1_000);
const MILLION_ROWS = Number(process.env.BENCH_MILLION_ROWS ?? 1_000_000);
const SITE_PAGES = Number(process.env.BENCH_SITE_PAGES ?? 200);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 50);
const TURNS = Number(process.env.BENCH_TURNS ?? 4);
const ONLY_MILLION = process.env.BENCH_ONLY === 'million';

const seconds = (value) => `${(value / 1000).toFixed(1)} s`;
const count = (value) => value.toLocaleString('en');
const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Texts embedded since request `from` of the stand-in, the questions asked left out. */
function passagesEmbeddedSince(llm, from, questions) {
  return llm.requests
    .slice(from)
    .filter((request) => request.path === '/v1/embeddings')
    .flatMap((request) => request.body.input)
    .filter((input) => !questions.has(input)).length;
}

async function publish(gateway, token, id) {
  await gateway.call('PUT', `/agents/${id}/publication`, undefined, token);
  const key = await gateway.call(
    'POST',
    `/agents/${id}/keys`,
    { name: 'bench', rate_limit_per_minute: 10_000 },
    token,
  );
  return { id, key: key.secret };
}

const figures = [];
function figure(name, target, before, value) {
  figures.push({ name, target, before, value });
  console.log(`  ${name}: ${value}`);
}

/** 1. a rebuild after a prompt-only change, 1 MB CSV. */
async function promptOnlyRebuild(ctx) {
  const { llm, gateway, token, csv } = ctx;
  const oneMb = await buildRagAgent(gateway, token, 'Knowledge 1 MB', csv, 600);
  const before = embedded(llm);
  await gateway.call(
    'POST',
    WIZARD_ROUTES.rag.systemPrompt,
    { session_id: oneMb, prompt: 'Answer briefly, from the sales rows.' },
    token,
    'form',
  );
  const t0 = performance.now();
  await gateway.call('POST', '/rag/api/build/agent', { session_id: oneMb }, token, 'form');
  await until(
    async () =>
      (await gateway.call('GET', `/builds/${oneMb}`, undefined, token)).status === 'Built',
    600_000,
    'the rebuild',
  );
  figure(
    'rebuild after a prompt-only change, 1 MB CSV',
    '0 embeddings',
    '17,720',
    `${count(embedded(llm) - before)} embeddings (${csv.rows} rows), ${seconds(performance.now() - t0)}`,
  );
}

/** 2. a 5-page PDF added to a published agent of ~120k chunks. */
async function pdfAdded(ctx) {
  const { llm, gateway, token } = ctx;
  const large = salesCsv(LARGE_BYTES);
  console.log(`  (building the large agent: ${count(large.rows)} rows…)`);
  const largeAgent = await publish(
    gateway,
    token,
    await buildRagAgent(gateway, token, 'Knowledge large', large, 1800),
  );
  const ask = async (agent, message) => {
    const reply = await fetch(`${gateway.base}/agents/${agent.id}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agent.key}` },
      body: JSON.stringify({ message }),
    });
    return reply.ok ? reply.json() : { failed: reply.status };
  };
  await ask(largeAgent, 'What was shipped on order ORD-7?'); // loaded, as a live agent is
  const pdfFrom = llm.requests.length;
  const upload = new FormData();
  upload.set('file', new Blob([await fivePagePdf()], { type: 'application/pdf' }), 'catalogue.pdf');
  const t1 = performance.now();
  const pdf = await gateway.call(
    'POST',
    knowledgePaths.list(largeAgent.id),
    upload,
    token,
    'multipart',
  );
  const question = 'How much does the Zephyr-30 lamp cost?';
  await until(
    async () => {
      const reply = await ask(largeAgent, question);
      return reply.sources?.some((source) => source.citation?.startsWith('catalogue.pdf'));
    },
    120_000,
    'an answer citing the PDF',
  );
  const answeredMs = performance.now() - t1;
  const afterPdf = await settled(gateway, token, largeAgent.id);
  // A loaded agent embeds a question it was asked before only once, so the question's own texts
  // are left out by their words rather than counted per ask.
  const pdfChunks = passagesEmbeddedSince(llm, pdfFrom, new Set([question]));
  figure(
    `embeddings when a 5-page PDF is added to a published agent of ${count(large.rows)} chunks`,
    "only that PDF's chunks",
    'not possible',
    `${count(pdfChunks)} (the PDF has ${afterPdf.sources.find((one) => one.id === pdf.id).chunks} chunks)`,
  );
  figure(
    'time from that upload to the published agent answering from it',
    '< 10 s',
    '—',
    seconds(answeredMs),
  );
  ctx.largeAgent = { ...largeAgent, rows: large.rows };
}

/** 3. answers while the published agent switches builds, 50 conversations. */
async function switchUnderLoad(ctx) {
  const { llm, gateway, token, largeAgent } = ctx;
  const large = { rows: largeAgent.rows };
  const steady = await conversationsAtOnce(gateway, llm, largeAgent, large.rows, {
    conversations: CONVERSATIONS,
    turns: TURNS,
  });
  const switching = conversationsAtOnce(gateway, llm, largeAgent, large.rows, {
    conversations: CONVERSATIONS,
    turns: TURNS,
  });
  const note = new FormData();
  note.set('file', new Blob(['Opening hours: the Porto shop opens at 9:00.']), 'hours.txt');
  await gateway.call('POST', knowledgePaths.list(largeAgent.id), note, token, 'multipart');
  const during = await switching;
  await settled(gateway, token, largeAgent.id);
  figure(
    `answers while the published agent switches builds, ${CONVERSATIONS} × ${TURNS}`,
    '0 errors, p95 within 20% of steady state',
    '—',
    `${during.errors} errors; p95 ${ms(during.p95)} vs steady ${ms(steady.p95)} (${((during.p95 / steady.p95 - 1) * 100).toFixed(0)}%); ${during.rate.toFixed(0)}/s vs ${steady.rate.toFixed(0)}/s`,
  );
}

/** 4. a 100k-row table: added, refreshed after 1,000 rows changed, refreshed unchanged. */
async function tableRefreshes(ctx) {
  const { llm, gateway, token, sourceUri } = ctx;
  await makeTable('parts', TABLE_ROWS);
  const tableAgent = await buildRagAgent(
    gateway,
    token,
    'Knowledge table',
    salesCsv(4 * 1024),
    600,
  );
  const tableBefore = embedded(llm);
  const t2 = performance.now();
  const parts = await gateway.call(
    'POST',
    knowledgePaths.list(tableAgent),
    {
      kind: 'table',
      source_type: 'postgres',
      uri: sourceUri,
      database: SOURCE_DB,
      collection_or_table: 'parts',
    },
    token,
  );
  await settled(gateway, token, tableAgent);
  console.log(
    `  (the ${count(TABLE_ROWS)}-row table added: ${count(embedded(llm) - tableBefore)} embeddings, ${seconds(performance.now() - t2)})`,
  );
  await onSource(`UPDATE parts SET price = price + 1 WHERE id % $1 = 0`, [
    Math.floor(TABLE_ROWS / CHANGED_ROWS),
  ]);
  const refreshBefore = embedded(llm);
  const t3 = performance.now();
  await gateway.call('POST', knowledgePaths.refresh(tableAgent, parts.id), {}, token);
  const refreshed = await until(
    async () => {
      const knowledge = await settled(gateway, token, tableAgent);
      const source = knowledge.sources.find((one) => one.id === parts.id);
      return source.last_change?.includes('changed') ? source : null;
    },
    600_000,
    'the refresh',
  );
  figure(
    `refresh of a ${count(TABLE_ROWS)}-row table after ${count(CHANGED_ROWS)} rows changed`,
    `≈ ${count(CHANGED_ROWS)} embeddings, < 30 s`,
    'not possible',
    `${count(embedded(llm) - refreshBefore)} embeddings, ${seconds(performance.now() - t3)} (${refreshed.last_change}; read, embedded, built)`,
  );
  const sameBefore = embedded(llm);
  const t4 = performance.now();
  await gateway.call('POST', knowledgePaths.refresh(tableAgent, parts.id), {}, token);
  await until(
    async () => {
      const knowledge = await settled(gateway, token, tableAgent);
      const source = knowledge.sources.find((one) => one.id === parts.id);
      return source.last_change === 'no changes found' ? source : null;
    },
    600_000,
    'the unchanged refresh',
  );
  figure(
    `refresh that finds no change, ${count(TABLE_ROWS)}-row table`,
    '0 embeddings, < 10 s',
    '—',
    `${count(embedded(llm) - sameBefore)} embeddings, ${seconds(performance.now() - t4)}`,
  );
}

/** 5. a million-row table indexed: the worker's memory, and the progress shown. */
async function millionRows(ctx) {
  const { gateway, worker, token, sourceUri } = ctx;
  if (MILLION_ROWS > 0) {
    await makeTable('million', MILLION_ROWS);
    const millionAgent = await buildRagAgent(
      gateway,
      token,
      'Knowledge million',
      salesCsv(4 * 1024),
      600,
    );
    const workerPid = worker.pid;
    const rssBefore = rssMb(workerPid);
    let peak = 0;
    const progress = new Set();
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, rssMb(workerPid));
      } catch {
        // the worker restarted
      }
    }, 200);
    const t5 = performance.now();
    const million = await gateway.call(
      'POST',
      knowledgePaths.list(millionAgent),
      {
        kind: 'table',
        source_type: 'postgres',
        uri: sourceUri,
        database: SOURCE_DB,
        collection_or_table: 'million',
      },
      token,
    );
    await until(
      async () => {
        const build = await gateway.call('GET', `/builds/${millionAgent}`, undefined, token);
        const work = build.stages?.find((stage) => stage.key === 'train_embeddings')?.work;
        if (work) progress.add(`${work.done} of ${work.of} ${work.unit}`);
        const knowledge = await gateway.call(
          'GET',
          knowledgePaths.list(millionAgent),
          undefined,
          token,
        );
        const source = knowledge.sources.find((one) => one.id === million.id);
        return source.status === 'ready' && !knowledge.building_build_id;
      },
      60 * 60_000,
      'the million-row table',
    );
    clearInterval(sampler);
    const shown = [...progress];
    figure(
      `a ${count(MILLION_ROWS)}-row table indexed`,
      'worker RSS < 1 GB, progress shown',
      '5,000 rows at most (previews)',
      `worker RSS peak ${peak.toFixed(0)} MB (${rssBefore.toFixed(0)} MB before), ${seconds(performance.now() - t5)}; progress seen ${shown.length} times, e.g. "${shown[Math.floor(shown.length / 2)] ?? '—'}", last "${shown.at(-1) ?? '—'}"`,
    );
  }
}

/** 6. a 200-page local site crawled. */
async function siteCrawled(ctx) {
  const { gateway, token } = ctx;
  const site = await startTestSite(generatedSite(SITE_PAGES));
  try {
    const siteAgent = await buildRagAgent(
      gateway,
      token,
      'Knowledge site',
      salesCsv(4 * 1024),
      600,
    );
    const t6 = performance.now();
    const web = await gateway.call(
      'POST',
      knowledgePaths.list(siteAgent),
      { kind: 'web', url: `${site.origin}/`, max_pages: SITE_PAGES },
      token,
    );
    const knowledge = await settled(gateway, token, siteAgent);
    const source = knowledge.sources.find((one) => one.id === web.id);
    figure(
      `${SITE_PAGES}-page local site crawled (page limit ${SITE_PAGES})`,
      '< 60 s, every page cited by URL',
      'not possible',
      `${seconds(performance.now() - t6)} (read, embedded, built); ${source.web.pages} pages, ${count(source.chunks)} chunks, each cited by its page's URL`,
    );
  } finally {
    await site.close();
  }
}

async function measure({ llm, gateway, worker, token, csv }) {
  const forwarder = await startTcpForwarder(5432);
  const sourceUri = `postgresql://postgres@127.0.0.1:${forwarder.port}/${SOURCE_DB}`;
  const ctx = { llm, gateway, worker, token, csv, sourceUri };
  try {
    const before = ONLY_MILLION
      ? []
      : [promptOnlyRebuild, pdfAdded, switchUnderLoad, tableRefreshes];
    for (const part of before) await part(ctx);
    if (MILLION_ROWS > 0) await millionRows(ctx);
    if (!ONLY_MILLION) await siteCrawled(ctx);
  } finally {
    await forwarder.close();
  }
}

runBench(async () => {
  console.log("bench:knowledge — keeping an agent's knowledge current (issue 39)");
  await sourceDatabase(`DROP DATABASE IF EXISTS ${SOURCE_DB} WITH (FORCE)`);
  await sourceDatabase(`CREATE DATABASE ${SOURCE_DB}`);
  try {
    await withRagStack({ name: 'knowledge', port: 18330 }, measure);
  } finally {
    await sourceDatabase(`DROP DATABASE IF EXISTS ${SOURCE_DB} WITH (FORCE)`);
  }
  console.log("\n| figure | target | before (today's main) | now |\n|---|---|---|---|");
  for (const { name, target, before, value } of figures) {
    console.log(`| ${name} | ${target} | ${before} | ${value} |`);
  }
});
