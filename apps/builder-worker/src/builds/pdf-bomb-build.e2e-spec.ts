import type { PrismaClient } from '@agentloom/db';
import { inflatingPdf } from '@agentloom/source-readers/testing';
import { rm } from 'node:fs/promises';
import type { WorkerConfig } from '../config/env';
import { seedBuild, testPrisma, testWorkerConfig } from '../testing/build-fixtures';
import { startWorkerHarness } from '../testing/worker-harness';

/**
 * Issue 42, finding 2: the worker reads PDFs at build time too, and its heap cap did not bound a
 * PDF's decoded stream buffers. A PDF that an older gateway let through still cannot expand here.
 */
describe('a build of a PDF that inflates to 1 GB', () => {
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

  it('fails with the reason, its memory bounded', async () => {
    const { buildId } = await seedBuild(prisma, config, {
      upload: {
        originalName: 'bomb.pdf',
        content: inflatingPdf(1024),
        summary: { kind: 'pdf', pages: 1, characters: 10 },
      },
      config: {
        source_type: 'pdf',
        embedding_model: 'all-MiniLM-L6-v2',
        vector_store: {
          vector_db: 'chromadb',
          url: 'http://chroma:8000',
          dimensions: 384,
          distance_metric: 'cosine',
        },
        llm: { provider: 'openai', model: 'gpt-4o-mini' },
        system_prompt: 'Answer only from the data you were given.',
        ui: 'streamlit',
      },
    });
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    await expect(harness.runBuild(buildId)).rejects.toThrow(/expands beyond what an upload may/);
    clearInterval(sampler);
    console.log(`worker RSS with the 1 GB PDF bomb: +${Math.round((peak - before) / 2 ** 20)} MB`);
    const build = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    expect(build.status).toBe('Failed');
    expect(build.error).toMatch(
      /^bomb\.pdf: The PDF could not be read: its compressed content expands/,
    );
    expect(peak - before).toBeLessThan(400 * 1024 * 1024);
  });
});
