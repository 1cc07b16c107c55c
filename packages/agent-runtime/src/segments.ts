import type { THostedIndex, THostedSegment } from '@agentloom/contracts';
import { readFile } from 'node:fs/promises';
import type { Chunk } from './chunks';
import type { Embedder } from './embedders';
import { GraphIndex } from './hosted-graph';
import {
  chunkOf,
  connection,
  REMOVED_FILE,
  TABLE,
  type HostedIndexLocation,
  type SegmentChunk,
  type StoredRow,
} from './hosted-index';
import { DenseIndex, tokenize, type Hit, type RetrievalIndex } from './retrieval';
import { WordIndex } from './word-index';
import { unitVector } from './vectors';

/**
 * An agent whose knowledge is several sources answers from a list of segments: each source's
 * base (all its chunks when it was last read whole) and the deltas later refreshes wrote on top
 * (the chunks that changed, and the keys of the earlier chunks they replace or remove). A segment
 * is written once and shared by every build that lists it, so a change writes only what changed,
 * and a process that loads a new build of an agent reuses the segments it already holds open
 * (`openSegment` keeps one copy of each per process while any loaded agent uses it). A question
 * is embedded once and every segment searched with the vector; the hits of chunks a later delta
 * replaced are dropped, and the best of the rest are the answer's passages.
 */

/** The columns a segment's chunks are read back with (search and the builder's chain reads). */
export const SEGMENT_COLUMNS = [
  'position',
  'id',
  'key',
  'hash',
  'text',
  'source',
  'page',
  'row',
  'ref',
  'url',
  'section',
] as const;

/** A chunk read from a segment: its key within the source rides along for delta filtering. */
type KeyedChunk = SegmentChunk;

interface OpenSegment {
  readonly size: number;
  /** The keys of earlier chunks of its source this segment replaces or removes (deltas). */
  readonly removed: readonly string[];
  /** The k chunks nearest to a unit vector (none for a full-text-only segment). */
  byMeaning(vector: Float32Array, k: number): Promise<Hit[]>;
  /** The k chunks whose words best match the question (BM25). */
  byWords(text: string, k: number): Promise<Hit[]>;
  memoryBytes(): number;
}

/**
 * How an agent searches its passages: by meaning (the vectors), by words (a full-text index
 * beside them), or both (the default), the two ranked lists fused.
 */
export type SearchMode = 'meaning' | 'words' | 'both';

/**
 * Reciprocal rank fusion's constant: a passage's fused score is the sum of 1/(RRF_K + rank) over
 * the lists that found it (Cormack, Clarke and Büttcher, 2009). With 60, the first of either list
 * scores as much as the first of the other, so a passage that only the words find — a product
 * code, a name, a number — is never pushed out of the top few by passages only close in meaning.
 */
export const RRF_K = 60;

/** One segment of a build's index, and where it lies. */
export interface SegmentLocation {
  segment: THostedSegment;
  location: HostedIndexLocation;
}

/**
 * The index of a build with knowledge sources: its segments opened (or taken from those this
 * process already holds), with each one's replaced chunks worked out. `embedder` embeds the
 * question; keyword indexes need none.
 */
export async function openSegmentedIndex(
  info: THostedIndex,
  segments: SegmentLocation[],
  embedder?: Embedder,
  search: SearchMode = 'both',
): Promise<RetrievalIndex> {
  if (info.mode === 'embeddings' && !embedder) {
    throw new Error('An embeddings index needs its embedding model to search.');
  }
  const dimensions = embedder?.dimensions ?? info.dimensions;
  const opened = await Promise.all(
    segments.map(({ segment, location }) => openSegment(segment, location, info.mode, dimensions)),
  );
  // A chunk is dead when a later segment of its own source removes its key.
  const dead = segments.map(() => new Set<string>());
  segments.forEach(({ segment }, later) => {
    const removed = opened[later]!.removed;
    if (removed.length === 0) return;
    segments.forEach((earlier, index) => {
      if (index < later && earlier.segment.source_id === segment.source_id) {
        for (const key of removed) dead[index]!.add(key);
      }
    });
  });
  return new SegmentedIndex(
    opened.map((segment, index) => ({ segment, dead: dead[index]! })),
    info,
    // A full-text-only index has no meaning to search by.
    info.mode === 'keyword' ? 'words' : search,
    embedder,
  );
}

