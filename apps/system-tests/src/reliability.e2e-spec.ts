import type { Build, PrismaClient } from '@agentloom/db';
import { storeKeys } from '@agentloom/server-kit';
import type { TBuildStageKey } from '@agentloom/contracts';
import { existsSync, rmSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readZip } from '@agentloom/test-kit';
import {
  AppProcess,
  assertBuilt,
  BUILD_INTERRUPTED,
  RedisServer,
  seedRagBuild,
  startWorkerProcess,
  testPrisma,
  testWorkerConfig,
  type WorkerConfig,
} from './testing/builder-worker';
import { startGatewayProcess } from './testing/gateway-process';
import { holdSource } from './testing/held-source';
import { QueueClient } from './testing/queue-client';

/**
 * SECURITY.md "Reliability", against the real built worker (`node dist/main.js`) as child
 * processes: killed mid-build, stopped mid-build, and cut off from Redis. Builds are held at the
 * stage that reads their source by a named pipe (testing/held-source.ts), so a signal lands
 * mid-build for certain, whatever the machine's speed. Every wait is on an event or a condition
 * with a generous time limit; nothing asserts on elapsed time.
 */

const CSV = 'region,product,amount\nNorth,Widget,120\nSouth,Gadget,80\n';
/** Generous: a loaded two-core machine, node start-up, a lock expiry and a stalled-job check. */
const WAIT_MS = 60_000;
const READING_STAGE: TBuildStageKey = 'train_embeddings';

jest.setTimeout(180_000);

