import type { THostedIndex, THostedSegment } from '@agentloom/contracts';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embedderFor, type Embedder } from './embedders';
import { chunkHash, localIndexFolder, type SegmentChunk } from './hosted-index';
import { writeSegment } from './hosted-index-build';
import type { Hit } from './retrieval';
import { openSegmentCount, openSegmentedIndex, readSegmentChunks } from './segments';
import { startLlmTestServer, testEmbedding, type LlmTestServer } from './testing';

const bagOfWordsVector = (text: string) => Float32Array.from(testEmbedding(text, 256));

const row = (key: string, text: string): SegmentChunk => ({
  id: `parts/${key}`,
  key,
  hash: chunkHash(text),
  text,
  source: 'parts',
  ref: `id=${key}`,
});

describe('segmented hosted indexes', () => {
  let server: LlmTestServer;
  let root: string;
  let embedder: Embedder;

  beforeAll(async () => {
    server = await startLlmTestServer();
    root = await mkdtemp(path.join(tmpdir(), 'agent-runtime-segments-'));
    embedder = await embedderFor('text-embedding-3-small', {
      openai: { apiKey: 'sk-segments', baseUrl: server.baseUrls.openai },
      cacheDir: root,
    });
  });

  afterAll(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  /** Texts the stand-in embedded since the last call. */
  function embeddedTexts(): string[] {
    const texts = server.requests
      .filter((request) => request.path === '/v1/embeddings')
      .flatMap((request) => (request.body as { input: string[] }).input);
    server.requests.length = 0;
    return texts;
  }

  async function segment(
    sourceId: string,
    role: 'base' | 'delta',
    chunks: SegmentChunk[],
    options: { removed?: string[]; reuse?: (hash: string) => Float32Array | undefined } = {},
  ) {
    const location = localIndexFolder(path.join(root, randomUUID()));
    const written = await writeSegment({
      location,
      model: 'text-embedding-3-small',
      embedder,
      role,
      chunks: [chunks],
      ...options,
    });
    const info: THostedSegment = {
      id: randomUUID(),
      source_id: sourceId,
      role,
      chunks: written.info.chunks,
      removed: written.info.removed,
      graph: written.info.graph,
    };
    return { location, segment: info, written };
  }

  const indexOf = (segments: { segment: THostedSegment }[]): THostedIndex => ({
    engine: 'lancedb',
    mode: 'embeddings',
    embedding_model: 'text-embedding-3-small',
    dimensions: 1536,
    chunks: segments.reduce((sum, { segment }) => sum + segment.chunks, 0),
    ann: false,
    segments: segments.map(({ segment }) => segment),
  });

  it('answers from a delta on top of its base: replaced and removed rows are never returned', async () => {
    embeddedTexts();
    const parts = randomUUID();
    const base = await segment(parts, 'base', [
      row('1', 'part 1 sprocket colour red price 10'),
      row('2', 'part 2 gear colour blue price 20'),
      row('3', 'part 3 chain colour green price 30'),
    ]);
    expect(embeddedTexts()).toHaveLength(3);
    // A refresh: row 2's price changed, row 3 was deleted, row 4 is new.
    const delta = await segment(
      parts,
      'delta',
      [row('2', 'part 2 gear colour blue price 25'), row('4', 'part 4 belt colour black price 40')],
      { removed: ['2', '3'] },
    );
    expect(embeddedTexts()).toEqual([
      'part 2 gear colour blue price 25',
      'part 4 belt colour black price 40',
    ]);
    expect(delta.written.info).toMatchObject({ role: 'delta', chunks: 2, removed: 2 });

    const index = await openSegmentedIndex(indexOf([base, delta]), [base, delta], embedder);
    const hits = await index.search('part 2 gear colour blue price', 4);
    const texts = hits.map((hit) => hit.chunk.text);
    expect(texts).toContain('part 2 gear colour blue price 25');
    expect(texts).not.toContain('part 2 gear colour blue price 20');
    expect(texts).not.toContain('part 3 chain colour green price 30');
    expect(texts).toEqual(expect.arrayContaining(['part 1 sprocket colour red price 10']));
    // A question costs one query embedding, however many segments are searched.
    expect(embeddedTexts()).toEqual(['part 2 gear colour blue price']);

    // The delta's removals apply to its own source only.
    const other = await segment(randomUUID(), 'base', [row('3', 'part 3 chain colour green')]);
    const both = await openSegmentedIndex(
      indexOf([base, delta, other]),
      [base, delta, other],
      embedder,
    );
    const found = await both.search('part 3 chain colour green', 1);
    expect(found[0]?.chunk.text).toBe('part 3 chain colour green');
  });

  it('embeds only texts without a vector of this model, reusing the rest', async () => {
    const source = randomUUID();
    const first = await segment(source, 'base', [
      row('a', 'alpha passage'),
      row('b', 'beta passage'),
    ]);
    embeddedTexts();
    const known = new Map<string, Float32Array>();
    for await (const batch of readSegmentChunks(first.location, { vectors: true })) {
      batch.chunks.forEach((chunk, i) => known.set(chunk.hash, batch.vectors![i]!));
    }
    const second = await segment(
      source,
      'base',
      [row('a', 'alpha passage'), row('b', 'beta passage'), row('c', 'gamma passage')],
      { reuse: (hash) => known.get(hash) },
    );
    expect(embeddedTexts()).toEqual(['gamma passage']);
    expect(second.written).toMatchObject({ embedded: 1, reused: 2 });
    const index = await openSegmentedIndex(indexOf([second]), [second], embedder);
    expect((await index.search('alpha passage', 1))[0]?.chunk.text).toBe('alpha passage');
  });

  it('finds a row by its rare words among 120,000 where search by meaning loses it (hybrid, by default)', async () => {
    // 120,000 chunks phrased like the question ("which city placed the bulk order …") and one
    // order row that answers it with a product name no other chunk holds. By meaning (a
    // bag-of-words vector, as the stand-in embeds) every look-alike is closer to the question
    // than the row: the row is thousands of places down. By words, "Sprocket" and "Max" are the
    // rarest words of the question, so the row comes first; fused, it stays in the top few.
    const rows = 120_000;
    const needle = 73_577;
    const text = (n: number) =>
      n === needle
        ? `Order ${n}: Sprocket Max ×40, shipped to Lisbon on 3 March, invoice INV-${n}.`
        : `Which city placed the bulk order ${n}? The bulk order ${n} was placed by a city.`;
    const bagOfWords: Embedder = {
      model: 'text-embedding-3-small',
      dimensions: 256,
      embedPassages: (texts) => Promise.resolve(texts.map(bagOfWordsVector)),
      embedQuery: (question) => Promise.resolve(bagOfWordsVector(question)),
    };
    function* chunks() {
      for (let start = 0; start < rows; start += 5000) {
        yield Array.from({ length: 5000 }, (_, i) => row(String(start + i), text(start + i)));
      }
    }
    const location = localIndexFolder(path.join(root, randomUUID()));
    const written = await writeSegment({
      location,
      model: 'text-embedding-3-small',
      embedder: bagOfWords,
      role: 'base',
      chunks: chunks(),
    });
    expect(written.info).toMatchObject({ graph: true, chunks: rows });
    const segment: THostedSegment = {
      id: randomUUID(),
      source_id: randomUUID(),
      role: 'base',
      chunks: rows,
      removed: 0,
      graph: true,
    };
    const info = indexOf([{ segment }]);
    const question = 'Which city placed the Sprocket Max bulk order?';
    const rankIn = async (search: 'meaning' | 'words' | 'both') => {
      const index = await openSegmentedIndex(info, [{ segment, location }], bagOfWords, search);
      const hits = await index.search(question, 4);
      expect(hits).toHaveLength(4);
      return {
        hits,
        rank: hits.findIndex((hit) => (hit.chunk as SegmentChunk).key === String(needle)),
      };
    };
    expect((await rankIn('meaning')).rank).toBe(-1);
    const words = await rankIn('words');
    expect(words.rank).toBe(0);
    // Found by words, the passages are the rows as written, read back whole from the graph's file.
    const asWritten = (hit: Hit) => {
      const { key } = hit.chunk as SegmentChunk;
      return row(key, text(Number(key)));
    };
    expect(words.hits.map((hit) => hit.chunk)).toEqual(words.hits.map(asWritten));
    const both = await rankIn('both');
    expect(both.rank).toBeGreaterThanOrEqual(0);
    expect(both.rank).toBeLessThan(2);
    expect(both.hits[both.rank]).toMatchObject({ found: expect.stringMatching(/words|both/) });
    expect(both.hits[both.rank]!.chunk.text).toContain('Lisbon');
  }, 600_000);

  it('opens a segment once per process for every build that lists it', async () => {
    const shared = await segment(randomUUID(), 'base', [row('x', 'shared passage')]);
    const added = await segment(randomUUID(), 'base', [row('y', 'new passage')]);
    const before = openSegmentCount();
    const older = await openSegmentedIndex(indexOf([shared]), [shared], embedder);
    const newer = await openSegmentedIndex(indexOf([shared, added]), [shared, added], embedder);
    expect(openSegmentCount() - before).toBe(2);
    expect((await newer.search('new passage', 1))[0]?.chunk.text).toBe('new passage');
    expect((await older.search('new passage', 1))[0]?.chunk.text).toBe('shared passage');
  });
});
