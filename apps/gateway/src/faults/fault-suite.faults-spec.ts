/**
 * `npm run test:faults`: the gateway against real Postgres, Redis and a provider, each behind a
 * link this suite breaks on purpose (a fault proxy: stall, cut; the LLM test server: silent or
 * cut streams; a small tmpfs: a full disk). Each scenario keeps a load running on routes the
 * fault should not touch and prints their p99 (printed, not asserted: it depends on the machine),
 * asserts what the user sees and the functional deadlines (reads within 1 s with Redis stalled,
 * build refusals within 2 s), how long recovery took, and that nothing was lost or duplicated.
 */
import type { AgentEvent } from '@agentloom/agent-runtime';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BuildQueue } from '../builds/build-queue';
import { csvChunks, markBuilt } from '../testing/built-agents';
import { FaultProxy, startFaultProxy } from '../testing/tcp-forwarder';
import { configureRagAgent, signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import { TEST_DATABASE_URL } from '../testing/test-env';

const FAULT_MS = 3_000;
const SILENCE_MS = 2_000;
const HEADER = ['region', 'product', 'units'];
const ROWS = [
  ['Porto', 'Lantern kits', '1204'],
  ['Lisbon', 'Quokka umbrellas', '7342'],
];

interface Row {
  scenario: string;
  unaffected: string;
  outcome: string;
  recovery: string;
  data: string;
}
const table: Row[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean | Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await sleep(25);
  }
  return Date.now() - started;
}

/** Requests on a few routes from two loops, each pausing 20 ms between requests, until stopped. */
class Load {
  private running = true;
  private readonly latencies: number[] = [];
  private readonly statuses = new Map<number, number>();
  private readonly loops: Promise<void>[];

  constructor(base: string, routes: { path: string; headers?: Record<string, string> }[]) {
    this.loops = [0, 1].map(async (offset) => {
      for (let i = offset; this.running; i += 1) {
        const route = routes[i % routes.length]!;
        const started = performance.now();
        const status = await fetch(base + route.path, { headers: route.headers }).then(
          async (response) => {
            await response.arrayBuffer();
            return response.status;
          },
          () => 0,
        );
        this.latencies.push(performance.now() - started);
        this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
        // A steady trickle, not a flood: the load shares this process (and its CPU) with the
        // gateway under test, and must not be what makes the deadlines late.
        await sleep(20);
      }
    });
  }

  async stop(): Promise<{ p99: number; count: number; failed: number; summary: string }> {
    this.running = false;
    await Promise.all(this.loops);
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
    const failed = [...this.statuses].filter(([s]) => s !== 200).reduce((n, [, c]) => n + c, 0);
    return {
      p99,
      count: sorted.length,
      failed,
      summary: `p99 ${p99.toFixed(0)} ms over ${sorted.length} requests, ${failed} not 200`,
    };
  }
}

function parseEvents(text: string): AgentEvent[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').find((line) => line.startsWith('data:')))
    .filter((line): line is string => Boolean(line))
    .map((line) => JSON.parse(line.slice(5)) as AgentEvent);
}

