import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as lancedb from './lancedb';
import {
  Field,
  FixedSizeList,
  Float32,
  Int32,
  makeData,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Utf8,
  vectorFromArray,
  type Data,
} from 'apache-arrow';
import type { THostedIndex } from '@agentloom/contracts';
import type { Chunk } from './chunks';
export { chunkHash, type SegmentChunk } from './segment-chunk';
import type { Embedder } from './embedders';
import { GraphIndex, GraphWriter, type GraphFiles } from './hosted-graph';
import type { SegmentChunk } from './segment-chunk';
import { DenseIndex, type Hit, type RetrievalIndex } from './retrieval';
import { unitVector } from './vectors';

/**
 * The hosted index of a build: its chunks, with their vectors, in a LanceDB table the builder
 * worker writes once and every gateway or runtime replica reads where it lies — a folder under
 * DATA_DIR, or the platform's S3 bucket. Nothing is embedded again when an agent is loaded; a
 * question costs one query embedding and one search: in memory for small agents, through the
 * build's search graph for large ones (hosted-graph.ts), in LanceDB's full-text index for
 * keyword ones. docs/hosted-index.md says why, and how the sizes below were chosen.
 */
export interface HostedIndexLocation extends GraphFiles {
  /** The folder (a path or s3://bucket/prefix) that holds the build's table. */
  uri: string;
  /** LanceDB's object-store settings (endpoint, region, keys) for s3:// locations. */
  storageOptions?: Record<string, string>;
}

/** A local folder as a hosted index's location (tests, benches, tools). */
export function localIndexFolder(folder: string): HostedIndexLocation {
  const file = (name: string) => path.join(folder, path.basename(name));
  return {
    uri: folder,
    putFile: async (name, source) => {
      await mkdir(folder, { recursive: true });
      await rename(source, file(name)).catch(async () => {
        await copyFile(source, file(name));
        await rm(source, { force: true });
      });
    },
    localPath: async (name) => ((await stat(file(name)).catch(() => null)) ? file(name) : null),
  };
}

export const TABLE = 'chunks';

/** A delta segment's file: the keys of earlier chunks of its source it replaces or removes. */
export const REMOVED_FILE = 'removed.json';

/**
 * Up to this many floats (rows × dimensions, 4 MB) an agent's vectors are read into memory once
 * and searched exactly: a fraction of a millisecond a question. Above it the build also writes a
 * search graph (hosted-graph.ts) that replicas memory-map.
 */
export const EXACT_SEARCH_MAX_FLOATS = 1_000_000;

/**
 * Builds recorded before search graphs have an HNSW index in LanceDB (8-bit vectors, one graph
 * per 32k chunks); they are still searched through it, candidate list 64.
 */
const LANCEDB_SEARCH_EF = 64;

/**
 * Bytes of vectors per LanceDB write: the native buffers a write grows stay with the process
 * (25 MB writes of 1536 numbers kept ~400 MB; 6 MB ones ~200 MB), so larger batches go in parts.
 */
const TABLE_WRITE_VECTOR_BYTES = 6 << 20;

function schemaOf(dimensions: number | null): Schema {
  const fields: Field[] = [
    new Field('position', new Int32(), false),
    new Field('id', new Utf8(), false),
    new Field('key', new Utf8(), false),
    new Field('hash', new Utf8(), false),
    new Field('text', new Utf8(), false),
    new Field('source', new Utf8(), false),
    new Field('page', new Int32(), true),
    new Field('row', new Int32(), true),
    new Field('ref', new Utf8(), true),
    new Field('url', new Utf8(), true),
    new Field('section', new Utf8(), true),
  ];
  if (dimensions !== null) {
    fields.push(
      new Field(
        'vector',
        new FixedSizeList(dimensions, new Field('item', new Float32(), true)),
        false,
      ),
    );
  }
  return new Schema(fields);
}

/**
 * The builder's side of a segment: chunks (and their vectors) go in batch by batch, then the
 * indexes. Every chunk goes into the table; once the vectors pass the exact-search size they also
 * go into a search graph, with the batches held until then.
 */
export class HostedIndexWriter {
  private rows = 0;
  private readonly schema: Schema;
  private graph: GraphWriter | null = null;
  private held: { chunks: SegmentChunk[]; vectors: Float32Array[] } = { chunks: [], vectors: [] };

  private constructor(
    private readonly location: HostedIndexLocation,
    private readonly table: lancedb.Table,
    private readonly dimensions: number | null,
  ) {
    this.schema = schemaOf(dimensions);
  }

  /**
   * A new, empty table at `location`; `dimensions` null for a keyword-only index. Replaces what
   * a build that crashed half-way left there, so a retried build starts clean.
   */
  static async create(
    location: HostedIndexLocation,
    dimensions: number | null,
  ): Promise<HostedIndexWriter> {
    const db = await lancedb.connect(location.uri, { storageOptions: location.storageOptions });
    const table = await db.createEmptyTable(TABLE, schemaOf(dimensions), { mode: 'overwrite' });
    return new HostedIndexWriter(location, table, dimensions);
  }

