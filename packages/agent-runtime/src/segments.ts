import type { THostedIndex, THostedSegment } from '@agentloom/contracts';
import { readFile } from 'node:fs/promises';
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
  search(query: { vector: Float32Array } | { text: string }, k: number): Promise<Hit[]>;
  memoryBytes(): number;
}

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
    private readonly embedder?: Embedder,
  ) {
    this.mode = info.mode;
    this.size = info.chunks;
    this.note = info.note;
  }

  async search(query: string, k: number, signal?: AbortSignal): Promise<Hit[]> {
    if (k <= 0 || this.size === 0) return [];
    let asked: { vector: Float32Array } | { text: string };
    if (this.mode === 'keyword') {
      if (tokenize(query).length === 0) return [];
      asked = { text: query };
    } else {
      const embedder = this.embedder!;
      asked = {
        vector: unitVector(await embedder.embedQuery(query, signal), embedder.dimensions),
      };
    }
    const found = await Promise.all(
      this.segments.map(async ({ segment, dead }) => {
        // Ask for enough more that the live ones still fill k when some were replaced.
        const extra = Math.min(dead.size, 64);
        const hits = await segment.search(asked, k + extra);
        return dead.size === 0
          ? hits
          : hits.filter((hit) => !dead.has((hit.chunk as KeyedChunk).key));
      }),
    );
    return found
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
    return {
      size: segment.chunks,
      removed,
      search: (query, k) => ('vector' in query ? graph.searchVector(query.vector, k) : none()),
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
  const dense = new DenseIndex(
    rows.map(keyedChunkOf),
    rows.map((row) => Float32Array.from(row.vector as ArrayLike<number>)),
  );
  return {
    size: dense.size,
    removed,
    search: (query, k) => ('vector' in query ? dense.searchVector(query.vector, k) : none()),
    memoryBytes: () => dense.memoryBytes(),
  };
}

async function keywordSegment(
  segment: THostedSegment,
  location: HostedIndexLocation,
  removed: string[],
): Promise<OpenSegment> {
  const table = await (await connection(location)).openTable(TABLE);
  return {
    size: segment.chunks,
    removed,
    async search(query, k) {
      if (!('text' in query)) return [];
      const terms = tokenize(query.text);
      if (terms.length === 0) return [];
      const rows = (await table
        .search(terms.join(' '), 'fts')
        .limit(k)
        .select([...SEGMENT_COLUMNS, '_score'])
        .toArray()) as StoredRow[];
      return rows.map((row) => ({ chunk: keyedChunkOf(row), score: row._score ?? 0 }));
    },
    // LanceDB's full-text index lives in the process's shared, bounded cache.
    memoryBytes: () => 0,
  };
}

function emptySegment(removed: string[]): OpenSegment {
  return { size: 0, removed, search: none, memoryBytes: () => 0 };
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
