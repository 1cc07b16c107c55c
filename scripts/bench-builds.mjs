#!/usr/bin/env node
// npm run bench:builds — the builder worker's speed and memory (issue #4 targets: a single build
// completes in < 1 s p50; >= 10 builds/s with one worker; peak worker RSS < 250 MB on a 50 MB CSV).
//
// Runs the built worker (apps/builder-worker/dist/main.js) as real processes against its own
// database (agentloom_bench_builds), a queue prefix of its own on the local Redis and a throwaway
// data folder. Pipelines and build rows are seeded straight into Postgres, as the gateway would
// leave them, so only the worker is measured; jobs are enqueued exactly as the gateway does
// (BUILD_JOB_OPTIONS, job id = build id). Phases, each with fresh worker processes:
//   1. single: BENCH_SINGLE builds (20) of the 1 MB CSV, one at a time (enqueue → completed).
//   2. burst, 1 worker: BENCH_BUILDS (100) builds enqueued at once.
//   3. burst, 2 workers: the same with two worker processes.
//   4. large: one build of a BENCH_LARGE_MB (50) MB CSV.
// Latency is the job's enqueue → completed time as BullMQ records it (job.timestamp →
// job.finishedOn); builds/s is the burst's size over first enqueue → last completion. Peak RSS
// is the kernel's high-water mark of each worker process (VmHWM in /proc/<pid>/status).
//
// Settings: BENCH_WORKER_CONCURRENCY (4) builds per process; BENCH_CSV_MB (1); BENCH_WORKER_FLAGS
// passes Node flags to the workers (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"); BENCH_WORKER_MAIN
// runs another build of the worker; BENCH_BUILDS_DATABASE_URL, BENCH_REDIS_URL.
import { BUILD_AGENT_JOB, BUILD_JOB_OPTIONS, BUILDS_QUEUE } from '@agentloom/contracts';
import { createPrismaClient } from '@agentloom/db';
import { storeKeys } from '@agentloom/server-kit';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, migrate } from './db-migrate.mjs';
// The worker's own test fixture seeds what the gateway would leave, so the two cannot drift.
import buildFixtures from '../apps/builder-worker/dist/testing/build-fixtures.js';

const { seedRagBuild, seedUser } = buildFixtures;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builds = Number(process.env.BENCH_BUILDS ?? 100);
const singles = Number(process.env.BENCH_SINGLE ?? 20);
const csvMb = Number(process.env.BENCH_CSV_MB ?? 1);
const largeMb = Number(process.env.BENCH_LARGE_MB ?? 50);
const concurrency = Number(process.env.BENCH_WORKER_CONCURRENCY ?? 4);
const databaseUrl =
  process.env.BENCH_BUILDS_DATABASE_URL ??
  'postgresql://postgres@127.0.0.1:5432/agentloom_bench_builds';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Another build of the worker to measure, e.g. a copy with a change under evaluation.
const workerMain = path.resolve(
  root,
  process.env.BENCH_WORKER_MAIN ?? 'apps/builder-worker/dist/main.js',
);
const workerFlags = process.env.BENCH_WORKER_FLAGS ? process.env.BENCH_WORKER_FLAGS.split(' ') : [];
const targets = { singleP50Ms: 1000, buildsPerSecond: 10, largePeakMb: 250 };
/** No phase may take longer than this; a stuck build fails the bench instead of hanging it. */
const PHASE_TIMEOUT_MS = 10 * 60_000;

const work = await mkdtemp(path.join(os.tmpdir(), 'agentloom-bench-builds-'));
const dataDir = path.join(work, 'data');
const masterKey = randomBytes(32);
const prefix = `agentloom-bench-builds-${randomUUID().slice(0, 8)}`;

await ensureDatabase(databaseUrl);
migrate(databaseUrl);
const prisma = createPrismaClient({ databaseUrl, poolSize: 4 });
const connections = [0, 1].map(() => new Redis(redisUrl, { maxRetriesPerRequest: null }));
const queue = new Queue(BUILDS_QUEUE, { connection: connections[0], prefix });
const events = new QueueEvents(BUILDS_QUEUE, { connection: connections[1], prefix });
await events.waitUntilReady();
const running = new Set();
let userId;

/** A CSV of about `megabytes` MB, shaped like a sales export, written in chunks. */
async function writeCsv(file, megabytes) {
  const out = createWriteStream(file);
  out.write('id,region,product,amount,comment\n');
  const target = megabytes * 1024 * 1024;
  let written = 0;
  let rows = 0;
  while (written < target) {
    const lines = [];
    for (let i = 0; i < 1000; i += 1, rows += 1) {
      lines.push(
        `${rows},North,Widget ${rows % 97},${(rows * 7) % 1000}.50,"note, with a comma ${rows}"`,
      );
    }
    const chunk = `${lines.join('\n')}\n`;
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise((resolve) => out.once('drain', resolve));
  }
  await new Promise((resolve) => out.end(resolve));
  return { file, rows, bytes: (await stat(file)).size };
}