describe('fault suite', () => {
  let redisProxy: FaultProxy;
  let pgProxy: FaultProxy;
  let llm: LlmTestServer;
  let t: TestApp;
  let base: string;
  let user: TestUser;
  let fixtures: string;
  let csv: string;
  let previewToken: string;

  beforeAll(async () => {
    const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    redisProxy = await startFaultProxy(Number(redis.port || 6379), redis.hostname);
    redis.port = String(redisProxy.port);
    const db = new URL(TEST_DATABASE_URL);
    pgProxy = await startFaultProxy(Number(db.port || 5432), db.hostname);
    db.port = String(pgProxy.port);
    llm = await startLlmTestServer();
    t = await createTestApp({
      REDIS_URL: redis.toString(),
      DATABASE_URL: db.toString(),
      // Shorter than the defaults so a stalled Postgres scenario takes seconds, not tens of them.
      DATABASE_POOL_TIMEOUT_MS: '1000',
      DATABASE_STATEMENT_TIMEOUT_MS: '1000',
      OPENAI_BASE_URL: llm.baseUrls.openai ?? '',
      PROVIDER_TIMEOUT_MS: String(SILENCE_MS),
    });
    base = t.url;
    user = await signUpAndLogIn(t.url, 'faults');
    fixtures = mkdtempSync(path.join(tmpdir(), 'fault-suite-'));
    csv = path.join(fixtures, 'sales.csv');
    writeFileSync(csv, [HEADER, ...ROWS].map((row) => row.join(',')).join('\n') + '\n');
    const previewed = await configureRagAgent(t.url, user, { file: csv });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id: previewed, userId: user.id, type: 'rag' },
      csvChunks('sales.csv', HEADER, ROWS),
    );
    const started = await t.http
      .post(`/rag/previews/${previewed}/start`)
      .set(user.auth)
      .expect(200);
    previewToken = new URL(started.body.preview_url as string).pathname.split('/')[2] ?? '';
  });

  afterEach(() => {
    redisProxy.heal();
    pgProxy.heal();
  });

  afterAll(async () => {
    // Cleanup only: a loaded machine may time this out, and the keys are under a per-run prefix.
    await t.app
      .get(BuildQueue)
      .obliterate()
      .catch(() => undefined);
    await t.close();
    await Promise.all([redisProxy.close(), pgProxy.close(), llm.close()]);
    await rm(fixtures, { recursive: true, force: true });
    printTable();
  });

  const auth = () => ({ Authorization: `Bearer ${user.token}` });
  const authReads = () => [
    { path: '/users/me', headers: auth() },
    { path: '/pipelines', headers: auth() },
  ];
  const noDatabaseRoutes = [{ path: '/health/live' }, { path: '/p/_assets/common.js' }];
  const healthy = async () => (await fetch(`${base}/health`)).status === 200;
  const createPipeline = (name: string) =>
    t.http.post('/pipelines').set(user.auth).send({ name, agent_type: 'rag' });
  const countNamed = (name: string) =>
    t.prisma.pipeline.count({ where: { userId: user.id, name } });
  const startBuild = (id: string) =>
    t.http.post('/rag/api/build/agent').set(user.auth).type('form').send({ session_id: id });

  /** Redis stalled or cut: reads from Postgres, builds refused in time, one job after recovery. */
  async function redisScenario(name: string, fault: () => void) {
    const buildable = await configureRagAgent(t.url, user, { file: csv });
    const load = new Load(base, authReads());
    await sleep(300);
    fault();
    const during = `${name} ${Math.random()}`;

    const readStarted = Date.now();
    await t.http.get('/users/me').set(user.auth).expect(200);
    const readMs = Date.now() - readStarted;
    expect(readMs).toBeLessThan(1_000);

    const healthStarted = Date.now();
    const health = await t.http.get('/health').expect(503);
    const healthMs = Date.now() - healthStarted;
    expect(health.body.redis).toBe('down');
    expect(healthMs).toBeLessThan(t.config.HEALTH_TIMEOUT_MS + 500);

    const buildStarted = Date.now();
    const refused = await startBuild(buildable).expect(503);
    const buildMs = Date.now() - buildStarted;
    expect(buildMs).toBeLessThan(2_000);
    await createPipeline(during).expect(201);

    await sleep(FAULT_MS - (Date.now() - readStarted));
    const unaffected = await load.stop();
    // Reads never needed Redis: none of them may fail.
    expect(unaffected.failed).toBe(0);
    const healed = Date.now();
    redisProxy.heal();
    await waitFor(healthy, 10_000);
    await waitFor(() => t.redis.available, 10_000);
    const recoveryMs = Date.now() - healed;

    expect(await countNamed(during)).toBe(1);
    expect(await t.prisma.build.count({ where: { pipelineId: buildable } })).toBe(0);
    const started = await startBuild(buildable).expect(200);
    const job = await t.app.get(BuildQueue).job(started.body.build_id as string);
    expect(job?.data).toEqual({ buildId: started.body.build_id });
    expect(await t.prisma.build.count({ where: { pipelineId: buildable } })).toBe(1);

    table.push({
      scenario: name,
      unaffected: `reads (/users/me, /pipelines): ${unaffected.summary}`,
      outcome: `reads 200 in ${readMs} ms; build 503 in ${buildMs} ms "${String(refused.body.detail).slice(0, 40)}…"; /health 503 redis=down in ${healthMs} ms`,
      recovery: `${recoveryMs} ms, no restart`,
      data: 'pipeline made during fault: 1 row; refused build: 0 rows; build after: 1 row, 1 job',
    });
  }

  it('Redis stalled, then back', async () => {
    await redisScenario('Redis stalled', () => redisProxy.stall());
  });

  it('Redis cut (connections dropped and refused), then back', async () => {
    await redisScenario('Redis cut', () => redisProxy.cut({ refuse: true }));
  });

  it('Postgres stalled, then back', async () => {
    const before = `kept ${Math.random()}`;
    await createPipeline(before).expect(201);
    const load = new Load(base, noDatabaseRoutes);
    await sleep(300);
    pgProxy.stall();
    const during = `pg-stall ${Math.random()}`;

    const readStarted = Date.now();
    const read = await t.http.get('/pipelines').set(user.auth);
    const readMs = Date.now() - readStarted;
    expect(read.status).toBe(503);
    expect(read.body.detail).toMatch(/cannot reach its database/);
    // statement timeout (1 s) + the client's margin (1 s) + scheduling
    expect(readMs).toBeLessThan(4_000);
    const write = await createPipeline(during);
    expect(write.status).toBe(503);
    const health = await t.http.get('/health').expect(503);
    expect(health.body.database).toBe('down');

    await sleep(Math.max(0, FAULT_MS - (Date.now() - readStarted)));
    const unaffected = await load.stop();
    expect(unaffected.failed).toBe(0);
    const healed = Date.now();
    pgProxy.heal();
    await waitFor(healthy, 10_000);
    await waitFor(
      async () => (await t.http.get('/pipelines').set(user.auth)).status === 200,
      10_000,
    );
    const recoveryMs = Date.now() - healed;

    expect(await countNamed(before)).toBe(1);
    const landed = await countNamed(during);
    // The refused write was never delivered (its connection was discarded), so it did not land.
    expect(landed).toBe(0);
    table.push({
      scenario: 'Postgres stalled',
      unaffected: `/health/live, preview assets: ${unaffected.summary}`,
      outcome: `reads and writes 503 "cannot reach its database" in ${readMs} ms; /health database=down`,
      recovery: `${recoveryMs} ms, no restart`,
      data: `row made before: 1; refused write: ${landed} rows`,
    });
  });

  it('Postgres connections killed, then back', async () => {
    const before = `kept ${Math.random()}`;
    await createPipeline(before).expect(201);
    const load = new Load(base, authReads());
    await sleep(300);
    const killed = Date.now();
    pgProxy.cut();
    const recoveryMs = await waitFor(
      async () => (await t.http.get('/pipelines').set(user.auth)).status === 200,
      10_000,
    );
    await sleep(FAULT_MS);
    const unaffected = await load.stop();
    const after = `after-kill ${Math.random()}`;
    await createPipeline(after).expect(201);
    expect(await countNamed(before)).toBe(1);
    expect(await countNamed(after)).toBe(1);
    table.push({
      scenario: 'Postgres connections killed',
      unaffected: `reads: ${unaffected.summary}`,
      outcome: `requests on a killed connection 503 (${unaffected.failed}), the rest 200`,
      recovery: `${recoveryMs} ms after the kill (${Date.now() - killed} ms scenario)`,
      data: 'row made before: 1; row made after: 1',
    });
  });

  async function ask(): Promise<{ events: AgentEvent[]; ms: number }> {
    const started = Date.now();
    const response = await fetch(`${base}/p/${previewToken}/ask`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ question: 'How many Quokka umbrellas in Lisbon?' }),
    });
    return { events: parseEvents(await response.text()), ms: Date.now() - started };
  }

  it.each([
    ['Provider silent mid-answer', 'stall'],
    ['Provider cuts the stream', 'cut'],
  ] as const)('%s', async (scenario, kind) => {
    const load = new Load(base, authReads());
    llm.breakNextStream({ kind, afterEvents: 2 });
    const { events, ms } = await ask();
    const last = events.at(-1);
    expect(last?.type).toBe('error');
    expect(events.some((event) => event.type === 'done')).toBe(false);
    if (kind === 'stall') expect(ms).toBeLessThan(SILENCE_MS + 3_000);
    const chat = llm.requests.filter((request) => request.path.includes('/chat/completions'));
    await waitFor(() => chat.at(-1)?.cancelled === true || kind === 'cut', 2_000);
    const recovered = Date.now();
    const next = await ask();
    expect(next.events.at(-1)).toEqual({ type: 'done' });
    const unaffected = await load.stop();
    expect(unaffected.failed).toBe(0);
    table.push({
      scenario,
      unaffected: `reads: ${unaffected.summary}`,
      outcome: `the words so far, then error "${(last as { detail: string }).detail.slice(0, 50)}…" after ${ms} ms`,
      recovery: `next question answered in ${Date.now() - recovered} ms`,
      data:
        kind === 'stall'
          ? 'no done event; provider call cancelled by the gateway: yes'
          : 'no done event',
    });
  });

  it('Disk full during an upload', async () => {
    const disk = mkdtempSync(path.join(tmpdir(), 'fault-disk-'));
    // A 2 MB file system of our own: filling it touches nobody else's disk.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', disk]);
    let small: TestApp | undefined;
    try {
      small = await createTestApp({ DATA_DIR: disk });
      const owner = await signUpAndLogIn(small.url, 'diskfull');
      const created = await small.http
        .post('/pipelines')
        .set(owner.auth)
        .send({ name: 'Disk', agent_type: 'rag' })
        .expect(201);
      const id = created.body.session_id as string;
      await small.http
        .post('/rag/api/source')
        .set(owner.auth)
        .type('form')
        .send({ session_id: id, source_type: 'csv' })
        .expect(200);
      const big = path.join(fixtures, 'big.csv');
      await writeFile(big, 'region,amount\n' + 'North,120\n'.repeat(60_000)); // ~600 kB
      const filler = path.join(disk, 'filler');
      await writeFile(filler, Buffer.alloc(1_700_000)); // leaves well under 600 kB free
      const smallBase = small.url;
      const load = new Load(smallBase, [
        { path: '/users/me', headers: { Authorization: `Bearer ${owner.token}` } },
        { path: '/pipelines', headers: { Authorization: `Bearer ${owner.token}` } },
      ]);
      const upload = () =>
        small!.http
          .post('/rag/api/source/upload')
          .set(owner.auth)
          .field('session_id', id)
          .attach('file', big);
      const refused = await upload();
      expect(refused.status).toBe(503);
      expect(refused.body.detail).toBe(
        'The server has no room to store files right now. Nothing was saved; please try again later.',
      );
      const leftovers = [
        ...(await readdir(path.join(disk, 'incoming'))),
        ...(await readdir(path.join(disk, 'uploads')).catch(() => [])),
      ];
      expect(leftovers).toEqual([]);
      const unaffected = await load.stop();
      const freed = Date.now();
      await rm(filler);
      await upload().expect(200);
      table.push({
        scenario: 'Disk full during upload',
        unaffected: `reads on the full disk's gateway: ${unaffected.summary}`,
        outcome: `upload 503 "${String(refused.body.detail).slice(0, 40)}…"`,
        recovery: `retry after space was freed: 200 in ${Date.now() - freed} ms`,
        data: 'partial files left behind: 0; the retried upload answered 200',
      });
    } finally {
      await small?.close();
      execFileSync('umount', [disk]);
      await rm(disk, { recursive: true, force: true });
    }
  });
});

function printTable(): void {
  const columns: (keyof Row)[] = ['scenario', 'outcome', 'recovery', 'data', 'unaffected'];
  const widths = columns.map((column) =>
    Math.max(column.length, ...table.map((row) => row[column].length)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [
    '',
    'Fault suite',
    line(columns),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...table.map((row) => line(columns.map((column) => row[column]))),
    '',
  ];
  process.stdout.write(out.join('\n') + '\n');
}