  async add(chunks: SegmentChunk[], vectors?: Float32Array[]): Promise<void> {
    if (chunks.length === 0) return;
    if ((this.dimensions !== null) !== (vectors !== undefined)) {
      throw new Error('Vectors must come with every batch of an embeddings index, and only then.');
    }
    const units = vectors?.map((vector) => unitVector(vector, this.dimensions!));
    const perRow = (this.dimensions ?? 0) * 4;
    const step = perRow
      ? Math.max(1, Math.floor(TABLE_WRITE_VECTOR_BYTES / perRow))
      : chunks.length;
    for (let start = 0; start < chunks.length; start += step) {
      const part = chunks.slice(start, start + step);
      await this.table.add(this.batchOf(part, units?.slice(start, start + step)));
      this.rows += part.length;
    }
    if (units) await this.addToGraph(chunks, units);
  }

  private async addToGraph(chunks: SegmentChunk[], vectors: Float32Array[]): Promise<void> {
    if (!this.graph) {
      this.held.chunks.push(...chunks);
      this.held.vectors.push(...vectors);
      if (this.rows * this.dimensions! <= EXACT_SEARCH_MAX_FLOATS) return;
      this.graph = await GraphWriter.create(this.dimensions!);
      ({ chunks, vectors } = this.held);
      this.held = { chunks: [], vectors: [] };
    }
    await this.graph.add(chunks, vectors);
  }

  /**
   * The batch as Arrow columns, the vectors one flat Float32Array: LanceDB takes it as it is,
   * where rows of JavaScript objects would be converted value by value on the event loop.
   */
  private batchOf(chunks: SegmentChunk[], vectors?: Float32Array[]): Table {
    const schema = this.schema;
    const n = chunks.length;
    const column = <T>(values: T[], type: Utf8 | Int32) => vectorFromArray(values, type).data[0]!;
    const text = (pick: (chunk: SegmentChunk) => string | null | undefined) =>
      column(
        chunks.map((chunk) => pick(chunk) ?? null),
        new Utf8(),
      );
    const int = (pick: (chunk: SegmentChunk, i: number) => number | null | undefined) =>
      column(
        chunks.map((chunk, i) => pick(chunk, i) ?? null),
        new Int32(),
      );
    const children: Data[] = [
      int((_, i) => this.rows + i),
      text((chunk) => chunk.id),
      text((chunk) => chunk.key),
      text((chunk) => chunk.hash),
      text((chunk) => chunk.text),
      text((chunk) => chunk.source),
      int((chunk) => chunk.page),
      int((chunk) => chunk.row),
      text((chunk) => chunk.ref),
      text((chunk) => chunk.url),
      text((chunk) => chunk.section),
    ];
    if (vectors && this.dimensions !== null) {
      const dimensions = this.dimensions;
      const flat = new Float32Array(n * dimensions);
      vectors.forEach((vector, i) => flat.set(vector, i * dimensions));
      const type = schema.fields.at(-1)!.type as FixedSizeList<Float32>;
      const values = makeData({ type: new Float32(), length: flat.length, data: flat });
      children.push(makeData({ type, length: n, nullCount: 0, child: values }));
    }
    const data = makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children });
    return new Table(schema, [new RecordBatch(schema, data)]);
  }

  /**
   * Builds what search needs: the graph above the exact-search size, full-text for keywords; a
   * delta also stores the keys of the earlier chunks it replaces or removes (`removed.json`).
   */
  async finish(removed: string[] = []): Promise<{ chunks: number; ann: boolean }> {
    // Words are searched in LanceDB's full-text index for keyword-only segments and for large
    // ones (small ones index their words in memory when loaded: word-index.ts).
    if (this.dimensions === null || this.graph !== null) {
      await this.table.createIndex('text', { config: lancedb.Index.fts() });
    }
    this.table.close();
    await this.graph?.finish(this.location);
    if (removed.length > 0) {
      const file = path.join(tmpdir(), `agentloom-removed-${randomUUID()}.json`);
      await writeFile(file, JSON.stringify(removed));
      await this.location.putFile(REMOVED_FILE, file);
    }
    return { chunks: this.rows, ann: this.graph !== null };
  }

  /** A failed build: the graph's local files go (the caller removes the table's folder). */
  async discard(): Promise<void> {
    this.table.close();
    await this.graph?.discard();
  }
}

/**
 * One LanceDB session per process: the HNSW graphs and file metadata it caches are shared by
 * every agent and bounded together (HOSTED_INDEX_CACHE_MB), least recently used first out. A
 * connection is only a handle on that session and a location: one is made per agent load and
 * goes with the agent when it is unloaded.
 */
let session: lancedb.Session | undefined;

export function configureHostedIndexCache(cacheBytes: number): void {
  session = new lancedb.Session(BigInt(cacheBytes), BigInt(Math.min(cacheBytes, 64 << 20)));
}

