// npm run bench:start — the gateway `npm start` runs against the production-mode gateway the
// other benches (and compose) run, measured the same way: a published agent's answers/s, p95 and
// the gateway's CPU per question at BENCH_CONVERSATIONS (50) conversations × BENCH_TURNS (4).
//
// One stack (bench-rag-agent.mjs): its own database (agentloom_bench_start), the built worker,
// the agent runtime's OpenAI-compatible stand-in in this process. A RAG agent over bench:hosted's
// small sales CSV (22 KB, ~390 rows) is built and published once. Then each round starts the
// gateway both ways in turn on the same port and data (the order alternates, so a busy moment of
// the shared machine falls on either): `npm start`'s is scripts/start.mjs, npm start's last step
// (the gateway, a worker, the web app and the mail catcher, the last two on free ports), with
// NODE_ENV unset (bench-gateway.mjs); production's is node on dist/main.js with
// NODE_ENV=production. Both log at BENCH_LOG_LEVEL (warn).
//
// Each gateway is measured twice: cold, the 50 × 4 right after its first answer (what a fresh
// `npm start` shows), and warm, after BENCH_WARMUP (800) more questions (what bench:hosted's
// gateway shows: it has answered some 1,700 before its 50 × 4). CPU is the gateway process's (all
// its threads), split by thread: the main thread (JavaScript), V8's workers (compiling hot code,
// garbage collection), libuv's pool, LanceDB's runtime (tokio) and the log's (pino-pretty).
// BENCH_ROUNDS (3) rounds; medians, the spread and the load average are printed.
// BENCH_PROFILE=<dir> also writes a CPU profile of each gateway (--cpu-prof) there and prints the
// places and functions that took the main thread's time in each mode, warm and cold.
// Never fails on a figure.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { startGateway } from './bench-gateway.mjs';
import {
  askPublished,
  buildRagAgent,
  conversationsAtOnce,
  ms,
  runBench,
  salesCsv,
  withRagStack,
} from './bench-rag-agent.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 50);
const TURNS = Number(process.env.BENCH_TURNS ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 800);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'warn';
const PORT = Number(process.env.BENCH_PORT ?? 18330);
const PROFILE_DIR = process.env.BENCH_PROFILE ? path.resolve(process.env.BENCH_PROFILE) : null;
const MODES = [
  { name: 'npm start', npmStart: true },
  { name: 'production', npmStart: false },
];
const PHASES = ['cold', 'warm'];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const slug = (name) => name.replace(/\W+/g, '-');
/** CLOCK_MONOTONIC in µs: the clock of V8's profile timestamps on Linux, in every process. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** CPU (user + system, ms) each kind of thread of `pid` has used, by the thread's name. */
function threadCpu(pid) {
  const byName = {};
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      const name = threadKind(/\((.*)\)/.exec(stat)[1]);
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      byName[name] = (byName[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return byName;
}

const THREAD_KINDS = {
  MainThread: 'main',
  V8Worker: 'V8 workers',
  'libuv-worker': 'libuv',
  'tokio-rt-worker': 'LanceDB',
  'pino-pretty': 'log',
};
const threadKind = (name) => THREAD_KINDS[name] ?? 'other';

/** One measured 50 × 4: the figures, CPU by thread per question, and the profile's window. */
async function measured(gateway, llm, agent, profileDir, phase) {
  const threads0 = threadCpu(gateway.pid);
  const load0 = loadavg()[0];
  const from = monotonicUs();
  const figures = await conversationsAtOnce(gateway, llm, agent, agent.rows, {
    conversations: CONVERSATIONS,
    turns: TURNS,
  });
  if (profileDir)
    writeFileSync(
      path.join(profileDir, `${phase}.window.json`),
      JSON.stringify({ from, to: monotonicUs() }),
    );
  const threads1 = threadCpu(gateway.pid);
  const questions = CONVERSATIONS * TURNS;
  const perThread = Object.fromEntries(
    Object.keys(threads1).map((name) => [
      name,
      (threads1[name] - (threads0[name] ?? 0)) / questions,
    ]),
  );
  return { ...figures, perThread, load: (load0 + loadavg()[0]) / 2 };
}

/** One gateway in `mode`: started, asked once (it loads the agent), measured cold and warm. */
async function measureMode(mode, stack, llm, agent, round) {
  const profileDir = PROFILE_DIR && path.join(PROFILE_DIR, `${slug(mode.name)}-${round}`);
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const previousFlags = process.env.BENCH_GATEWAY_FLAGS;
  if (profileDir) process.env.BENCH_GATEWAY_FLAGS = `--cpu-prof --cpu-prof-dir=${profileDir}`;
  const gateway = await startGateway({
    port: PORT,
    dataDir: stack.dataDir,
    npmStart: mode.npmStart,
    env: {
      VAULT_MASTER_KEY: stack.masterKey,
      QUEUE_PREFIX: stack.prefix,
      OPENAI_BASE_URL: llm.baseUrls.openai,
      LOG_LEVEL,
    },
  });
  if (previousFlags === undefined) delete process.env.BENCH_GATEWAY_FLAGS;
  else process.env.BENCH_GATEWAY_FLAGS = previousFlags;
  try {
    await askPublished(gateway.base, llm, agent, 1);
    const cold = await measured(gateway, llm, agent, profileDir, 'cold');
    for (let asked = 0; asked < WARMUP; asked += CONVERSATIONS * TURNS)
      await conversationsAtOnce(gateway, llm, agent, agent.rows, {
        conversations: CONVERSATIONS,
        turns: TURNS,
      });
    const warm = await measured(gateway, llm, agent, profileDir, 'warm');
    return { cold, warm };
  } finally {
    await gateway.stop();
  }
}

/**
 * Where the main thread's time went in the profiles in `dirs`, within each one's `phase` window:
 * self time grouped by place (a package under node_modules, Node's own code, the gateway's or a
 * workspace package's) and by function, as shares of the busy samples.
 */
function profileSummary(dirs, phase) {
  const byPlace = new Map();
  const byFunction = new Map();
  let total = 0;
  const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
  for (const dir of dirs) {
    const window = JSON.parse(readFileSync(path.join(dir, `${phase}.window.json`), 'utf8'));
    const profiles = readdirSync(dir)
      .filter((file) => file.endsWith('.cpuprofile'))
      .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')))
      // npm's own process writes a profile too (NODE_OPTIONS): only the gateway's counts.
      .filter((p) => p.nodes.some((node) => node.callFrame.url.includes('apps/gateway/dist/')));
    for (const profile of profiles) {
      const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
      let at = profile.startTime;
      for (let i = 0; i < profile.samples.length; i += 1) {
        at += profile.timeDeltas[i];
        // A sample stands for the interval up to the next one.
        const us = profile.timeDeltas[i + 1] ?? 0;
        if (at < window.from || at > window.to) continue;
        const { functionName, url } = nodes.get(profile.samples[i]).callFrame;
        if (functionName === '(idle)') continue;
        total += us;
        const place = placeOf(url, functionName);
        add(byPlace, place, us);
        add(byFunction, `${functionName || '(anonymous)'} [${place}]`, us);
      }
    }
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `${((us / total) * 100).toFixed(1)}% ${name}`);
  return { busyMs: total / 1000, places: top(byPlace, 8), functions: top(byFunction, 8) };
}

/** Where a function lives: its package, Node's own code, a workspace package, or V8 itself. */
function placeOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.startsWith('node:')) return 'node';
  const ours = /(apps|packages)\/([^/]+)\//.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

/** The figures of every round of one mode and phase: median (min–max). */
function row(results) {
  const spread = (pick, format) => {
    const values = results.map(pick);
    return `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;
  };
  const kinds = [...new Set(results.flatMap((r) => Object.keys(r.perThread)))].sort();
  const threads = kinds
    .map((kind) => `${kind} ${median(results.map((r) => r.perThread[kind] ?? 0)).toFixed(2)}`)
    .join(', ');
  return [
    spread(
      (r) => r.rate,
      (v) => v.toFixed(1),
    ),
    spread(
      (r) => r.p95,
      (v) => `${v.toFixed(0)} ms`,
    ),
    spread(
      (r) => r.cpuPerQuestion,
      (v) => `${v.toFixed(2)} ms`,
    ),
    threads,
    results.reduce((n, r) => n + r.errors, 0),
    results.map((r) => r.load.toFixed(1)).join(', '),
  ];
}

async function measure({ llm, gateway, token, stack }) {
  const csv = salesCsv(22 * 1024);
  const id = await buildRagAgent(gateway, token, 'Start or production', csv);
  await gateway.call('PUT', `/agents/${id}/publication`, undefined, token);
  const key = await gateway.call(
    'POST',
    `/agents/${id}/keys`,
    { name: 'bench', rate_limit_per_minute: 10_000 },
    token,
  );
  const agent = { id, key: key.secret, rows: csv.rows };
  // The stack's own gateway built the agent; each round starts its two from here.
  await gateway.stop();

  const runs = new Map(MODES.map((mode) => [mode.name, []]));
  for (let round = 1; round <= ROUNDS; round += 1) {
    const order = round % 2 ? MODES : [...MODES].reverse();
    for (const mode of order) {
      const result = await measureMode(mode, stack, llm, agent, round);
      runs.get(mode.name).push(result);
      for (const phase of PHASES) {
        const r = result[phase];
        console.log(
          `  round ${round}, ${mode.name.padEnd(10)} ${phase}: ${r.rate.toFixed(1)} answers/s, ` +
            `p95 ${ms(r.p95)}, ${r.cpuPerQuestion.toFixed(2)} ms CPU a question, ` +
            `${r.errors} errors (load ${r.load.toFixed(1)})`,
        );
      }
    }
  }

  console.log(
    `\nbench:start — a published RAG agent (${csv.rows} rows), ${CONVERSATIONS} conversations × ` +
      `${TURNS} turns, LOG_LEVEL=${LOG_LEVEL}, ${ROUNDS} rounds; median (min–max)`,
  );
  console.log(
    '| gateway | answers/s | p95 | gateway CPU a question | by thread (ms a question) | errors | load average |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const phase of PHASES)
    for (const [name, results] of runs)
      console.log(`| ${name}, ${phase} | ${row(results.map((r) => r[phase])).join(' | ')} |`);
  for (const phase of PHASES) {
    const rate = (name) => median(runs.get(name).map((r) => r[phase].rate));
    console.log(
      `${phase}: npm start serves ${((rate('npm start') / rate('production')) * 100).toFixed(0)}% ` +
        `of production mode's answers/s (target: at least 80%).`,
    );
  }

  if (PROFILE_DIR) {
    for (const phase of PHASES)
      for (const mode of MODES) {
        const dirs = readdirSync(PROFILE_DIR)
          .filter((dir) => dir.startsWith(`${slug(mode.name)}-`))
          .map((dir) => path.join(PROFILE_DIR, dir));
        const summary = profileSummary(dirs, phase);
        console.log(
          `\nmain thread, ${mode.name}, ${phase} (${dirs.length} gateways, ${summary.busyMs.toFixed(0)} ms busy):`,
        );
        console.log(`  by place:    ${summary.places.join(' · ')}`);
        console.log(`  by function: ${summary.functions.join(' · ')}`);
      }
  }
}

runBench(() => withRagStack({ name: 'start', port: PORT }, measure));