class SegmentedIndex implements RetrievalIndex {
  readonly mode: 'embeddings' | 'keyword';
  readonly size: number;
  readonly note?: string;

  constructor(
    private readonly segments: { segment: OpenSegment; dead: Set<string> }[],
    info: THostedIndex,
    readonly searchMode: SearchMode,
    private readonly embedder?: Embedder,
  ) {
    this.mode = info.mode;
    this.size = info.chunks;
    this.note = info.note;
  }

  async search(query: string, k: number, signal?: AbortSignal): Promise<Hit[]> {
    if (k <= 0 || this.size === 0) return [];
    const words = this.searchMode !== 'meaning' && tokenize(query).length > 0;
    let vector: Float32Array | null = null;
    if (this.searchMode !== 'words') {
      const embedder = this.embedder!;
      vector = unitVector(await embedder.embedQuery(query, signal), embedder.dimensions);
    }
    // Each list asks for more than k, so the fused top k draws on both lists' depth.
    const depth = this.searchMode === 'both' ? k * 2 : k;
    const [byMeaning, byWords] = await Promise.all([
      vector ? this.ranked((segment, n) => segment.byMeaning(vector, n), depth) : [],
      words ? this.ranked((segment, n) => segment.byWords(query, n), depth) : [],
    ]);
    if (this.searchMode === 'meaning') return found(byMeaning, 'meaning').slice(0, k);
    if (this.searchMode === 'words') return found(byWords, 'words').slice(0, k);
    return fused(byMeaning, byWords).slice(0, k);
  }

  /** One list over every segment, best first; chunks a later delta replaced are dropped. */
  private async ranked(
    search: (segment: OpenSegment, k: number) => Promise<Hit[]>,
    k: number,
  ): Promise<Hit[]> {
    const lists = await Promise.all(
      this.segments.map(async ({ segment, dead }) => {
        // Ask for enough more that the live ones still fill k when some were replaced.
        const hits = await search(segment, k + Math.min(dead.size, 64));
        return dead.size === 0
          ? hits
          : hits.filter((hit) => !dead.has((hit.chunk as KeyedChunk).key));
      }),
    );
    return lists
      .flat()
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }

  memoryBytes(): number {
    let bytes = 0;
    for (const { segment, dead } of this.segments) bytes += segment.memoryBytes() + dead.size * 64;
    return bytes;
  }
}

/** One list's hits, marked with the search that found them. */
function found(hits: Hit[], by: 'meaning' | 'words'): Hit[] {
  return hits.map((hit) =>
    by === 'meaning'
      ? { ...hit, found: 'meaning', similarity: hit.score }
      : { ...hit, found: 'words', wordScore: hit.score },
  );
}

/**
 * The two lists fused by reciprocal rank: each passage scores 1/(RRF_K + rank) in each list that
 * found it. A hit keeps its similarity (meaning) and its word score, and says who found it.
 */
function fused(byMeaning: Hit[], byWords: Hit[]): Hit[] {
  const merged = new Map<string, Hit & { fused: number }>();
  const add = (hits: Hit[], by: 'meaning' | 'words') => {
    hits.forEach((hit, rank) => {
      const id = hit.chunk.id;
      const share = 1 / (RRF_K + rank + 1);
      const known = merged.get(id);
      const scored = by === 'meaning' ? { similarity: hit.score } : { wordScore: hit.score };
      if (known) {
        merged.set(id, { ...known, ...scored, found: 'both', fused: known.fused + share });
      } else {
        merged.set(id, { ...hit, ...scored, found: by, fused: share });
      }
    });
  };
  add(byMeaning, 'meaning');
  add(byWords, 'words');
  return [...merged.values()]
    .sort((a, b) => b.fused - a.fused)
    .map(({ fused: score, ...hit }) => ({ ...hit, score }));
}

