import { buildPaths, RAG_BUILD_STAGES, type TBuildStageKey } from '@agentloom/contracts';
import type { Build, PrismaClient } from '@agentloom/db';
import {
  createObjectStore,
  type ObjectStore,
  storeFolders,
  storeKeys,
  ZObjectStoreEnv,
} from '@agentloom/server-kit';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  apiCall,
  BuildFeed,
  configureRagAgent,
  downloadZip,
  readZip,
  signUpAndLogIn,
  startBuild,
  type HeardEvent,
} from '@agentloom/test-kit';
import {
  AppProcess,
  assertBuilt,
  S3TestServer,
  testPrisma,
  testWorkerConfig,
  workerEnvironment,
  type WorkerConfig,
} from './testing/builder-worker';
import { startGatewayReplica, type GatewayReplica } from './testing/gateway-replica';
import { QueueClient } from './testing/queue-client';
import { S3HoldingProxy } from './testing/s3-holding-proxy';

/**
 * Issue 7, "Scale proven without Docker": what `docker compose up --scale builder-worker=2` with
 * two gateway replicas runs, as built processes on one Postgres and one Redis. Two gateways
 * (A and B, each on its own port) and two workers share the database, the queue prefix, the
 * object store (S3: moto's server, builder-worker's testing/s3-test-server.ts) and the secrets, and nothing else:
 * each process has a data folder of its own, as on separate machines. A user signs in on A, the
 * build screen listens on B, agents are configured through both, built concurrently, and one
 * worker is SIGKILLed in the middle of its builds. Three builds are held where their worker
 * fetches their upload from the object store (testing/s3-holding-proxy.ts), so both workers are
 * mid-build when one is killed. Every wait is on an event or a condition with a generous limit;
 * nothing asserts on elapsed time.
 *
 * Runs in `npm test` with the other system tests and alone with `npm run test:scale`. The system
 * tests' database (SCALE_TEST_DATABASE_URL, default agentloom_scale_test) and a queue prefix of
 * its own keep it out of the other suites' way.
 */

const AGENTS = 6;
/** Builds held at the stage that reads their source until a worker has been killed. */
const HELD = 3;
/** Generous: a loaded two-core machine, node start-up, a lock expiry and a stalled-job check. */
const WAIT_MS = 60_000;
/** The stage in which a worker fetches the build's upload from the object store. */
const READING_STAGE: TBuildStageKey = 'validate_config';
const BUCKET = 'agentloom-scale';
const LOGIN_MAX_FAILURES = 4;

jest.setTimeout(180_000);

const csvOf = (index: number) =>
  `region,product,amount\nNorth,Widget,${100 + index}\nSouth,Gadget,${80 + index}\n`;

/**
 * The stage events of one agent, split into runs: a run starts whenever the first stage starts
 * (a build that ran again after its worker died starts over). Each run must follow the stages
 * in order, started then finished, with nothing skipped or repeated. A long stage's progress
 * reports (chunks embedded) come between its start and end and are left out here.
 */
function stageRuns(events: HeardEvent[]): Array<Array<[number, 'started' | 'finished']>> {
  const runs: Array<Array<[number, 'started' | 'finished']>> = [];
  for (const heard of events) {
    if (heard.event !== 'build:stage') continue;
    const { index, state } = heard.data;
    if (state === 'progress') continue;
    if (index === 0 && state === 'started') runs.push([]);
    runs.at(-1)?.push([index, state]);
  }
  return runs;
}

const inOrder = (count: number): Array<[number, 'started' | 'finished']> =>
  Array.from({ length: count }, (_, index) => [
    [index, 'started'] as [number, 'started'],
    [index, 'finished'] as [number, 'finished'],
  ]).flat();

