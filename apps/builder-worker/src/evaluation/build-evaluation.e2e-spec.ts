import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { ZBuildEvaluation, type TBuildEvaluation } from '@agentloom/contracts';
import type { PrismaClient } from '@agentloom/db';
import { storeKeys } from '@agentloom/server-kit';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WorkerConfig } from '../config/env';
import { seedBuild, testPrisma, testWorkerConfig } from '../testing/build-fixtures';
import { startWorkerHarness } from '../testing/worker-harness';

/*
 * A RAG agent's build is evaluated once its index is made: its expected questions, an answer a
 * visitor liked and an answer its owner corrected, replayed against it through the real queue,
 * worker, Postgres and the OpenAI stand-in's embeddings. A rebuild from a file that lost two
 * customers' rows scores worse, and says which checks failed.
 */

const HEADER = 'customer,product,city';
const ROWS = [
  'Ferncliff Outfitters,Hiking boots,York',
  'Quarry Lane,Camping stove,Bath',
  'Marlow Supplies,Water filter,Derby',
  'West Gadgets,Solar lantern,Leeds',
  'Blue Harbour,Canvas tent,Bristol',
];
const csv = (rows: string[]) => `${[HEADER, ...rows].join('\n')}\n`;
const EXPECTED = [
  'What did West Gadgets order?',
  'Which product did Blue Harbour buy?',
  'Where is Ferncliff Outfitters based?',
];

