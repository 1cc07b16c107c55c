import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import type { PrismaClient } from '@agentloom/db';
import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import type { WorkerConfig } from '../config/env';
import { seedBuild, testPrisma, testWorkerConfig } from '../testing/build-fixtures';
import { startWorkerHarness } from '../testing/worker-harness';

/** One sample's value in Prometheus text, 0 when the series does not exist yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const TOKEN = 'worker-metrics-token-0123456789';

describe("The worker's metrics server", () => {
  let llm: LlmTestServer;
  let config: WorkerConfig;
  let prisma: PrismaClient;
  let harness: Awaited<ReturnType<typeof startWorkerHarness>>;
  let url: string;

  beforeAll(async () => {
    llm = await startLlmTestServer();
    const port = await freePort();
    config = testWorkerConfig({
      OPENAI_BASE_URL: llm.baseUrls.openai ?? '',
      METRICS_PORT: String(port),
      METRICS_HOST: '127.0.0.1',
      METRICS_TOKEN: TOKEN,
    });
    url = `http://127.0.0.1:${port}/metrics`;
    prisma = testPrisma(config);
    harness = await startWorkerHarness(config);
  });
  afterAll(async () => {
    await harness.close();
    await prisma.$disconnect();
    await llm.close();
    await rm(config.DATA_DIR, { recursive: true, force: true });
  });

  const scrape = async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('answers only the token, with Prometheus text', async () => {
    const refused = await fetch(url);
    expect(refused.status).toBe(401);
    const text = await scrape();
    expect(text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    expect(text).toMatch(/^agentloom_build_queue_jobs\{state="waiting"\} \d+$/m);
    expect(sample(text, 'agentloom_builds_in_progress')).toBe(0);
  });

  it('counts a build by its outcome, and the embeddings it asked the provider for', async () => {
    const built = 'agentloom_build_duration_seconds_count{outcome="built"}';
    const embedded =
      'agentloom_provider_call_duration_seconds_count{kind="embeddings",provider="openai",outcome="ok"}';
    const before = await scrape();
    const { buildId } = await seedBuild(prisma, config, {
      upload: {
        originalName: 'sales.csv',
        content: 'region,product,amount\nNorth,Widget,120\nSouth,Gadget,80\n',
        summary: { kind: 'csv', columns: ['region', 'product', 'amount'], rows: 2 },
      },
      config: {
        source_type: 'csv',
        embedding_model: 'text-embedding-3-small',
        vector_store: {
          vector_db: 'chromadb',
          url: 'http://chroma:8000',
          dimensions: 1536,
          distance_metric: 'cosine',
        },
        llm: { provider: 'openai', model: 'gpt-4o-mini' },
        system_prompt: 'Answer from the sales data only.',
        ui: 'streamlit',
      },
    });
    await harness.runBuild(buildId);
    expect((await prisma.build.findUniqueOrThrow({ where: { id: buildId } })).status).toBe('Built');

    const after = await scrape();
    expect(sample(after, built)).toBe(sample(before, built) + 1);
    expect(sample(after, embedded)).toBeGreaterThan(sample(before, embedded));
    expect(sample(after, 'agentloom_builds_in_progress')).toBe(0);
  });
});