describe('Build worker reliability (built worker processes)', () => {
  let prisma: PrismaClient;
  /** Undone after each test, last first: processes, queues, folders. */
  const cleanups: Array<() => Promise<unknown>> = [];
  /** The processes of the running test, whose output a timeout reports. */
  let apps: AppProcess[] = [];

  beforeAll(() => {
    // Fail at once, with the command to run, rather than in each test.
    assertBuilt('builder-worker');
    assertBuilt('gateway');
    const config = testWorkerConfig();
    prisma = testPrisma(config);
    rmSync(config.DATA_DIR, { recursive: true, force: true }); // only its database is used
  });
  afterAll(async () => {
    await prisma?.$disconnect();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    apps = [];
  });

  /** A queue of its own (prefix), a data folder of its own, and the workers started on it. */
  async function harness(overrides: Record<string, string> = {}) {
    const config = testWorkerConfig(overrides);
    cleanups.push(() => rm(config.DATA_DIR, { recursive: true, force: true }));
    const client = new QueueClient(config);
    cleanups.push(() => client.close());
    await client.ready();
    return {
      config,
      client,
      async startWorker(): Promise<AppProcess> {
        const worker = await startWorkerProcess(config, WAIT_MS);
        apps.push(worker);
        cleanups.push(() => worker.kill());
        return worker;
      },
      async startGateway() {
        const gateway = await startGatewayProcess(config, WAIT_MS);
        apps.push(gateway.app);
        cleanups.push(() => gateway.app.kill());
        return gateway;
      },
    };
  }

  /** Waits for the record to leave Building; Postgres, not Redis, is where a build's state lives. */
  async function buildEnd(buildId: string): Promise<Build> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const build = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
      if (build.status !== 'Building') return build;
      if (Date.now() > deadline) {
        const outputs = apps.map((app, index) => `--- ${app.name} ${index}:\n${app.output}`);
        throw new Error(
          `Build ${buildId} still Building after ${WAIT_MS} ms.\n${outputs.join('\n')}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const artifactsOf = (config: WorkerConfig, pipelineId: string) =>
    path.join(config.DATA_DIR, storeKeys.artifacts(pipelineId));

  async function expectOneGoodZip(config: WorkerConfig, pipelineId: string, buildId: string) {
    const folder = artifactsOf(config, pipelineId);
    expect(await readdir(folder)).toEqual([storeKeys.artifactName(buildId)]);
    const zip = await readZip(path.join(folder, storeKeys.artifactName(buildId)));
    expect(zip.get(`rag-agent-${pipelineId}/data/source.csv`)?.toString('utf8')).toBe(CSV);
    expect(zip.has(`rag-agent-${pipelineId}/app.py`)).toBe(true);
  }

  it('SIGKILL mid-build: the build runs again on the next worker and ends Built with one zip', async () => {
    // Short locks, so the build of the killed worker is found stalled within seconds.
    const { config, client, startWorker } = await harness({
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
    });
    const { pipelineId, buildId } = await seedRagBuild(prisma, config, { csv: CSV });
    const source = await holdSource(prisma, config, pipelineId, CSV);
    cleanups.push(() => source.close());

    const first = await startWorker();
    const reading = client.stageStarted(buildId, READING_STAGE, WAIT_MS);
    await client.enqueue(buildId);
    await reading;
    first.signal('SIGKILL');
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

    // What a crash leaves: the record in Building, part-way through its stages.
    const killed = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    expect(killed).toMatchObject({ status: 'Building', attempts: 1 });
    expect((killed.stages as Array<{ key: string }>).map((stage) => stage.key)).toEqual([
      'validate_config',
      READING_STAGE,
    ]);
    // A worker killed while zipping leaves a torn zip in its work folder (the store only ever
    // receives whole ones). This kill lands before the zip step, so such a leftover is put where
    // that worker would have left it.
    const workFolder = path.join(config.DATA_DIR, 'work', buildId);
    await mkdir(workFolder, { recursive: true });
    await writeFile(path.join(workFolder, storeKeys.artifactName(buildId)), 'a torn zip');

    source.release();
    const second = await startWorker();
    const build = await buildEnd(buildId);
    expect(build).toMatchObject({
      status: 'Built',
      error: null,
      artifact: storeKeys.artifactName(buildId),
      attempts: 2,
    });
    await expectOneGoodZip(config, pipelineId, buildId);
    expect(existsSync(workFolder)).toBe(false);
    expect((await prisma.pipeline.findUniqueOrThrow({ where: { id: pipelineId } })).status).toBe(
      'Built',
    );
    expect(await (await client.queue.getJob(buildId))?.getState()).toBe('completed');

    second.signal('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  });

  it('a build that kills every worker running it ends Failed with a reason, not stuck in Building', async () => {
    const { config, client, startWorker } = await harness({
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
    });
    const { pipelineId, buildId } = await seedRagBuild(prisma, config, { csv: CSV });
    // Never released: every run of this build stops at its source, where its worker is killed
    // (as a build that exhausts a worker's memory would kill it each time).
    const source = await holdSource(prisma, config, pipelineId, CSV);
    cleanups.push(() => source.close());

    for (const [index, attempt] of ['first', 'second'].entries()) {
      const worker = await startWorker();
      const reading = client.stageStarted(buildId, READING_STAGE, WAIT_MS);
      if (index === 0) await client.enqueue(buildId);
      await reading;
      worker.signal('SIGKILL');
      expect([attempt, await worker.exited]).toEqual([attempt, { code: null, signal: 'SIGKILL' }]);
    }
    // BullMQ gives up on a job that stalled more than once (maxStalledCount 1) without running
    // it again; the worker that finds it so must still end the build.
    const last = await startWorker();
    const build = await buildEnd(buildId);
    expect(build).toMatchObject({ status: 'Failed', error: BUILD_INTERRUPTED, attempts: 2 });
    expect((await prisma.pipeline.findUniqueOrThrow({ where: { id: pipelineId } })).status).toBe(
      'Failed',
    );
    expect(await (await client.queue.getJob(buildId))?.getState()).toBe('failed');
    expect(last.running).toBe(true);
    last.signal('SIGTERM');
    expect(await last.exited).toEqual({ code: 0, signal: null });
  });

  it('SIGTERM mid-build: the worker finishes the build, then exits with code 0', async () => {
    const { config, client, startWorker } = await harness();
    const { pipelineId, buildId } = await seedRagBuild(prisma, config, { csv: CSV });
    const source = await holdSource(prisma, config, pipelineId, CSV);
    cleanups.push(() => source.close());

    const worker = await startWorker();
    const reading = client.stageStarted(buildId, READING_STAGE, WAIT_MS);
    await client.enqueue(buildId);
    await reading;
    const from = worker.outputLength;
    worker.signal('SIGTERM');
    await worker.waitForOutput(/Stopping: waiting for running builds to finish/, WAIT_MS, from);
    // The build cannot get past its source until it is released: the worker must still be here.
    expect(worker.running).toBe(true);
    expect((await prisma.build.findUniqueOrThrow({ where: { id: buildId } })).status).toBe(
      'Building',
    );

    source.release();
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    // Exited only after the build was done and recorded.
    const build = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    expect(build).toMatchObject({ status: 'Built', error: null, attempts: 1 });
    await expectOneGoodZip(config, pipelineId, buildId);
    expect(await (await client.queue.getJob(buildId))?.getState()).toBe('completed');
  });

  it('Redis restart: builds answer 503 while it is away; gateway and worker recover by themselves', async () => {
    const redis = await RedisServer.start();
    cleanups.push(() => redis.remove());
    const { config, startWorker, startGateway } = await harness({ REDIS_URL: redis.url });
    const worker = await startWorker();
    const gateway = await startGateway();

    /** A complete pipeline never built, and its owner's token. */
    async function draftPipeline() {
      const { pipelineId, buildId, userId } = await seedRagBuild(prisma, config, { csv: CSV });
      await prisma.build.delete({ where: { id: buildId } });
      await prisma.pipeline.update({ where: { id: pipelineId }, data: { status: 'Draft' } });
      return { pipelineId, token: gateway.token(userId) };
    }
    async function latestBuild(pipelineId: string) {
      const build = await prisma.build.findFirstOrThrow({
        where: { pipelineId },
        orderBy: { createdAt: 'desc' },
      });
      return buildEnd(build.id);
    }

    const before = await draftPipeline();
    expect((await gateway.buildRag(before.token, before.pipelineId)).status).toBe(200);
    expect(await latestBuild(before.pipelineId)).toMatchObject({ status: 'Built' });

    const from = worker.outputLength;
    await redis.stop();
    // The worker noticed (it logs the refused connections) and is still running.
    await worker.waitForOutput(/ECONNREFUSED/, WAIT_MS, from);
    expect(worker.running).toBe(true);

    // While Redis is away a build request is refused at once, and leaves nothing behind.
    const during = await draftPipeline();
    const asked = Date.now();
    const refused = await gateway.buildRag(during.token, during.pipelineId);
    const answeredMs = Date.now() - asked;
    expect(refused).toMatchObject({ status: 503, body: { detail: expect.any(String) } });
    expect(answeredMs).toBeLessThan(2_000); // the limit for this answer, not a benchmark
    expect(await prisma.build.count({ where: { pipelineId: during.pipelineId } })).toBe(0);
    expect(
      (await prisma.pipeline.findUniqueOrThrow({ where: { id: during.pipelineId } })).status,
    ).toBe('Draft');

    // Redis comes back empty, as one without persistence does; nothing is restarted by hand.
    await redis.start();
    // The gateway reconnects on its own schedule; each refused try leaves nothing, as above.
    const deadline = Date.now() + WAIT_MS;
    let answer = await gateway.buildRag(during.token, during.pipelineId);
    while (answer.status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = await gateway.buildRag(during.token, during.pipelineId);
    }
    expect(answer.status).toBe(200);
    const build = await latestBuild(during.pipelineId);
    expect(build).toMatchObject({ status: 'Built', error: null });
    await expectOneGoodZip(config, during.pipelineId, build.id);
    expect(worker.running).toBe(true);
    expect(gateway.app.running).toBe(true);

    worker.signal('SIGTERM');
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  });
});
