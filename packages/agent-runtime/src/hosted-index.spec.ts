import { env } from '@huggingface/transformers';
import { mkdtemp, readdir, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { closedPort, TEAM } from './fixtures.spec-helper';
import { writeTinyEmbeddingModel } from './tiny-embedding-model.spec-helper';
import { embedderFor } from './embedders';
import { graphSearchThread } from './graph-threads';
import { localIndexFolder, openHostedIndex, type HostedIndexLocation } from './hosted-index';
import { hostedIndexFor, writtenSegment } from './hosted-index.spec-helper';
import * as lancedb from './lancedb';
import { tokenize, type RetrievalIndex } from './retrieval';
import { startLlmTestServer, testEmbedding, type LlmTestServer } from './testing';

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
    // Vectors travel as base64 float32s, as OpenAI's own SDKs ask for them.
    expect(batches[0]?.body).toMatchObject({ encoding_format: 'base64' });

    // A question costs one query embedding: the passages are never embedded again.
    const [best] = await index.search('Which city is the Zephyr project in?', 1);
    expect(best?.chunk.id).toBe('row-4');
    const after = server.requests.filter((request) => request.path === '/v1/embeddings');
    expect(after.map((request) => (request.body as { input: string[] }).input.length)).toEqual([
      205, 1,
    ]);
    // 205 vectors of 1536 float32 values (small agents search exactly, in memory), plus the text.
    expect(index.memoryBytes()).toBeGreaterThan(205 * 1536 * 4);

    // They arrive as the stand-in's very vectors, in Float32Arrays: no array of JavaScript
    // numbers is made in between.
    const embedder = await embedderFor('text-embedding-ada-002', {
      openai: { apiKey: 'sk-embeddings-test', baseUrl: server.baseUrls.openai },
      cacheDir,
    });
    const [vector] = await embedder.embedPassages(['filler number 7']);
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector).toEqual(Float32Array.from(testEmbedding('filler number 7', 1536)));
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

  const colours = ['red', 'green', 'blue', 'amber', 'violet', 'teal', 'grey', 'black'];
  // 1,200 chunks × 1536 numbers is past the exact-search size: the build makes a search graph.
  const many = Array.from({ length: 1200 }, (_, i) => ({
    id: `order-${i}`,
    source: 'orders.csv',
    row: i + 2,
    text: `order ${i} customer c${i % 97} city t${i % 41} colour ${colours[i % 8]} item p${i % 53}`,
  }));
  const annOptions = () => ({
    embeddingModel: 'text-embedding-3-small' as const,
    openai: { apiKey: 'sk-ann-test', baseUrl: server.baseUrls.openai },
    cacheDir,
  });

  /** recall@4 of `index` against the exact cosine similarities (ties with the 4th count). */
  async function recallAt4(index: RetrievalIndex): Promise<number> {
    const passages = await embed(many.map((chunk) => chunk.text));
    let found = 0;
    for (let q = 0; q < 20; q++) {
      const question = `customer c${(q * 7) % 97} city t${(q * 5) % 41} item p${(q * 3) % 53}`;
      const [asked] = await embed([question]);
      const cosine = (row: number) =>
        passages[row]!.reduce((sum, value, i) => sum + value * asked![i]!, 0);
      const fourth = many.map((_, row) => cosine(row)).sort((a, b) => b - a)[3]!;
      const hits = await index.search(question, 4);
      expect(hits).toHaveLength(4);
      for (const hit of hits) {
        const exact = cosine(many.findIndex((c) => c.id === hit.chunk.id));
        // Each score is its passage's cosine similarity (8-bit vectors: to about two decimals).
        expect(Math.abs(hit.score - exact)).toBeLessThan(0.02);
        if (exact >= fourth - 1e-6) found += 1;
      }
    }
    return found / 80;
  }

  it('searches a large agent through the search graph the build stored beside its table', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'agent-runtime-graph-'));
    const ann = await hostedIndexFor(many, annOptions(), localIndexFolder(folder));
    expect(await readdir(folder)).toEqual(
      expect.arrayContaining([
        'chunks.lance',
        'graph.usearch',
        'passages.jsonl',
        'passages.offsets',
      ]),
    );
    // The graph is memory-mapped from its file; the agent holds only the passages' offsets.
    expect(ann.memoryBytes()).toBe(8 * (many.length + 1));
    const [hit] = await ann.search('order 17 customer c17 city t17 colour amber item p17', 1);
    expect(hit!.chunk).toMatchObject(many[17]!);
    expect(await recallAt4(ann)).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it('still searches builds made before graphs through their LanceDB HNSW index', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'agent-runtime-lance-hnsw-'));
    const location = localIndexFolder(folder);
    const { embedder, info } = await writtenIndex(location);
    for (const name of ['graph.usearch', 'passages.jsonl', 'passages.offsets']) {
      await rm(path.join(folder, name));
    }
    // What builds recorded before graphs: the table's own HNSW index, no `graph`.
    const table = await (await lancedb.connect(folder)).openTable('chunks');
    await table.createIndex('vector', {
      config: lancedb.Index.hnswSq({
        distanceType: 'dot',
        numPartitions: 1,
        m: 16,
        efConstruction: 100,
      }),
    });
    table.close();
    const legacy = await openHostedIndex(location, { ...info, graph: undefined }, embedder);
    expect(await recallAt4(legacy)).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it('keeps a shared graph open until the last index holding it is collected', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'agent-runtime-graph-shared-'));
    const location = localIndexFolder(folder);
    const { embedder, info } = await writtenIndex(location);
    const graph = path.join(folder, 'graph.usearch');
    const passagesOpen = async () =>
      (await openFiles()).filter((file) => file.startsWith(path.join(folder, 'passages.jsonl')))
        .length;
    // A preview and a published agent of one build, say: one graph open in the search thread.
    const preview = await openHostedIndex(location, info, embedder);
    const published = await openHostedIndex(location, info, embedder);
    expect(graphSearchThread().holdersOf(graph)).toBe(2);
    expect(await passagesOpen()).toBe(1);

    // What the FinalizationRegistry does when the preview's index is collected. The graph stays
    // open: with its passages file gone from the folder, only the open handle can still read it.
    await rm(path.join(folder, 'passages.jsonl'));
    graphSearchThread().release(graph);
    expect(await published.search('order 17 customer c17 city t17', 1)).toHaveLength(1);
    expect(await passagesOpen()).toBe(1);

    // The last holder gone, the thread closes the graph and its passages file.
    graphSearchThread().release(graph);
    expect(graphSearchThread().holdersOf(graph)).toBe(0);
    for (let i = 0; i < 100 && (await passagesOpen()) > 0; i += 1) await delay(10);
    expect(await passagesOpen()).toBe(0);
    expect(preview.size).toBe(published.size);
  }, 60_000);

  it('says to build again when a graph file is missing', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'agent-runtime-graph-missing-'));
    const location = localIndexFolder(folder);
    const { embedder, info } = await writtenIndex(location);
    await rm(path.join(folder, 'passages.offsets'));
    await expect(openHostedIndex(location, info, embedder)).rejects.toThrow(
      'This build’s search index is incomplete. Build the agent again.',
    );
  }, 60_000);

  it('says to build again when the graph file is damaged, and searches nothing from it', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'agent-runtime-graph-damaged-'));
    const location = localIndexFolder(folder);
    const { embedder, info } = await writtenIndex(location);
    await writeFile(path.join(folder, 'graph.usearch'), 'not a graph');
    await expect(openHostedIndex(location, info, embedder)).rejects.toThrow(
      'This build’s search index is incomplete. Build the agent again.',
    );
  }, 60_000);

  async function writtenIndex(location: HostedIndexLocation) {
    const embedder = await embedderFor('text-embedding-3-small', {
      openai: { apiKey: 'sk-ann-test', baseUrl: server.baseUrls.openai },
      cacheDir,
    });
    const { info } = await writtenSegment(location, many, 'text-embedding-3-small', embedder);
    expect(info).toMatchObject({ ann: true, graph: true, chunks: many.length });
    // Opened as a one-table index, the way builds made before segments are.
    return { embedder, info: { ...info, segments: undefined } };
  }

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

/** The files this process (its threads included) has open. */
async function openFiles(): Promise<string[]> {
  const fds = await readdir('/proc/self/fd');
  return Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
}
