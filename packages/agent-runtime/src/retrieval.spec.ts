import { env } from '@huggingface/transformers';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Chunk } from './chunks';
import { closedPort, TEAM } from './fixtures.spec-helper';
import { writeTinyEmbeddingModel } from './tiny-embedding-model.spec-helper';
import { Bm25Index, buildRetrievalIndex, tokenize } from './retrieval';
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

describe('Bm25Index', () => {
  const docs: Chunk[] = [
    { id: 'a', source: 'notes.txt', text: 'the cat sat on the mat' },
    {
      id: 'b',
      source: 'notes.txt',
      text: 'the dog chased the cat around the garden and the house',
    },
    { id: 'c', source: 'notes.txt', text: 'stock prices fell sharply' },
    { id: 'd', source: 'notes.txt', text: 'cat cat cat' },
  ];
  const index = new Bm25Index(docs);

  it('ranks by term frequency, rarity and length, and leaves out documents without a match', async () => {
    const hits = await index.search('cat', 10);
    expect(hits.map((hit) => hit.chunk.id)).toEqual(['d', 'a', 'b']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[1]!.score).toBeGreaterThan(hits[2]!.score);
  });

  it('weights rare terms above common ones', async () => {
    // "the" is in three documents, "garden" in one: the garden document wins for both words.
    const [best] = await index.search('the garden', 1);
    expect(best?.chunk.id).toBe('b');
  });

  it('computes Okapi BM25 scores (k1 1.2, b 0.75)', async () => {
    const [hit] = await index.search('stock', 1);
    // One document of four has "stock", once, in a 4-word document; the average length is 6.
    const idf = Math.log(1 + (4 - 1 + 0.5) / (1 + 0.5));
    const expected = (idf * 1 * 2.2) / (1 + 1.2 * (1 - 0.75 + (0.75 * 4) / 6));
    expect(hit?.score).toBeCloseTo(expected, 10);
  });

  it('answers an empty list for no match, k = 0, or an empty index', async () => {
    expect(await index.search('zebra', 3)).toEqual([]);
    expect(await index.search('cat', 0)).toEqual([]);
    expect(await new Bm25Index([]).search('cat', 3)).toEqual([]);
  });

  it('reports its mode, size and a memory figure that grows with the text', () => {
    expect(index.mode).toBe('keyword');
    expect(index.size).toBe(4);
    const bigger = new Bm25Index([...docs, { id: 'e', source: 'x', text: 'word '.repeat(1000) }]);
    expect(bigger.memoryBytes()).toBeGreaterThan(index.memoryBytes() + 10_000);
  });
});

describe('buildRetrievalIndex', () => {
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

  it('embeds with text-embedding-ada-002 through the OpenAI API, batched', async () => {
    server.requests.length = 0;
    const many = Array.from({ length: 200 }, (_, i) => ({
      id: `n${i}`,
      source: 'numbers.txt',
      text: `filler number ${i}`,
    }));
    const index = await buildRetrievalIndex([...TEAM, ...many], {
      embeddingModel: 'text-embedding-ada-002',
      openai: { apiKey: 'sk-embeddings-test', baseUrl: server.baseUrls.openai },
      cacheDir,
    });
    expect(index.mode).toBe('embeddings');
    expect(index.note).toBeUndefined();
    expect(index.size).toBe(205);
    const batches = server.requests.filter((request) => request.path === '/v1/embeddings');
    expect(batches.map((request) => (request.body as { input: string[] }).input.length)).toEqual([
      96, 96, 13,
    ]);
    expect(batches[0]?.headers.authorization).toBe('Bearer sk-embeddings-test');

    const [best] = await index.search('Which city is the Zephyr project in?', 1);
    expect(best?.chunk.id).toBe('row-4');
    // 205 vectors of 256 float32 values, plus the text.
    expect(index.memoryBytes()).toBeGreaterThan(205 * 256 * 4);
  });

  it('falls back to BM25 without an OpenAI key, and says so', async () => {
    const index = await buildRetrievalIndex(TEAM, {
      embeddingModel: 'text-embedding-ada-002',
      cacheDir,
    });
    expect(index.mode).toBe('keyword');
    expect(index.note).toBe(
      'The embedding model text-embedding-ada-002 needs an OpenAI API key and this agent has none, so this preview answers with keyword (BM25) retrieval.',
    );
    expect((await index.search('zephyr', 1))[0]?.chunk.id).toBe('row-4');
  });

  it('falls back to BM25 when OpenAI refuses the key', async () => {
    server.failNext(401, 'Incorrect API key provided: sk-wrong-embeddings.');
    const index = await buildRetrievalIndex(TEAM, {
      embeddingModel: 'text-embedding-ada-002',
      openai: { apiKey: 'sk-wrong-embeddings', baseUrl: server.baseUrls.openai },
      cacheDir,
    });
    expect(index.mode).toBe('keyword');
    expect(index.note).toBe(
      'The embedding model text-embedding-ada-002 could not be loaded (The provider rejected the API key (401)), so this preview answers with keyword (BM25) retrieval.',
    );
  });

  it.each(['all-MiniLM-L6-v2', 'e5-small-v2'] as const)(
    'falls back to BM25 when the weights of %s cannot be downloaded',
    async (embeddingModel) => {
      const index = await buildRetrievalIndex(TEAM, { embeddingModel, cacheDir });
      expect(index.mode).toBe('keyword');
      expect(index.note).toBe(
        `The embedding model ${embeddingModel} could not be loaded (fetch failed), so this preview answers with keyword (BM25) retrieval.`,
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

    const index = await buildRetrievalIndex(TEAM, {
      embeddingModel: 'all-MiniLM-L12-v2',
      cacheDir,
    });
    expect(index.mode).toBe('embeddings');
    expect(index.note).toBeUndefined();
    expect((await index.search(questions[0]!, 1))[0]?.chunk.id).toBe('row-4');
    expect((await index.search(questions[1]!, 1))[0]?.chunk.id).toBe('row-5');
    const vocabulary = new Set(texts.flatMap(tokenize)).size + 4; // the vector length
    expect(index.memoryBytes()).toBeGreaterThanOrEqual(TEAM.length * vocabulary * 4);

    // The pipeline stays loaded: a second index needs no files.
    await rm(path.join(cacheDir, 'Xenova'), { recursive: true });
    const again = await buildRetrievalIndex(TEAM.slice(0, 2), {
      embeddingModel: 'all-MiniLM-L12-v2',
      cacheDir,
    });
    expect(again.mode).toBe('embeddings');
  });

  it('rejects only when it is aborted', async () => {
    const aborted = AbortSignal.abort();
    await expect(
      buildRetrievalIndex(TEAM, {
        embeddingModel: 'text-embedding-ada-002',
        openai: { apiKey: 'sk-x', baseUrl: server.baseUrls.openai },
        cacheDir,
        signal: aborted,
      }),
    ).rejects.toThrow();
  });
});