/**
 * The segments this process holds open, by id: loading another build of the same agent (or
 * another agent sharing none) reuses them. A segment stays while some loaded agent holds it;
 * once none does it is collected, and opened again by the next load that needs it.
 */
const held = new Map<string, WeakRef<OpenSegment>>();
const opening = new Map<string, Promise<OpenSegment>>();
const forgetWhenCollected = new FinalizationRegistry<string>((id) => {
  if (!held.get(id)?.deref()) held.delete(id);
});

/** How many segments this process holds open now (tests and benches). */
export function openSegmentCount(): number {
  let count = 0;
  for (const ref of held.values()) if (ref.deref()) count += 1;
  return count;
}

function openSegment(
  segment: THostedSegment,
  location: HostedIndexLocation,
  mode: 'embeddings' | 'keyword',
  dimensions: number,
): Promise<OpenSegment> {
  const cacheKey = `${segment.id}:${mode}`;
  const found = held.get(cacheKey)?.deref();
  if (found) return Promise.resolve(found);
  let pending = opening.get(cacheKey);
  if (!pending) {
    pending = readSegment(segment, location, mode, dimensions).then(
      (open) => {
        held.set(cacheKey, new WeakRef(open));
        forgetWhenCollected.register(open, cacheKey);
        opening.delete(cacheKey);
        return open;
      },
      (error: unknown) => {
        opening.delete(cacheKey);
        throw error;
      },
    );
    opening.set(cacheKey, pending);
  }
  return pending;
}

async function readSegment(
  segment: THostedSegment,
  location: HostedIndexLocation,
  mode: 'embeddings' | 'keyword',
  dimensions: number,
): Promise<OpenSegment> {
  const removed = segment.removed > 0 ? await removedKeys(location) : [];
  if (segment.chunks === 0) return emptySegment(removed);
  if (mode === 'keyword') return keywordSegment(segment, location, removed);
  if (segment.graph) {
    const graph = await GraphIndex.open(location, segment.chunks, { dimensions });
    // Large segments' words are searched in LanceDB's full-text index, written with them.
    const words = await keywordSegment(segment, location, removed, (at) => graph.passages(at));
    return {
      size: segment.chunks,
      removed,
      byMeaning: (vector, k) => graph.searchVector(vector, k),
      byWords: (text, k) => words.byWords(text, k),
      memoryBytes: () => graph.memoryBytes(),
    };
  }
  const table = await (await connection(location)).openTable(TABLE);
  const rows = (await table
    .query()
    .select([...SEGMENT_COLUMNS, 'vector'])
    .toArray()) as StoredRow[];
  table.close();
  rows.sort((a, b) => a.position - b.position);
  const chunks = rows.map(keyedChunkOf);
  const dense = new DenseIndex(
    chunks,
    rows.map((row) => Float32Array.from(row.vector as ArrayLike<number>)),
  );
  // Small segments' words are indexed in memory beside their vectors (MiniSearch's BM25), made
  // on the first question by words.
  let words: WordIndex | null = null;
  return {
    size: dense.size,
    removed,
    byMeaning: (vector, k) => dense.searchVector(vector, k),
    byWords: (text, k) => {
      words ??= new WordIndex(chunks);
      return Promise.resolve(words.search(text, k));
    },
    memoryBytes: () => dense.memoryBytes() + (words?.memoryBytes() ?? 0),
  };
}