describe('Scale: two gateways and two workers on one Postgres and Redis (built processes)', () => {
  let config: WorkerConfig;
  let prisma: PrismaClient;
  let queue: QueueClient;
  let gatewayA: GatewayReplica;
  let gatewayB: GatewayReplica;
  let s3: S3TestServer;
  let proxy: S3HoldingProxy;
  /** The object-store settings every gateway and worker gets (through the holding proxy). */
  let storage: Record<string, string>;
  /** Reads what the processes stored, as any of them would. */
  let objects: ObjectStore;
  /** Each process's own data folder: none is shared. */
  const folders: string[] = [];
  const ownFolder = () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'agentloom-scale-node-'));
    folders.push(folder);
    cleanups.push(() => rm(folder, { recursive: true, force: true }));
    return folder;
  };
  const apps: AppProcess[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];

  const outputs = () => apps.map((app) => `--- ${app.name}:\n${app.output}`).join('\n');

  beforeAll(async () => {
    // Fail at once, with the command to run, rather than after starting anything.
    assertBuilt('builder-worker');
    assertBuilt('gateway');
    // The system tests' database (SCALE_TEST_DATABASE_URL), made fresh by the global setup.
    config = testWorkerConfig({
      QUEUE_PREFIX: `agentloom-scale-${process.pid}-${randomBytes(3).toString('hex')}`,
      VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
      WORKER_CONCURRENCY: '2',
      // Short locks, so the builds of the killed worker are found stalled within seconds.
      WORKER_LOCK_DURATION_MS: '4000',
      WORKER_STALLED_INTERVAL_MS: '1000',
    });
    cleanups.push(() => rm(config.DATA_DIR, { recursive: true, force: true }));
    prisma = testPrisma(config);
    cleanups.push(() => prisma.$disconnect());
    queue = new QueueClient(config);
    cleanups.push(() => queue.close());
    await queue.ready();

    s3 = await S3TestServer.start();
    cleanups.push(() => s3.stop());
    const direct = await s3.bucket(BUCKET);
    proxy = await S3HoldingProxy.start(s3.endpoint);
    cleanups.push(() => proxy.stop());
    storage = { ...direct, S3_ENDPOINT: proxy.endpoint };
    objects = createObjectStore(ZObjectStoreEnv.parse(direct), ownFolder());

    const jwtSecret = randomBytes(48).toString('base64url');
    const replica = (name: string) =>
      startGatewayReplica(config, {
        name,
        jwtSecret,
        timeoutMs: WAIT_MS,
        // Login throttling is counted per client address; the tests name theirs (X-Forwarded-For
        // from one trusted proxy), so no other suite's failed logins from 127.0.0.1 count here.
        // One user builds all six agents at once: above the default per-user quota (3), which
        // the gateway's own tests cover; here the topology is under test.
        env: {
          LOGIN_MAX_FAILURES: String(LOGIN_MAX_FAILURES),
          TRUST_PROXY_HOPS: '1',
          MAX_CONCURRENT_BUILDS_PER_USER: '10',
          ...storage,
          DATA_DIR: ownFolder(),
        },
      });
    const started = await Promise.allSettled([replica('gateway A'), replica('gateway B')]);
    for (const result of started) {
      if (result.status === 'fulfilled') {
        apps.push(result.value.app);
        cleanups.push(() => result.value.app.kill());
      }
    }
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    [gatewayA, gatewayB] = started.map(
      (result) => (result as PromiseFulfilledResult<GatewayReplica>).value,
    ) as [GatewayReplica, GatewayReplica];
  });

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  /** worker-process.ts's worker, under a name of its own for the failure output. */
  async function startWorker(name: string): Promise<AppProcess> {
    const worker = await AppProcess.start({
      name,
      main: assertBuilt('builder-worker'),
      env: { ...workerEnvironment(config), ...storage, DATA_DIR: ownFolder() },
      ready: /Consuming the .*queue/,
      timeoutMs: WAIT_MS,
    });
    apps.push(worker);
    cleanups.push(() => worker.kill());
    return worker;
  }

  /** Waits for the record to leave Building; Postgres, not Redis, is where a build's state lives. */
  async function buildEnd(pipelineId: string): Promise<Build[]> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const builds = await prisma.build.findMany({ where: { pipelineId } });
      if (builds.length > 0 && builds.every((build) => build.status !== 'Building')) return builds;
      if (Date.now() > deadline) {
        throw new Error(`Agent ${pipelineId} still building after ${WAIT_MS} ms.\n${outputs()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The BullMQ job's state once it has left 'active' (or WAIT_MS has passed). */
  async function jobStateOnceSettled(jobId: string): Promise<string | undefined> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const state = await (await queue.queue.getJob(jobId))?.getState();
      if (state !== 'active' || Date.now() > deadline) return state;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('builds several agents concurrently: each completes once, live on the other gateway, and a SIGKILLed worker loses nothing', async () => {
    const user = await signUpAndLogIn(gatewayA.url, 'scale');
    const { token } = user;
    const hosts = [gatewayA.url, gatewayB.url];

    // Configured through both replicas in turn: an upload taken by one gateway is read by the
    // next step on the other and, later, by whichever worker builds the agent.
    const sessions = await Promise.all(
      Array.from({ length: AGENTS }, (_, index) =>
        configureRagAgent(index % 2 ? [...hosts].reverse() : hosts, user, {
          name: `Scale ${index}`,
          file: { name: 'sales.csv', content: csvOf(index) },
        }),
      ),
    );

    const feed = await BuildFeed.connect(gatewayB.url, token, WAIT_MS);
    cleanups.push(() => Promise.resolve(feed.close()));
    for (const sessionId of sessions) {
      expect(await feed.subscribe(sessionId, WAIT_MS)).toEqual({ ok: true });
      await feed.waitFor(sessionId, (heard) => heard.length > 0, WAIT_MS, 'snapshot');
      expect(feed.events(sessionId)).toEqual([
        { event: 'build:snapshot', data: { session_id: sessionId, build: null } },
      ]);
    }

    // Three builds are held where they fetch their source. Each worker runs two builds at a
    // time, so once all three are held both workers are in the middle of a build (one has two).
    const held = sessions.slice(0, HELD).map((sessionId) => proxy.hold(sessionId));
    const first = await startWorker('worker 1');
    const second = await startWorker('worker 2');

    // Every agent is built at once, the requests spread over both gateways.
    const requested = await Promise.all(
      sessions.map((sessionId, index) => startBuild(hosts[index % 2]!, user, sessionId)),
    );
    for (const reply of requested) {
      expect(reply).toMatchObject({ status: 200, body: { status: 'Building' } });
    }
    const reading = (heard: HeardEvent[]) =>
      heard.some(
        (item) =>
          item.event === 'build:stage' &&
          item.data.stage === READING_STAGE &&
          item.data.state === 'started',
      );
    for (const sessionId of sessions.slice(0, HELD)) {
      await feed.waitFor(sessionId, reading, WAIT_MS, `"${READING_STAGE}" relayed by gateway B`);
    }

    // Worker 1 dies in the middle of its held build(s) and of whatever else it had taken.
    first.signal('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    for (const sessionId of sessions.slice(0, HELD)) {
      const build = await prisma.build.findFirstOrThrow({ where: { pipelineId: sessionId } });
      expect(build).toMatchObject({ status: 'Building', attempts: 1 });
    }
    for (const source of held) source.release();

    for (const [index, sessionId] of sessions.entries()) {
      const builds = await buildEnd(sessionId);
      // Exactly one build, Built, with one artifact: nothing lost, nothing built twice.
      expect(builds).toHaveLength(1);
      const build = builds[0]!;
      expect(build).toMatchObject({
        status: 'Built',
        error: null,
        artifact: storeKeys.artifactName(build.id),
      });
      const pipeline = await prisma.pipeline.findUniqueOrThrow({ where: { id: sessionId } });
      expect(pipeline.status).toBe('Built');
      const zipKey = storeKeys.artifact(sessionId, storeKeys.artifactName(build.id));
      expect(await s3.keys(BUCKET, `${storeKeys.artifacts(sessionId)}/`)).toEqual([zipKey]);
      // The build's row is written before the worker hands the job back to BullMQ: asked at
      // once, the job can still be 'active' for a moment.
      expect(await jobStateOnceSettled(build.id)).toBe('completed');

      // Gateway B heard it live: the end once, after every stage of the last run, in order.
      await feed.waitFor(
        sessionId,
        (heard) => heard.some((item) => item.event === 'build:completed'),
        WAIT_MS,
        `build:completed of agent ${index}`,
      );
      const heard = feed.events(sessionId);
      const ends = heard.filter(
        (item) => item.event !== 'build:stage' && item.event !== 'build:snapshot',
      );
      expect(ends).toEqual([
        {
          event: 'build:completed',
          data: {
            session_id: sessionId,
            build_id: build.id,
            download_url: buildPaths.download('rag', sessionId),
          },
        },
      ]);
      expect(heard.at(-1)?.event).toBe('build:completed');
      const runs = stageRuns(heard);
      expect(runs.length).toBeGreaterThanOrEqual(1);
      expect(runs.length).toBeLessThanOrEqual(build.attempts);
      for (const run of runs.slice(0, -1)) {
        expect(run).toEqual(inOrder(RAG_BUILD_STAGES.length).slice(0, run.length));
      }
      expect(runs.at(-1)).toEqual(inOrder(RAG_BUILD_STAGES.length));

      // The zip downloads through both gateways, byte for byte the stored artifact, and holds
      // this agent's own upload.
      const storedZip = (await objects.localPath(zipKey))!;
      const stored = await readFile(storedZip);
      for (const host of hosts) {
        const zip = await downloadZip(host, user, buildPaths.download('rag', sessionId));
        expect(zip).toMatchObject({
          status: 200,
          contentType: 'application/zip',
          disposition: `attachment; filename="rag-agent-${sessionId}.zip"`,
        });
        expect(zip.zip.equals(stored)).toBe(true);
      }
      const entries = await readZip(storedZip);
      expect(entries.get(`rag-agent-${sessionId}/data/source.csv`)?.toString('utf8')).toBe(
        csvOf(index),
      );
      expect(entries.has(`rag-agent-${sessionId}/app.py`)).toBe(true);
    }

    // Each build was finished by exactly one worker. The held builds of the killed worker ran
    // again (attempt 2) on the survivor; the survivor's own held build(s) ran once.
    const builtBy = (worker: AppProcess) =>
      [...worker.output.matchAll(/Build ([0-9a-f-]{36}) built/g)].map((match) => match[1]!);
    const builds = await Promise.all(
      sessions.map(async (sessionId) => (await buildEnd(sessionId))[0]!),
    );
    const finished = [...builtBy(first), ...builtBy(second)];
    expect([...finished].sort()).toEqual(builds.map((build) => build.id).sort());
    const heldBuilds = builds.slice(0, HELD);
    const rerun = heldBuilds.filter((build) => build.attempts === 2);
    expect(rerun.length).toBeGreaterThanOrEqual(1);
    expect(rerun.length).toBeLessThanOrEqual(2);
    expect(heldBuilds.filter((build) => build.attempts === 1)).toHaveLength(HELD - rerun.length);
    for (const build of rerun) expect(builtBy(second)).toContain(build.id);

    // Nothing went through a folder: no process kept an upload or a zip in its own.
    for (const folder of folders.slice(1)) {
      expect(existsSync(path.join(folder, storeFolders.uploads))).toBe(false);
      expect(existsSync(path.join(folder, storeFolders.artifacts))).toBe(false);
    }

    // The surviving worker stops cleanly.
    second.signal('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });

  it('counts failed logins across replicas: the limit reached through A and B holds on both', async () => {
    const { token, email, password } = await signUpAndLogIn(gatewayA.url, 'scale');
    // The token signed by A is good on B: the replicas share the secret, not sessions.
    expect(await apiCall(gatewayB.url, '/users/me', { token })).toMatchObject({
      status: 200,
      body: { email },
    });
    // Addresses of their own (IPv6 documentation range), so only this run's attempts count.
    const address = () =>
      `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
    const client = address();
    const login = (host: string, tried: string, from = client) =>
      apiCall(host, '/auth/login', {
        json: { email, password: tried },
        headers: { 'x-forwarded-for': from },
      });
    for (let attempt = 0; attempt < LOGIN_MAX_FAILURES; attempt += 1) {
      const host = attempt % 2 ? gatewayB.url : gatewayA.url;
      expect((await login(host, 'wrong-password')).status).toBe(401);
    }
    // Neither replica lets this client try again, not even with the right password.
    expect((await login(gatewayA.url, password)).status).toBe(429);
    expect((await login(gatewayB.url, password)).status).toBe(429);
    // The account's own count is shared as well: from another address it is refused too.
    expect((await login(gatewayB.url, password, address())).status).toBe(429);
  });
});
