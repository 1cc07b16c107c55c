// npm run bench:hosted — hosted agents at scale (issue #26): what loading an agent costs, how fast
// the first and the warm answers are at 300 rows, 12k and 120k chunks, how much CPU and memory an
// agent costs the gateway, how /health fares while a large agent works, and the HNSW index's recall.
//
// The built gateway (answering in its own process) and builder-worker as real processes on their
// own database (agentloom_bench_hosted), the agent runtime's OpenAI-compatible stand-in in this
// process (it counts every text it embeds, and times itself), RAG agents configured through the
// wizard's API with OpenAI embeddings and built by the real worker, which embeds each source once.
// BENCH_LARGE_BYTES (7 MB, ~120k chunks) sizes the large source, BENCH_MANY_AGENTS (200) the memory run,
// BENCH_CONVERSATIONS (50) × BENCH_TURNS (4) the load. Prints every figure; never fails on one.
import { buildPaths } from '@agentloom/contracts';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startGateway } from './bench-gateway.mjs';
import { healthWhile, recallAt4 } from './bench-probes.mjs';
import {
  askPublished,
  buildRagAgent,
  conversationsAtOnce,
  embedded,
  ms,
  percentile,
  runBench,
  salesCsv,
  withRagStack,
} from './bench-rag-agent.mjs';

// 7 MB of the bench's sales rows is about 120k chunks, the large agent (its rows were longer).
const LARGE_BYTES = Number(process.env.BENCH_LARGE_BYTES ?? 7 * 1024 * 1024);
const MANY_AGENTS = Number(process.env.BENCH_MANY_AGENTS ?? 200);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 50);
const TURNS = Number(process.env.BENCH_TURNS ?? 4);
const PORT = Number(process.env.BENCH_PORT ?? 18320);
/** Questions each of the 8 askers sends while /health is probed. */
const HEALTH_QUESTIONS = 200;
// Every gateway of the run signs with it; a repeated pattern would be refused at start.
const JWT_SECRET = randomBytes(48).toString('base64url');

const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
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

/** Builds and publishes an agent over `csv`; the build's wall time and the texts it embedded. */
async function builtAgent(gateway, llm, token, name, csv) {
  const before = embedded(llm);
  const t0 = performance.now();
  const id = await buildRagAgent(gateway, token, name, csv, 1800);
  const buildMs = performance.now() - t0;
  return {
    ...(await publish(gateway, token, id)),
    buildMs,
    embedded: embedded(llm) - before,
  };
}

/** The three agents the figures are measured on, built (and timed) by the real worker. */
async function buildAgents(gateway, llm, token) {
  const csv = { small: salesCsv(22 * 1024), medium: salesCsv(), large: salesCsv(LARGE_BYTES) };
  console.log(`  (building: ${csv.small.rows}, ${csv.medium.rows} and ${csv.large.rows} rows…)`);
  const agents = {};
  for (const [size, name] of [
    ['small', 'Hosted small'],
    ['medium', 'Hosted 1 MB'],
    ['large', 'Hosted large'],
  ]) {
    agents[size] = {
      ...(await builtAgent(gateway, llm, token, name, csv[size])),
      rows: csv[size].rows,
    };
    console.log(
      `  build of ${agents[size].rows} rows: ${(agents[size].buildMs / 1000).toFixed(1)} s`,
    );
  }
  return agents;
}

/** Asks an agent's first question (which loads it); the texts embedded beyond the question. */
async function firstAnswer(base, llm, agent) {
  const before = embedded(llm);
  const result = await askPublished(base, llm, agent, 1 + (agent.rows >> 1));
  return { ...result, extra: embedded(llm) - before - 1 };
}

/**
 * Warm answers and /health of the large agent: one at a time, then 8 at once. The 8 ask
 * HEALTH_QUESTIONS each, about 5 s and some 180 probes (when they asked 10 each, the p95 of 20–40
 * probes was the slowest one or two), and the gateway's own event-loop delay over the same window
 * is printed beside the probe's.
 */