// Words searched in LanceDB's full-text index. With `passagesAt` (a segment with a graph) only
// positions and scores come from LanceDB, the passages from the graph's file: taking and decoding
// eleven columns there cost a third of a search's CPU (npm run bench:hosted).
async function keywordSegment(
  segment: THostedSegment,
  location: HostedIndexLocation,
  removed: string[],
  passagesAt?: (positions: number[]) => Promise<Chunk[]>,
): Promise<OpenSegment> {
  const table = await (await connection(location)).openTable(TABLE);
  const columns = passagesAt ? ['position', '_score'] : [...SEGMENT_COLUMNS, '_score'];
  return {
    size: segment.chunks,
    removed,
    byMeaning: none,
    async byWords(text, k) {
      const terms = tokenize(text);
      if (terms.length === 0) return [];
      const rows = (await table
        .search(terms.join(' '), 'fts')
        .limit(k)
        .select(columns)
        .toArray()
        // A segment written before segments had a full-text index answers by meaning only.
        .catch(() => [])) as StoredRow[];
      const chunks = passagesAt
        ? await passagesAt(rows.map((row) => row.position))
        : rows.map(keyedChunkOf);
      return rows.map((row, i) => ({ chunk: chunks[i]!, score: row._score ?? 0 }));
    },
    // LanceDB's full-text index lives in the process's shared, bounded cache.
    memoryBytes: () => 0,
  };
}

function emptySegment(removed: string[]): OpenSegment {
  return { size: 0, removed, byMeaning: none, byWords: none, memoryBytes: () => 0 };
}

const none = () => Promise.resolve([] as Hit[]);

async function removedKeys(location: HostedIndexLocation): Promise<string[]> {
  const file = await location.localPath(REMOVED_FILE);
  if (!file) throw new Error('This build’s index is incomplete. Build the agent again.');
  return JSON.parse(await readFile(file, 'utf8')) as string[];
}

function keyedChunkOf(row: StoredRow): KeyedChunk {
  return { ...chunkOf(row), key: row.key ?? row.id, hash: row.hash ?? '' };
}

/**
 * The chunks of a segment, in order, in batches, with their vectors when asked for (the builder
 * reads an earlier segment to compare a source's new content with it, or to carry its chunks
 * into a new base).
 */
export async function* readSegmentChunks(
  location: HostedIndexLocation,
  options: { vectors?: boolean; keysOnly?: boolean } = {},
): AsyncGenerator<{ chunks: SegmentChunk[]; vectors?: Float32Array[] }> {
  const table = await (await connection(location)).openTable(TABLE);
  try {
    // Comparing a source with its segments needs only each chunk's key and digest.
    const chunkColumns: readonly string[] = options.keysOnly
      ? ['position', 'id', 'key', 'hash', 'source']
      : SEGMENT_COLUMNS;
    const columns = options.vectors ? [...chunkColumns, 'vector'] : [...chunkColumns];
    // Record batches as LanceDB streams them: columns at a time, never the whole table.
    for await (const batch of table.query().select(columns)) {
      // Cell by cell (`get`): typed arrays of nullable columns would turn null into 0.
      const cells = chunkColumns.map((name) => [name, batch.getChild(name)] as const);
      const chunks: SegmentChunk[] = [];
      const vectors: Float32Array[] = [];
      for (let i = 0; i < batch.numRows; i += 1) {
        const row = Object.fromEntries(
          cells.map(([name, cell]) => [name, cell?.get(i) ?? null]),
        ) as unknown as StoredRow;
        chunks.push(keyedChunkOf({ ...row, text: row.text ?? '' }));
        if (options.vectors) {
          vectors.push(Float32Array.from(batch.getChild('vector')!.get(i) as ArrayLike<number>));
        }
      }
      yield options.vectors ? { chunks, vectors } : { chunks };
    }
  } finally {
    table.close();
  }
}

/** The keys a delta segment replaces or removes in earlier segments of its source. */
export function readRemovedKeys(location: HostedIndexLocation): Promise<string[]> {
  return removedKeys(location);
}
