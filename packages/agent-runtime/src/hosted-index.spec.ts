import { env } from '@huggingface/transformers';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { closedPort, TEAM } from './fixtures.spec-helper';
import { writeTinyEmbeddingModel } from './tiny-embedding-model.spec-helper';
import { hostedIndexFor } from './hosted-index.spec-helper';
import { tokenize } from './retrieval';
import { startLlmTestServer, type LlmTestServer } from './testing';

describe('tokenize', () => {
  it('lowercases and splits on anything but letters and digits, in any script', () => {
    expect(tokenize("Zürich's Q3-2024 report: naïve ÉTÉ, 東京")).toEqual([
      'zürich',
      's',
      'q3',
      '2024',
      'report',
      'naïve',
      'été',
      '東京',
    ]);
  });
});

describe('hosted indexes, made once and opened as an agent opens them', () => {
  let server: LlmTestServer;
  let cacheDir: string;

  beforeAll(async () => {
    server = await startLlmTestServer();
    cacheDir = await mkdtemp(path.join(tmpdir(), 'agent-runtime-models-'));
    // Nothing may reach huggingface.co from a test: a closed local port stands in for it.
    env.remoteHost = `http://127.0.0.1:${await closedPort()}/`;
  });

  afterAll(async () => {
    await server.close();
    await rm(cacheDir, { recursive: true, force: true });
  });

  it('embeds with text-embedding-ada-002 through the OpenAI API, batched, once', async () => {
    server.requests.length = 0;
    const many = Array.from({ length: 200 }, (_, i) => ({
      id: `n${i}`,
      source: 'numbers.txt',
      text: `filler number ${i}`,
    }));
    const index = await hostedIndexFor([...TEAM, ...many], {
      embeddingModel: 'text-embedding-ada-002',
      openai: { apiKey: 'sk-embeddings-test', baseUrl: server.baseUrls.openai },
      cacheDir,
    });
    expect(index.mode).toBe('embeddings');
    expect(index.note).toBeUndefined();
    expect(index.size).toBe(205);
    const batches = server.requests.filter((request) => request.path === '/v1/embeddings');
    expect(batches.map((request) => (request.body as { input: string[] }).input.length)).toEqual([
      205,
    ]);
    expect(batches[0]?.headers.authorization).toBe('Bearer sk-embeddings-test');

    // A question costs one query embedding: the passages are never embedded again.
    const [best] = await index.search('Which city is the Zephyr project in?', 1);
    expect(best?.chunk.id).toBe('row-4');
    const after = server.requests.filter((request) => request.path === '/v1/embeddings');
    expect(after.map((request) => (request.body as { input: string[] }).input.length)).toEqual([
      205, 1,
    ]);
    // 205 vectors of 1536 float32 values (small agents search exactly, in memory), plus the text.
    expect(index.memoryBytes()).toBeGreaterThan(205 * 1536 * 4);
  });

  it('falls back to full-text search without an OpenAI key, and says so', async () => {
    const index = await hostedIndexFor(TEAM, {
      embeddingModel: 'text-embedding-ada-002',
      cacheDir,
    });
    expect(index.mode).toBe('keyword');
    expect(index.note).toBe(
      "The embedding model text-embedding-ada-002 needs an OpenAI API key and this agent's provider is not OpenAI, so this agent answers with keyword (full-text) search.",
    );
    expect((await index.search('zephyr', 1))[0]?.chunk.id).toBe('row-4');
  });

  it('fails, making no index, when OpenAI refuses the key (the build says so)', async () => {
    server.failNext(401, 'Incorrect API key provided: sk-wrong-embeddings.');
    await expect(
      hostedIndexFor(TEAM, {
        embeddingModel: 'text-embedding-ada-002',
        openai: { apiKey: 'sk-wrong-embeddings', baseUrl: server.baseUrls.openai },
        cacheDir,
      }),
    ).rejects.toMatchObject({ statusCode: 401 });
  });

  it.each(['all-MiniLM-L6-v2', 'e5-small-v2'] as const)(
    'falls back to full-text search when the weights of %s cannot be downloaded',
    async (embeddingModel) => {
      const index = await hostedIndexFor(TEAM, { embeddingModel, cacheDir });
      expect(index.mode).toBe('keyword');
      expect(index.note).toBe(
        `The embedding model ${embeddingModel} could not be loaded (fetch failed), so this agent answers with keyword (full-text) search.`,
      );
      expect((await index.search('Who works on Zephyr?', 1))[0]?.chunk.id).toBe('row-4');
      // Weights go to the cache folder the gateway chose, not next to node_modules.
      expect(env.cacheDir).toBe(cacheDir);
    },
  );

  it('embeds with a local model whose weights are in the cache folder, loaded once', async () => {
    const questions = ['Who works on Zephyr?', 'Which project is in Rome?'];
    const texts = [...TEAM.map((chunk) => chunk.text), ...questions];
    await writeTinyEmbeddingModel(cacheDir, 'Xenova/all-MiniLM-L12-v2', texts);

    const index = await hostedIndexFor(TEAM, {
      embeddingModel: 'all-MiniLM-L12-v2',
      cacheDir,
    });
    expect(index.mode).toBe('embeddings');
    expect(index.note).toBeUndefined();
    expect((await index.search(questions[0]!, 1))[0]?.chunk.id).toBe('row-4');
    expect((await index.search(questions[1]!, 1))[0]?.chunk.id).toBe('row-5');
    // Small agents hold their vectors (the catalogue's 384 numbers each) to search exactly.
    expect(index.memoryBytes()).toBeGreaterThanOrEqual(TEAM.length * 384 * 4);

    // The pipeline stays loaded: a second index needs no files.
    await rm(path.join(cacheDir, 'Xenova'), { recursive: true });
    const again = await hostedIndexFor(TEAM.slice(0, 2), {
      embeddingModel: 'all-MiniLM-L12-v2',
      cacheDir,
    });
    expect(again.mode).toBe('embeddings');
  });

  it('searches a large agent through its HNSW index with the exact search’s best passages', async () => {
    // 1,200 chunks × 1536 numbers is past the exact-search size: the build makes an HNSW index.
    const colours = ['red', 'green', 'blue', 'amber', 'violet', 'teal', 'grey', 'black'];
    const many = Array.from({ length: 1200 }, (_, i) => ({
      id: `order-${i}`,
      source: 'orders.csv',
      row: i + 2,
      text: `order ${i} customer c${i % 97} city t${i % 41} colour ${colours[i % 8]} item p${i % 53}`,
    }));
    const options = {
      embeddingModel: 'text-embedding-3-small' as const,
      openai: { apiKey: 'sk-ann-test', baseUrl: server.baseUrls.openai },
      cacheDir,
    };
    const ann = await hostedIndexFor(many, options);
    expect(ann.memoryBytes()).toBe(0); // nothing of it is held by the agent
    const passages = await embed(many.map((chunk) => chunk.text));
    let found = 0;
    for (let q = 0; q < 20; q++) {
      const question = `customer c${(q * 7) % 97} city t${(q * 5) % 41} item p${(q * 3) % 53}`;
      const best = new Set((await ann.search(question, 4)).map((hit) => hit.score.toFixed(4)));
      const [asked] = await embed([question]);
      // The exact answer: every chunk's cosine similarity with the question, best first.
      const exact = passages
        .map((v) => v.reduce((sum, value, i) => sum + value * asked![i]!, 0))
        .sort((a, b) => b - a);
      found += exact.slice(0, 4).filter((score) => best.has(score.toFixed(4))).length;
    }
    expect(found / 80).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  async function embed(input: string[]): Promise<number[][]> {
    const response = await fetch(`${server.baseUrls.openai}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-ann-test' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input }),
    });
    const body = (await response.json()) as { data: { embedding: number[] }[] };
    return body.data.map((item) => item.embedding);
  }
});