describe('The evaluation recorded with every RAG build', () => {
  let llm: LlmTestServer;
  let config: WorkerConfig;
  let prisma: PrismaClient;
  let harness: Awaited<ReturnType<typeof startWorkerHarness>>;

  beforeAll(async () => {
    llm = await startLlmTestServer();
    config = testWorkerConfig({ OPENAI_BASE_URL: llm.baseUrls.openai ?? '' });
    prisma = testPrisma(config);
    harness = await startWorkerHarness(config);
  });
  afterAll(async () => {
    await harness.close();
    await prisma.$disconnect();
    await llm.close();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  });

  const upload = (rows: string[]) => ({
    originalName: 'customers.csv',
    content: csv(rows),
    summary: { kind: 'csv' as const, columns: ['customer', 'product', 'city'], rows: rows.length },
  });

  async function evaluationOf(buildId: string): Promise<TBuildEvaluation> {
    const build = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    expect(build.status).toBe('Built');
    return ZBuildEvaluation.parse(build.evaluation);
  }

  const embeddingCalls = () => llm.requests.filter((r) => r.path.endsWith('/embeddings')).length;

  /** A published conversation: the question, and the agent's answer with its rating. */
  async function rated(
    pipelineId: string,
    userId: string,
    question: string,
    answer: { feedback: 1 | -1; citations: string[] },
  ): Promise<string> {
    const conversation = await prisma.conversation.create({
      data: { pipelineId, userId, channel: 'api' },
    });
    await prisma.conversationMessage.create({
      data: { conversationId: conversation.id, role: 'user', content: question },
    });
    const message = await prisma.conversationMessage.create({
      data: {
        conversationId: conversation.id,
        role: 'assistant',
        content: 'An answer.',
        feedback: answer.feedback,
        sources: answer.citations.map((citation) => ({ citation, snippet: '…', score: 0.5 })),
        createdAt: new Date(Date.now() + 1000),
      },
    });
    return message.id;
  }

  /** The wizard's file replaced by another version, and a build of it, as the gateway does. */
  async function rebuildWith(pipelineId: string, userId: string, rows: string[]) {
    const stored = `${randomUUID()}.csv`;
    await writeFile(path.join(config.DATA_DIR, storeKeys.upload(pipelineId, stored)), csv(rows));
    const pipeline = await prisma.pipeline.findUniqueOrThrow({ where: { id: pipelineId } });
    const stored_config = pipeline.config as Record<string, unknown>;
    await prisma.pipeline.update({
      where: { id: pipelineId },
      data: {
        status: 'Building',
        sourceFile: stored,
        config: {
          ...stored_config,
          file: { ...(stored_config.file as object), uploaded_at: new Date().toISOString() },
        },
      },
    });
    const buildId = randomUUID();
    await prisma.build.create({ data: { id: buildId, pipelineId, userId } });
    return buildId;
  }

  it('passes on the build it was written for, and fails where a rebuild lost rows', async () => {
    const { pipelineId, buildId, userId } = await seedBuild(prisma, config, {
      upload: upload(ROWS),
      config: {
        source_type: 'csv',
        embedding_model: 'text-embedding-3-small',
        vector_store: { vector_db: 'qdrant', url: 'http://qdrant:6333' },
        llm: { provider: 'openai', model: 'gpt-4o-mini' },
        system_prompt: 'Answer from the customers file only.',
        ui: 'streamlit',
        retrieval: { top_k: 2 },
        expected_questions: EXPECTED,
      },
    });
    await rated(pipelineId, userId, 'Which city is Blue Harbour in?', {
      feedback: 1,
      citations: ['customers.csv, row 6'],
    });
    const disliked = await rated(pipelineId, userId, 'Do you deliver on Sundays?', {
      feedback: -1,
      citations: [],
    });
    const correction = await prisma.curatedAnswer.create({
      data: {
        pipelineId,
        userId,
        question: 'Do you deliver on Sundays?',
        answer: 'No, we deliver Monday to Saturday.',
        correctsMessageId: disliked,
      },
    });
    const embeddingsBefore = embeddingCalls();
    await harness.runBuild(buildId);
    const before = await evaluationOf(buildId);
    expect(before).toMatchObject({ cases: 5, passed: 5, failed: [], score: 1 });

    // The owner rewrites the correction's question into another one: it no longer covers the
    // answer it corrects.
    await prisma.curatedAnswer.update({
      where: { id: correction.id },
      data: { question: 'What are your opening hours on bank holidays?' },
    });
    const rebuilt = await rebuildWith(pipelineId, userId, ROWS.slice(0, 3));
    await harness.runBuild(rebuilt);
    const after = await evaluationOf(rebuilt);
    console.log(
      `Build 1 evaluation:\n${JSON.stringify(before, null, 2)}\n` +
        `Build 2 (West Gadgets and Blue Harbour removed, the correction rewritten) evaluation:\n${JSON.stringify(after, null, 2)}\n` +
        `Embedding requests for both builds: ${embeddingCalls() - embeddingsBefore}`,
    );
    expect(after.cases).toBe(5);
    expect(after.passed).toBe(1);
    expect(after.score).toBeLessThan(before.score);
    expect(after.failed.map(({ kind, question }) => [kind, question])).toEqual([
      ['expected', 'What did West Gadgets order?'],
      ['expected', 'Which product did Blue Harbour buy?'],
      ['thumbs_up', 'Which city is Blue Harbour in?'],
      ['curated', 'Do you deliver on Sundays?'],
    ]);
    expect(after.failed[2]!.expected).toBe('customers.csv, row 6');

    // Evaluating never fails a build: the provider refusing the first question's embedding
    // leaves the build Built, with no evaluation. Nothing changed, so nothing else is embedded.
    const unchanged = randomUUID();
    await prisma.build.create({ data: { id: unchanged, pipelineId, userId } });
    await prisma.pipeline.update({ where: { id: pipelineId }, data: { status: 'Building' } });
    const calls = embeddingCalls();
    llm.failNext(400, 'The embeddings service is down.');
    await harness.runBuild(unchanged);
    const row = await prisma.build.findUniqueOrThrow({ where: { id: unchanged } });
    expect(row).toMatchObject({ status: 'Built', evaluation: null });
    expect(embeddingCalls() - calls).toBe(1);
  });
});
