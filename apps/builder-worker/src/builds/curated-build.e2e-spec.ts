import { CURATED_MATCH_THRESHOLDS } from '@agentloom/agent-runtime';
import type { TBuildInputs } from '@agentloom/contracts';
import type { PrismaClient } from '@agentloom/db';
import { storeKeys } from '@agentloom/server-kit';
import { readZip } from '@agentloom/test-kit';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { WorkerConfig } from '../config/env';
import { seedRagBuild, testPrisma, testWorkerConfig } from '../testing/build-fixtures';
import { startWorkerHarness } from '../testing/worker-harness';

/**
 * The downloaded project answers from the owner's curated answers: the zip carries them, as the
 * build captured them when it started (its snapshot), so the same build makes the same zip.
 */
describe('Curated answers in the zip', () => {
  let config: WorkerConfig;
  let prisma: PrismaClient;
  let harness: Awaited<ReturnType<typeof startWorkerHarness>>;

  beforeAll(async () => {
    config = testWorkerConfig();
    prisma = testPrisma(config);
    harness = await startWorkerHarness(config);
  });
  afterAll(async () => {
    await harness.close();
    await prisma.$disconnect();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  });

  /** Runs the build and returns its zip's files, by path inside the project folder. */
  async function builtZip(pipelineId: string, buildId: string): Promise<Map<string, string>> {
    await harness.runBuild(buildId);
    const file = path.join(
      config.DATA_DIR,
      storeKeys.artifact(pipelineId, storeKeys.artifactName(buildId)),
    );
    const root = `rag-agent-${pipelineId}/`;
    const zip = await readZip(file);
    return new Map(
      [...zip].map(([name, content]) => [name.slice(root.length), content.toString('utf8')]),
    );
  }

  let written = Date.now() - 60_000;
  /** A curated answer as the gateway writes it, each a second after the one before. */
  const addCurated = (pipelineId: string, userId: string, question: string, answer: string) =>
    prisma.curatedAnswer.create({
      data: { pipelineId, userId, question, answer, createdAt: new Date((written += 1000)) },
    });

  it('ships the answers the build captured, not those written after it started', async () => {
    const { pipelineId, buildId, userId } = await seedRagBuild(prisma, config);
    const refund = await addCurated(
      pipelineId,
      userId,
      'How do I get a refund?',
      'Write to refunds@example.com; we pay back within 5 days.',
    );
    const pipeline = await prisma.pipeline.findUniqueOrThrow({ where: { id: pipelineId } });
    // The snapshot as the gateway takes it when the build starts.
    const snapshot: TBuildInputs = {
      config: pipeline.config as TBuildInputs['config'],
      llm_key: null,
      vector_db_key: null,
      source_uri: null,
      source_file: pipeline.sourceFile,
      curated_answers: [{ id: refund.id, question: refund.question, answer: refund.answer }],
    };
    await prisma.build.update({
      where: { id: buildId },
      data: { snapshot },
    });
    // The owner edits and adds answers while the build waits in the queue.
    await prisma.curatedAnswer.update({ where: { id: refund.id }, data: { answer: 'Changed.' } });
    await addCurated(pipelineId, userId, 'Do you ship to Norway?', 'Yes, in two weeks.');

    const zip = await builtZip(pipelineId, buildId);

    expect(JSON.parse(zip.get('data/curated_answers.json')!)).toEqual(snapshot.curated_answers);
    // Compared as the hosted agent compares them: by meaning, with its model's threshold.
    expect(JSON.parse(zip.get('agent.json')!).curated).toEqual({
      file: 'data/curated_answers.json',
      compare: 'meaning',
      threshold: CURATED_MATCH_THRESHOLDS['all-MiniLM-L6-v2'],
    });
    for (const file of ['agent/curated.py', 'agent/words.py', 'tests/test_curated.py']) {
      expect([file, zip.has(file)]).toEqual([file, true]);
    }
    expect(zip.get('README.md')).toContain('data/curated_answers.json');
  });

  it('a build from before snapshots captured them ships the agent’s answers, oldest first', async () => {
    const { pipelineId, buildId, userId } = await seedRagBuild(prisma, config);
    const first = await addCurated(pipelineId, userId, 'First question?', 'First answer.');
    const second = await addCurated(
      pipelineId,
      userId,
      'Second question?',
      'Second <b>answer</b>.',
    );

    const zip = await builtZip(pipelineId, buildId);

    expect(JSON.parse(zip.get('data/curated_answers.json')!)).toEqual([
      { id: first.id, question: first.question, answer: first.answer },
      { id: second.id, question: second.question, answer: second.answer },
    ]);
  });

  it('an agent without curated answers ships an empty list, to add them by hand', async () => {
    const { pipelineId, buildId } = await seedRagBuild(prisma, config);

    const zip = await builtZip(pipelineId, buildId);

    expect(JSON.parse(zip.get('data/curated_answers.json')!)).toEqual([]);
  });
});
