/**
 * `npm run test:faults`: the gateway against real Postgres, Redis and a provider, each behind a
 * link this suite breaks on purpose (a fault proxy: stall, cut; the LLM test server: silent or
 * cut streams; a small tmpfs: a full disk). Each scenario keeps a load running on routes the
 * fault should not touch and prints their p99 (printed, not asserted: it depends on the machine),
 * asserts what the user sees and the functional deadlines (reads within 1 s with Redis stalled,
 * build refusals within 2 s), how long recovery took, and that nothing was lost or duplicated.
 *
 * What the suite's files share: the app behind its fault proxies, the load, and the table of
 * results each file prints at its end.
 */
import type { AgentEvent } from '@agentloom/agent-runtime';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BuildQueue } from '../builds/build-queue';
import { csvChunks, markBuilt } from '../testing/built-agents';
import { FaultProxy, startFaultProxy } from '@agentloom/data-sources/testing';
import {
  configureRagAgent,
  signUpAndLogIn,
  type TestUser,
  serverSentEvents,
} from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import { TEST_DATABASE_URL } from '../testing/test-env';

export const FAULT_MS = 3_000;
export const SILENCE_MS = 2_000;
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
/** The calling file's scenarios, printed after its last test. */
export const table: Row[] = [];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  withinMs: number,
): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await sleep(25);
  }
  return Date.now() - started;
}

/** Requests on a few routes from two loops, each pausing 20 ms between requests, until stopped. */
export class Load {
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

export const parseEvents = (text: string) => serverSentEvents<AgentEvent>(text);

interface FaultSuiteApp {
  redisProxy: FaultProxy;
  pgProxy: FaultProxy;
  llm: LlmTestServer;
  t: TestApp;
  base: string;
  user: TestUser;
  fixtures: string;
  csv: string;
  previewToken: string;
}

/** The gateway with Redis and Postgres behind fault proxies, one user and a started preview. */
async function startFaultSuiteApp(): Promise<FaultSuiteApp> {
  const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const redisProxy = await startFaultProxy(Number(redis.port || 6379), redis.hostname);
  redis.port = String(redisProxy.port);
  const db = new URL(TEST_DATABASE_URL);
  const pgProxy = await startFaultProxy(Number(db.port || 5432), db.hostname);
  db.port = String(pgProxy.port);
  const llm = await startLlmTestServer();
  const t = await createTestApp({
    REDIS_URL: redis.toString(),
    DATABASE_URL: db.toString(),
    // Shorter than the defaults so a stalled Postgres scenario takes seconds, not tens of them.
    DATABASE_POOL_TIMEOUT_MS: '1000',
    DATABASE_STATEMENT_TIMEOUT_MS: '1000',
    OPENAI_BASE_URL: llm.baseUrls.openai ?? '',
    PROVIDER_TIMEOUT_MS: String(SILENCE_MS),
  });
  const user = await signUpAndLogIn(t.url, 'faults');
  const fixtures = mkdtempSync(path.join(tmpdir(), 'fault-suite-'));
  const csv = path.join(fixtures, 'sales.csv');
  writeFileSync(csv, [HEADER, ...ROWS].map((row) => row.join(',')).join('\n') + '\n');
  const previewed = await configureRagAgent(t.url, user, { file: csv });
  await markBuilt(
    t.prisma,
    t.config.DATA_DIR,
    { id: previewed, userId: user.id, type: 'rag' },
    csvChunks('sales.csv', HEADER, ROWS),
    t.config,
  );
  const started = await t.http.post(`/rag/previews/${previewed}/start`).set(user.auth).expect(200);
  const { preview_url } = started.body as { preview_url: string };
  const previewToken = new URL(preview_url).pathname.split('/')[2] ?? '';
  return { redisProxy, pgProxy, llm, t, base: t.url, user, fixtures, csv, previewToken };
}

/**
 * Starts the app before the calling file's tests (`app` is filled in by then), heals both links
 * after each test, and at the end closes everything and prints the file's table.
 */
export function useFaultSuiteApp() {
  const app = {} as FaultSuiteApp;

  beforeAll(async () => {
    Object.assign(app, await startFaultSuiteApp());
  });

  afterEach(() => {
    app.redisProxy.heal();
    app.pgProxy.heal();
  });

  afterAll(async () => {
    // Cleanup only: a loaded machine may time this out, and the keys are under a per-run prefix.
    await app.t.app
      .get(BuildQueue)
      .obliterate()
      .catch(() => undefined);
    await app.t.close();
    await Promise.all([app.redisProxy.close(), app.pgProxy.close(), app.llm.close()]);
    await rm(app.fixtures, { recursive: true, force: true });
    printTable();
  });

  const auth = () => ({ Authorization: `Bearer ${app.user.token}` });
  const authReads = () => [
    { path: '/users/me', headers: auth() },
    { path: '/pipelines', headers: auth() },
  ];
  const healthy = async () => (await fetch(`${app.base}/health`)).status === 200;
  const createPipeline = (name: string) =>
    app.t.http.post('/pipelines').set(app.user.auth).send({ name, agent_type: 'rag' });
  const countNamed = (name: string) =>
    app.t.prisma.pipeline.count({ where: { userId: app.user.id, name } });

  return { app, authReads, healthy, createPipeline, countNamed };
}

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