/** A complete RAG pipeline over `csv` and its build row in Building, as the gateway makes them. */
function seedBuild(userId, csv) {
  return seedRagBuild(
    prisma,
    { DATA_DIR: dataDir, VAULT_MASTER_KEY: masterKey },
    {
      name: `Bench bot ${randomUUID().slice(0, 8)}`,
      userId,
      llmApiKey: `sk-bench-${randomUUID()}`,
      upload: {
        originalName: 'sales.csv',
        copyFrom: csv.file,
        summary: {
          kind: 'csv',
          columns: ['id', 'region', 'product', 'amount', 'comment'],
          rows: csv.rows,
        },
      },
    },
  );
}

/** Starts dist/main.js and waits until it consumes the queue. */
async function startWorker() {
  const child = spawn(process.execPath, [...workerFlags, workerMain], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      WORKER_CONCURRENCY: String(concurrency),
      DATA_DIR: dataDir,
      VAULT_MASTER_KEY: masterKey.toString('base64'),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the worker did not start:\n${output}`)),
      30_000,
    );
    child.stdout.on('data', (data) => {
      // Keep only warnings and errors (pino levels 40+) once started, for the report.
      output += data.toString('utf8');
      if (/Consuming the .*queue/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`the worker exited (${code}):\n${output}`)));
  });
  return {
    pid: child.pid,
    warnings: () => output.split('\n').filter((line) => /"level":(40|50|60)/.test(line)),
    async stop() {
      child.kill('SIGTERM');
      await exited;
      running.delete(child);
    },
  };
}

/** Peak and current resident memory of a process, in MB. */
async function memory(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)[1]);
  return { peak: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
}

const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** CPU time a process has used so far (user + system, all its threads), in ms. */
async function cpuMs(pid) {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ').at(-1).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1000;
}

/** Resolves when every one of `ids` has completed; rejects on a failure or the time limit. */
function allCompleted(ids) {
  const pending = new Set(ids);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => done(new Error(`${pending.size} builds unfinished after ${PHASE_TIMEOUT_MS} ms`)),
      PHASE_TIMEOUT_MS,
    );
    const onCompleted = ({ jobId }) => {
      pending.delete(jobId);
      if (pending.size === 0) done();
    };
    const onFailed = ({ jobId, failedReason }) => {
      if (pending.has(jobId)) done(new Error(`build ${jobId} failed: ${failedReason}`));
    };
    const done = (error) => {
      clearTimeout(timer);
      events.off('completed', onCompleted);
      events.off('failed', onFailed);
      if (error) reject(error);
      else resolve();
    };
    events.on('completed', onCompleted);
    events.on('failed', onFailed);
  });
}

const enqueueOptions = (buildId) => ({ ...BUILD_JOB_OPTIONS, jobId: buildId });

/** Enqueue → completed of each job, as BullMQ recorded it, after checking each build is Built. */
async function measured(seeded) {
  const jobs = await Promise.all(seeded.map(({ buildId }) => queue.getJob(buildId)));
  const rows = await prisma.build.findMany({
    where: { id: { in: seeded.map(({ buildId }) => buildId) } },
  });
  const notBuilt = rows.filter((build) => build.status !== 'Built');
  if (rows.length !== seeded.length || notBuilt.length > 0) {
    throw new Error(`${notBuilt.length} builds not Built: ${notBuilt[0]?.error}`);
  }
  for (const { pipelineId, buildId } of seeded) {
    const files = await readdir(path.join(dataDir, storeKeys.artifacts(pipelineId)));
    if (files.length !== 1 || files[0] !== storeKeys.artifactName(buildId)) {
      throw new Error(`pipeline ${pipelineId} has artifacts ${files.join(', ')}`);
    }
  }
  return jobs.map((job) => ({
    latency: job.finishedOn - job.timestamp,
    processing: job.finishedOn - job.processedOn,
    enqueued: job.timestamp,
    finished: job.finishedOn,
  }));
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function summary(label, workers, timings, peaks, cpu) {
  const latencies = timings.map((t) => t.latency);
  const first = Math.min(...timings.map((t) => t.enqueued));
  const last = Math.max(...timings.map((t) => t.finished));
  return {
    phase: label,
    workers,
    builds: timings.length,
    'p50 ms': percentile(latencies, 50),
    'p95 ms': percentile(latencies, 95),
    'run p50 ms': percentile(
      timings.map((t) => t.processing),
      50,
    ),
    'builds/s': Number((timings.length / ((last - first) / 1000)).toFixed(1)),
    // Load-independent: the workers' CPU time (all threads) over the builds they ran.
    'CPU ms/build': Math.round(cpu / timings.length),
    'peak RSS MB': peaks.map((peak) => Math.round(peak)).join(' / '),
  };
}

async function burst(label, workerCount, userId, csv) {
  const seeded = [];
  for (let i = 0; i < builds; i += 1) seeded.push(await seedBuild(userId, csv));
  const workers = [];
  for (let i = 0; i < workerCount; i += 1) workers.push(await startWorker());
  const cpuBefore = await Promise.all(workers.map(({ pid }) => cpuMs(pid)));
  const completed = allCompleted(seeded.map(({ buildId }) => buildId));
  await queue.addBulk(
    seeded.map(({ buildId }) => ({
      name: BUILD_AGENT_JOB,
      data: { buildId },
      opts: enqueueOptions(buildId),
    })),
  );
  await completed;
  const cpuAfter = await Promise.all(workers.map(({ pid }) => cpuMs(pid)));
  const cpu = cpuAfter.reduce((sum, ms, i) => sum + ms - cpuBefore[i], 0);
  const peaks = await Promise.all(workers.map(async ({ pid }) => (await memory(pid)).peak));
  for (const worker of workers) reportWarnings(label, worker);
  await Promise.all(workers.map((worker) => worker.stop()));
  return summary(label, workerCount, await measured(seeded), peaks, cpu);
}

function reportWarnings(label, worker) {
  const warnings = worker.warnings();
  if (warnings.length > 0) {
    console.warn(`${label}: the worker logged ${warnings.length} warnings, first:`, warnings[0]);
  }
}

try {
  const csv = await writeCsv(path.join(work, 'sales.csv'), csvMb);
  const large = await writeCsv(path.join(work, 'large.csv'), largeMb);
  userId = await seedUser(prisma);
  // Wall-clock figures need an otherwise idle machine; the CPU column does not.
  console.log(
    `\nbench:builds — ${os.cpus().length} cores (load ${os.loadavg()[0].toFixed(1)} at start), WORKER_CONCURRENCY=${concurrency} per worker, ` +
      `${(csv.bytes / 1024 / 1024).toFixed(1)} MB CSV (${csv.rows} rows), ` +
      `large ${(large.bytes / 1024 / 1024).toFixed(1)} MB (${large.rows} rows)`,
  );

  const rows = [];
  {
    // One at a time: what a user waits for when the worker is idle.
    const seeded = [];
    const worker = await startWorker();
    const cpuBefore = await cpuMs(worker.pid);
    for (let i = 0; i < singles; i += 1) {
      const build = await seedBuild(userId, csv);
      const completed = allCompleted([build.buildId]);
      await queue.add(BUILD_AGENT_JOB, { buildId: build.buildId }, enqueueOptions(build.buildId));
      await completed;
      seeded.push(build);
    }
    const { peak } = await memory(worker.pid);
    const cpu = (await cpuMs(worker.pid)) - cpuBefore;
    reportWarnings('single', worker);
    await worker.stop();
    const row = summary(
      `single ${csvMb} MB, one at a time`,
      1,
      await measured(seeded),
      [peak],
      cpu,
    );
    row['builds/s'] = '-'; // one at a time: not a throughput figure
    rows.push(row);
  }
  rows.push(await burst(`burst of ${builds}, ${csvMb} MB each`, 1, userId, csv));
  rows.push(await burst(`burst of ${builds}, ${csvMb} MB each`, 2, userId, csv));
  {
    const worker = await startWorker();
    const before = await memory(worker.pid);
    const cpuBefore = await cpuMs(worker.pid);
    const build = await seedBuild(userId, large);
    const completed = allCompleted([build.buildId]);
    await queue.add(BUILD_AGENT_JOB, { buildId: build.buildId }, enqueueOptions(build.buildId));
    await completed;
    const { peak } = await memory(worker.pid);
    const cpu = (await cpuMs(worker.pid)) - cpuBefore;
    reportWarnings('large', worker);
    await worker.stop();
    const row = summary(`one ${largeMb} MB CSV`, 1, await measured([build]), [peak], cpu);
    row['builds/s'] = '-';
    row['peak RSS MB'] = `${Math.round(peak)} (idle ${Math.round(before.rss)})`;
    rows.push(row);
  }

  console.table(rows);
  const [single, one, two, big] = rows;
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  const largePeak = Number.parseInt(big['peak RSS MB'], 10);
  console.log(
    [
      `single build p50: ${verdict(single['p50 ms'] < targets.singleP50Ms)} ` +
        `(${single['p50 ms']} ms, target < ${targets.singleP50Ms} ms)`,
      `throughput, one worker: ${verdict(one['builds/s'] >= targets.buildsPerSecond)} ` +
        `(${one['builds/s']} builds/s, target >= ${targets.buildsPerSecond}; two workers: ${two['builds/s']})`,
      `peak worker RSS, ${largeMb} MB CSV: ${verdict(largePeak < targets.largePeakMb)} ` +
        `(${largePeak} MB, target < ${targets.largePeakMb} MB)`,
    ].join('\n'),
  );
} finally {
  for (const child of running) child.kill('SIGKILL');
  await events.close();
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  await Promise.all(connections.map((connection) => connection.quit()));
  // The bench's pipelines and builds go with their user.
  if (userId) await prisma.user.delete({ where: { id: userId } });
  await prisma.$disconnect();
  await rm(work, { recursive: true, force: true });
}
