import { BUILD_AGENT_JOB, BUILD_JOB_OPTIONS, RAG_BUILD_STAGES } from '@agentloom/contracts';
import { storeKeys } from '@agentloom/server-kit';
import type { PrismaClient } from '@agentloom/db';
import type { Queue, QueueEvents } from 'bullmq';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WorkerConfig } from '../config/env';
import {
  seedRagBuild,
  TEST_LLM_KEY,
  testPrisma,
  testWorkerConfig,
} from '../testing/build-fixtures';
import { readZip } from '@agentloom/test-kit';
import { startWorkerHarness } from '../testing/worker-harness';

describe('Build worker', () => {
  let config: WorkerConfig;
  let prisma: PrismaClient;
  let harness: Awaited<ReturnType<typeof startWorkerHarness>>;
  let queue: Queue;
  let events: QueueEvents;

  beforeAll(async () => {
    config = testWorkerConfig();
    prisma = testPrisma(config);
    harness = await startWorkerHarness(config);
    ({ queue, events } = harness);
  });
  afterAll(async () => {
    await harness.close();
    await prisma.$disconnect();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  });

  async function runBuild(buildId: string) {
    const progress: unknown[] = [];
    const onProgress = ({ jobId, data }: { jobId: string; data: unknown }) => {
      if (jobId === buildId) progress.push(data);
    };
    events.on('progress', onProgress);
    const job = await queue.add(
      BUILD_AGENT_JOB,
      { buildId },
      { ...BUILD_JOB_OPTIONS, jobId: buildId },
    );
    try {
      await job.waitUntilFinished(events, 60_000);
    } finally {
      events.off('progress', onProgress);
    }
    return progress;
  }

  it('builds a RAG agent from a CSV: stages in order, one zip, no secret inside', async () => {
    const { pipelineId, buildId } = await seedRagBuild(prisma, config);
    const progress = await runBuild(buildId);

    const build = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    expect(build.status).toBe('Built');
    expect(build.error).toBeNull();
    // The row records stage keys, never the labels the screen shows.
    const stages = build.stages as Array<{ key: string; started_at: string; finished_at: string }>;
    expect(stages.map((stage) => stage.key)).toEqual([...RAG_BUILD_STAGES]);
    for (const stage of stages) expect(stage.finished_at >= stage.started_at).toBe(true);
    expect((await prisma.pipeline.findUniqueOrThrow({ where: { id: pipelineId } })).status).toBe(
      'Built',
    );

    // The live feed saw each stage start and finish, in order, and counted the chunks embedded.
    type Event = { buildId: string; stage: string; index: number; state: string; work?: unknown };
    const events = progress as Event[];
    const counted = events.filter((event) => event.state === 'progress');
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.every((event) => event.stage === 'train_embeddings')).toBe(true);
    const indexed = (build.hostedIndex as { chunks: number }).chunks;
    expect(counted.at(-1)?.work).toEqual({
      done: indexed,
      of: indexed,
      unit: 'chunks',
      source: 'sales.csv',
    });
    const seen = events
      .filter((event) => event.state !== 'progress')
      .map((event) => `${event.index}:${event.stage}:${event.state}`);
    expect(seen).toEqual(
      RAG_BUILD_STAGES.flatMap((stage, index) => [
        `${index}:${stage}:started`,
        `${index}:${stage}:finished`,
      ]),
    );
    expect(progress.every((event) => (event as { buildId: string }).buildId === buildId)).toBe(
      true,
    );

    const folder = path.join(config.DATA_DIR, storeKeys.artifacts(pipelineId));
    expect(await readdir(folder)).toEqual([storeKeys.artifactName(buildId)]);
    const zip = await readZip(path.join(folder, storeKeys.artifactName(buildId)));
    const root = `rag-agent-${pipelineId}/`;
    for (const name of zip.keys()) expect(name.startsWith(root)).toBe(true);
    for (const required of [
      'app.py',
      'agent.json',
      'prompts/system.txt',
      'requirements.txt',
      'Dockerfile',
      'docker-compose.yml',
      '.env.example',
      '.github/workflows/ci.yml',
      'README.md',
      'data/chunks.jsonl',
      'data/source.csv',
    ]) {
      expect([required, zip.has(root + required)]).toEqual([required, true]);
    }
    const chunks = zip
      .get(`${root}data/chunks.jsonl`)!
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { text: string; row: number });
    expect(chunks).toEqual([
      expect.objectContaining({ text: 'region: North\nproduct: Widget\namount: 120', row: 1 }),
      expect.objectContaining({ text: 'region: South\nproduct: Gadget\namount: 80', row: 2 }),
    ]);
    for (const [name, content] of zip) {
      expect([name, content.includes(TEST_LLM_KEY)]).toEqual([name, false]);
    }
  });

  it('a second run of the same build replaces its zip: exactly one artifact', async () => {
    const { pipelineId, buildId } = await seedRagBuild(prisma, config);
    await runBuild(buildId);
    const job = await queue.getJob(buildId);
    await job?.remove();
    await prisma.build.update({ where: { id: buildId }, data: { status: 'Building' } });
    await runBuild(buildId);
    expect(await readdir(path.join(config.DATA_DIR, storeKeys.artifacts(pipelineId)))).toEqual([
      storeKeys.artifactName(buildId),
    ]);
    const build = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    expect(build).toMatchObject({ status: 'Built', attempts: 2 });
  });

  it('a job that comes back for a build already ended leaves it as it was: no rerun, same zip', async () => {
    // A worker that records the end and dies before BullMQ hears of it leaves the job to stall
    // and come back; the build it ended must not run again.
    const { pipelineId, buildId } = await seedRagBuild(prisma, config);
    await runBuild(buildId);
    const zipPath = path.join(
      config.DATA_DIR,
      storeKeys.artifact(pipelineId, storeKeys.artifactName(buildId)),
    );
    const before = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    const zipBefore = await stat(zipPath);
    await (await queue.getJob(buildId))?.remove();

    expect(await runBuild(buildId)).toEqual([]);
    expect(await prisma.build.findUniqueOrThrow({ where: { id: buildId } })).toEqual(before);
    expect((await stat(zipPath)).mtimeMs).toBe(zipBefore.mtimeMs);

    // A build that ended Failed stays Failed with its reason, too.
    await prisma.build.update({
      where: { id: buildId },
      data: { status: 'Failed', error: 'The saved reason.' },
    });
    await (await queue.getJob(buildId))?.remove();
    expect(await runBuild(buildId)).toEqual([]);
    expect(await prisma.build.findUniqueOrThrow({ where: { id: buildId } })).toMatchObject({
      status: 'Failed',
      error: 'The saved reason.',
      attempts: 1,
    });
  });

  it('ends a build Failed with a human reason when its source file is gone', async () => {
    const { pipelineId, buildId } = await seedRagBuild(prisma, config);
    await rm(path.join(config.DATA_DIR, storeKeys.uploads(pipelineId)), {
      recursive: true,
      force: true,
    });
    await expect(runBuild(buildId)).rejects.toThrow(
      'The uploaded source file is missing; upload it again.',
    );
    const build = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    expect(build).toMatchObject({
      status: 'Failed',
      error: 'The uploaded source file is missing; upload it again.',
    });
    expect((await prisma.pipeline.findUniqueOrThrow({ where: { id: pipelineId } })).status).toBe(
      'Failed',
    );
  });

  it('refuses a job whose payload is not a build id, without retrying', async () => {
    const job = await queue.add(BUILD_AGENT_JOB, { config: 'nope' }, { attempts: 3 });
    await expect(job.waitUntilFinished(events, 30_000)).rejects.toThrow(
      'The job payload is not a build id.',
    );
    expect((await queue.getJob(job.id!))?.attemptsMade).toBe(1);
  });
});