async function measureLarge(gateway, llm, agent) {
  const warm = [];
  for (let q = 0; q < 100; q += 1)
    warm.push(await askPublished(gateway.base, llm, agent, 1 + ((q * 7919) % agent.rows)));
  const overheads = warm
    .filter((r) => !r.failed)
    .map((r) => r.overhead)
    .sort((a, b) => a - b);
  let health;
  const eventLoop = await gateway.eventLoopDelay(async () => {
    health = await healthWhile(gateway.base, () =>
      Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          for (let q = 0; q < HEALTH_QUESTIONS; q += 1) {
            const row = 1 + (((i * HEALTH_QUESTIONS + q) * 6007) % agent.rows);
            await askPublished(gateway.base, llm, agent, row);
          }
        }),
      ),
    );
  });
  return { overheads, health, eventLoop };
}

/** A restarted gateway and a second replica beside it load the medium agent from its index. */
async function measureRestart(gateway, llm, stack, agent) {
  await gateway.stop();
  const env = {
    VAULT_MASTER_KEY: stack.masterKey,
    QUEUE_PREFIX: stack.prefix,
    OPENAI_BASE_URL: llm.baseUrls.openai,
    ...GATEWAY_ENV,
  };
  const restarted = await startGateway({ port: PORT, dataDir: stack.dataDir, env });
  const afterRestart = await firstAnswer(restarted.base, llm, agent);
  const second = await startGateway({ port: PORT + 1, dataDir: stack.dataDir, env });
  const onSecond = await firstAnswer(second.base, llm, agent);
  second.stop();
  return { restarted, afterRestart, onSecond };
}

/** MANY_AGENTS small agents asked in turn on one gateway: RSS growth per agent, re-embedding. */
async function measureMany(gateway, llm, token) {
  console.log(`  (${MANY_AGENTS} small agents built and asked in turn…)`);
  const tiny = salesCsv(2 * 1024);
  const many = [];
  for (let n = 0; n < MANY_AGENTS; n += 1)
    many.push({ ...(await builtAgent(gateway, llm, token, `Many ${n}`, tiny)), rows: tiny.rows });
  const rssBefore = rssMb(gateway.pid);
  const before = embedded(llm);
  for (const agent of many) await askPublished(gateway.base, llm, agent, 3);
  const perAgentMb = (rssMb(gateway.pid) - rssBefore) / MANY_AGENTS;
  const reembedded = embedded(llm) - before - MANY_AGENTS;
  // The first again, after all the others (evicted by the per-user cap): loaded anew.
  const again = await firstAnswer(gateway.base, llm, many[0]);
  return { perAgentMb, reembedded, againExtra: again.extra };
}

async function measure({ llm, gateway: first, token, stack }) {
  const agents = await buildAgents(first, llm, token);
  const firsts = {};
  for (const size of ['medium', 'large', 'small'])
    firsts[size] = await firstAnswer(first.base, llm, agents[size]);
  const large = await measureLarge(first, llm, agents.large);
  console.log(`  (${CONVERSATIONS} conversations × ${TURNS} turns, three sizes…)`);
  const loads = {};
  for (const size of ['small', 'medium', 'large']) {
    loads[size] = await conversationsAtOnce(first, llm, agents[size], agents[size].rows, {
      conversations: CONVERSATIONS,
      turns: TURNS,
    });
    const { rate, p95, cpuPerQuestion } = loads[size];
    console.log(
      `  ${agents[size].rows} rows: ${rate.toFixed(1)} answers/s, p95 ${ms(p95)}, ${cpuPerQuestion.toFixed(1)} ms CPU a question`,
    );
  }
  const restart = await measureRestart(first, llm, stack, agents.medium);
  const many = await measureMany(restart.restarted, llm, token);
  const build = await restart.restarted.call(
    'GET',
    buildPaths.view(agents.large.id),
    undefined,
    token,
  );
  const questions = Array.from(
    { length: 100 },
    (_, i) =>
      `${['lantern', 'kettle', 'scarf', 'teapot'][i % 4]} Porto week ${i % 52} courier ${i % 9}`,
  );
  const recall = await recallAt4(stack, agents.large.id, build.build_id, llm, questions);
  report({ agents, firsts, large, loads, restart, many, recall });
}