export function connection(location: HostedIndexLocation): Promise<lancedb.Connection> {
  session ??= new lancedb.Session(BigInt(256 << 20), BigInt(64 << 20));
  return lancedb.connect(location.uri, { storageOptions: location.storageOptions }, session);
}

const CHUNK_COLUMNS = ['position', 'id', 'text', 'source', 'page', 'row', 'ref'];

/**
 * The retrieval index of a built agent, as the build described it (`info`). Small agents' vectors
 * are read once and searched exactly in memory; larger ones are searched through their HNSW
 * index in LanceDB, which reads only what the graph visits. Keyword indexes use LanceDB's
 * full-text search. `embedder` embeds the question (not needed for keyword indexes).
 */
export async function openHostedIndex(
  location: HostedIndexLocation,
  info: THostedIndex,
  embedder?: Embedder,
): Promise<RetrievalIndex> {
  const table = await (await connection(location)).openTable(TABLE);
  if (info.mode === 'keyword') return new KeywordIndex(table, info);
  if (!embedder) throw new Error('An embeddings index needs its embedding model to search.');
  if (info.ann && info.graph) return GraphIndex.open(location, info.chunks, embedder);
  if (!info.ann) {
    const rows = (await table
      .query()
      .select([...CHUNK_COLUMNS, 'vector'])
      .toArray()) as StoredRow[];
    rows.sort((a, b) => a.position - b.position);
    table.close();
    return new DenseIndex(
      rows.map(chunkOf),
      rows.map((row) => Float32Array.from(row.vector as ArrayLike<number>)),
      embedder,
    );
  }
  return new LanceAnnIndex(table, info, embedder);
}

export interface StoredRow {
  position: number;
  id: string;
  key?: string;
  hash?: string;
  url?: string | null;
  section?: string | null;
  text: string;
  source: string;
  page: number | null;
  row: number | null;
  ref: string | null;
  vector?: unknown;
  _distance?: number;
  _score?: number;
}

export function chunkOf(row: StoredRow): Chunk {
  const chunk: Chunk = { id: row.id, text: row.text, source: row.source };
  if (row.page !== null && row.page !== undefined) chunk.page = row.page;
  if (row.row !== null && row.row !== undefined) chunk.row = row.row;
  if (row.ref !== null && row.ref !== undefined) chunk.ref = row.ref;
  if (row.url !== null && row.url !== undefined) chunk.url = row.url;
  if (row.section !== null && row.section !== undefined) chunk.section = row.section;
  return chunk;
}

/** Approximate nearest neighbours through LanceDB's HNSW index: builds made before graphs. */
class LanceAnnIndex implements RetrievalIndex {
  readonly mode = 'embeddings';
  readonly size: number;

  constructor(
    private readonly table: lancedb.Table,
    info: THostedIndex,
    private readonly embedder: Embedder,
  ) {
    this.size = info.chunks;
  }

  async search(query: string, k: number, signal?: AbortSignal): Promise<Hit[]> {
    if (k <= 0 || this.size === 0) return [];
    const vector = unitVector(
      await this.embedder.embedQuery(query, signal),
      this.embedder.dimensions,
    );
    const rows = (await this.table
      .vectorSearch(vector)
      .distanceType('dot')
      .ef(LANCEDB_SEARCH_EF)
      // The graph ranks by 8-bit vectors; the best 2k are ranked again by their full vectors,
      // so scores (and ties) are the exact cosine similarities.
      .refineFactor(2)
      .limit(k)
      .select([...CHUNK_COLUMNS, '_distance'])
      .toArray()) as StoredRow[];
    // Refined by full vectors, LanceDB's dot distance is 1 − dot product: the cosine similarity.
    return rows.map((row) => ({ chunk: chunkOf(row), score: 1 - (row._distance ?? 1) }));
  }

  /** The HNSW graph lives in the process's shared, bounded LanceDB cache, not in this agent. */
  memoryBytes(): number {
    return 0;
  }
}

/** Full-text (BM25) search in LanceDB: agents whose embedding model could not be used. */
class KeywordIndex implements RetrievalIndex {
  readonly mode = 'keyword';
  readonly size: number;
  readonly note?: string;

  constructor(
    private readonly table: lancedb.Table,
    info: THostedIndex,
  ) {
    this.size = info.chunks;
    this.note = info.note;
  }

  async search(query: string, k: number): Promise<Hit[]> {
    const terms = query.toLowerCase().match(/[\p{L}\p{N}]+/gu);
    if (k <= 0 || !terms) return [];
    const rows = (await this.table
      .search(terms.join(' '), 'fts')
      .limit(k)
      .select([...CHUNK_COLUMNS, '_score'])
      .toArray()) as StoredRow[];
    return rows.map((row) => ({ chunk: chunkOf(row), score: row._score ?? 0 }));
  }

  memoryBytes(): number {
    return 0;
  }
}