function report({ agents, firsts, large, loads, restart, many, recall }) {
  const rows = [];
  const figure = (name, value, target, before) => rows.push([name, value, target, before]);
  const { medium } = agents;
  const big = agents.large;
  const atLoad = [
    firsts.medium.extra,
    firsts.large.extra,
    firsts.small.extra,
    restart.afterRestart.extra,
    restart.onSecond.extra,
    many.againExtra,
  ];
  figure(
    'embedding inputs sent at load (publish ×3 sizes, restart, second replica, after eviction)',
    atLoad.join(', '),
    '0',
    '12,002',
  );
  figure(
    `first answer after publish, 1 MB CSV (${medium.rows} rows)`,
    ms(firsts.medium.total),
    '< 1 s',
    '6.9 s',
  );
  figure('first answer after restart, 1 MB CSV', ms(restart.afterRestart.total), '< 1 s', '6.9 s');
  figure(
    `first answer, ${(LARGE_BYTES / 1048576).toFixed(0)} MB source (${big.rows} chunks, 1536 dims)`,
    ms(firsts.large.total),
    '< 2 s',
    'minutes',
  );
  figure(
    `warm answer overhead, ${big.rows} chunks`,
    `p50 ${ms(percentile(large.overheads, 0.5))}, p95 ${ms(percentile(large.overheads, 0.95))}`,
    'p95 < 50 ms',
    '—',
  );
  figure(
    `/health p95 while the ${big.rows}-chunk agent answers 8 at once (${large.health.count} probes)`,
    ms(large.health.p95),
    '< 50 ms',
    '335 ms (12k)',
  );
  const delay = large.eventLoop;
  figure(
    "the gateway's event-loop delay meanwhile",
    `p50 ${ms(delay.p50)}, p95 ${ms(delay.p95)}, p99 ${ms(delay.p99)}, max ${ms(delay.max)}`,
    '—',
    '—',
  );
  figure(
    `gateway RSS growth per loaded agent (${MANY_AGENTS} asked in turn)`,
    `${many.perAgentMb.toFixed(2)} MB; re-embedded ${many.reembedded}`,
    '< 20 MB, none',
    '154–241 MB, cap 16',
  );
  loadFigures(figure, agents, loads, recall);
  console.log(
    '\nbench:hosted — hosted RAG agents, OpenAI embeddings (stand-in), gateway answering itself',
  );
  console.log('| figure | now | target | before (issue #26) |\n|---|---|---|---|');
  for (const [name, value, target, before] of rows)
    console.log(`| ${name} | ${value} | ${target} | ${before} |`);
}

/** The throughput, latency and CPU figures of the three agents under load; builds and recall. */
function loadFigures(figure, agents, loads, recall) {
  const { small, medium } = agents;
  const big = agents.large;
  const line = (r) =>
    `${r.rate.toFixed(1)} answers/s, p50 ${ms(r.p50)}, p95 ${ms(r.p95)}, ${r.errors} errors`;
  figure(
    `${CONVERSATIONS} × ${TURNS}, small agent (${small.rows} rows)`,
    line(loads.small),
    '≥ 150/s, p95 < 500 ms, 0 errors',
    '50/s, p95 1.6 s',
  );
  figure(
    `${CONVERSATIONS} × ${TURNS}, ${medium.rows} rows`,
    line(loads.medium),
    '≥ 100/s',
    '16/s (12k)',
  );
  figure(`${CONVERSATIONS} × ${TURNS}, ${big.rows} chunks`, line(loads.large), '≥ 100/s', '—');
  figure(
    'gateway CPU per question, small agent',
    `${loads.small.cpuPerQuestion.toFixed(1)} ms (${medium.rows}: ${loads.medium.cpuPerQuestion.toFixed(1)}, ${big.rows}: ${loads.large.cpuPerQuestion.toFixed(1)})`,
    '≤ 6 ms',
    '23 ms',
  );
  figure(
    `build of a 1 MB CSV with OpenAI embeddings (${medium.embedded} chunks embedded)`,
    `${(medium.buildMs / 1000).toFixed(1)} s`,
    '< 10 s',
    '1.5 s (embedded nothing)',
  );
  figure(
    `build of the ${big.rows}-row source (embedded once, search graph)`,
    `${(big.buildMs / 1000).toFixed(1)} s`,
    '—',
    '—',
  );
  figure(
    `recall@4 of the search graph against exact search, ${big.rows} chunks`,
    recall.toFixed(3),
    '≥ 0.95',
    '—',
  );
}

// One user owns every agent here: the per-account agent quota is lifted for the memory run.
const GATEWAY_ENV = { JWT_SECRET, MAX_PIPELINES_PER_USER: String(MANY_AGENTS + 10) };

runBench(() => withRagStack({ name: 'hosted', port: PORT, env: GATEWAY_ENV }, measure));
