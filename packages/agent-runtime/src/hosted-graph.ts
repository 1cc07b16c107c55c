import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MetricKind, ScalarKind } from 'usearch';
import type { Chunk } from './chunks';
import {
  GraphBuildThread,
  type BatchBuffers,
  graphSearchThread,
  type GraphSettings,
  type GraphSource,
} from './graph-threads';
import type { Embedder } from './embedders';
import type { Hit, RetrievalIndex } from './retrieval';
import { unitVector } from './vectors';

/**
 * The search graph of a large agent: a USearch HNSW index over its vectors, and its passages in a
 * file of JSON lines with their byte offsets, written by the build beside its LanceDB table.
 * Replicas memory-map the graph (the operating system shares its pages between processes and
 * loads only what searches visit) and read the four passages a question needs from the file: a
 * question costs well under a millisecond of CPU here, where a LanceDB vector query costs 5–9
 * (docs/hosted-index.md).
 */
export interface GraphFiles {
  /** Stores a local file beside the build's table as `name` (takes the file). */
  putFile(name: string, file: string): Promise<void>;
  /** A local copy of the file `name` beside the table (a cached download from S3), or null. */
  localPath(name: string): Promise<string | null>;
}

const INCOMPLETE = 'This build’s search index is incomplete. Build the agent again.';

const FILES = {
  graph: 'graph.usearch',
  passages: 'passages.jsonl',
  offsets: 'passages.offsets',
} as const;

/**
 * HNSW over 8-bit scalar-quantised vectors: 16 links a node, 128 candidates while adding, 160
 * while searching. Cosine, not inner product: USearch scales 8-bit vectors for cosine only (its
 * 8-bit inner product of unit vectors ranked wrongly), and of unit vectors the two are the same.
 * Measured on the bench's 122,548 chunks of 1536 numbers, two threads inserting, quiet 2-core
 * machine: 52 s to add them all, recall@4 0.963 at about 1 ms a question. 64 candidates while
 * adding took 32 s and recalled 0.960 (searching with 160) or 0.988 (with 256), but with 256 a
 * whole bench:hosted run answered the 122k agent at 132 answers/s instead of 270–300, at 9.3 ms
 * of CPU a question instead of 4: kept as it is. npm run bench:hosted prints the recall it gives.
 */
function graphSettings(dimensions: number) {
  return {
    dimensions,
    metric: MetricKind.Cos,
    quantization: ScalarKind.I8,
    connectivity: 16,
    expansion_add: 128,
    expansion_search: 160,
    multi: false,
  } satisfies GraphSettings;
}

/**
 * The build's side: passages and unit vectors in, row by row in order; then the three files. The
 * graph grows on a thread of its own (graph-threads.ts) while the build embeds its next batch.
 */
export class GraphWriter {
  private readonly graph: GraphBuildThread;
  /** The passages file while it is written; null once closed. */
  private passages: number | null;
  /** Byte offset of each passage, and of the end: passage i is bytes [offsets[i], offsets[i+1]). */
  private offsets: number[] = [0];
  /** The batch the thread is inserting: at most one waits there, bounding the vectors held. */
  private inserting: Promise<void> = Promise.resolve();
  /** The last batch's buffers, back from the thread, for the next batch to fill. */
  private spare: BatchBuffers | null = null;

  private constructor(
    private readonly folder: string,
    private readonly dimensions: number,
  ) {
    this.graph = new GraphBuildThread(graphSettings(dimensions));
    this.passages = openSync(path.join(folder, FILES.passages), 'w');
  }

  static async create(dimensions: number): Promise<GraphWriter> {
    return new GraphWriter(await mkdtemp(path.join(tmpdir(), 'agentloom-graph-')), dimensions);
  }

  get rows(): number {
    return this.offsets.length - 1;
  }

  /**
   * The next rows: their chunks and unit vectors (of `dimensions` numbers each). Resolves once
   * the previous batch is in the graph and this one handed to the thread; a failed insertion
   * rejects the next call (or `finish`).
   */
  async add(chunks: Chunk[], vectors: Float32Array[]): Promise<void> {
    const first = this.rows;
    const { keys, flat } = this.buffersFor(chunks.length);
    chunks.forEach((chunk, i) => {
      keys[i] = BigInt(first + i);
      flat.set(vectors[i]!, i * this.dimensions);
      const line = Buffer.from(`${JSON.stringify(chunk)}\n`);
      writeSync(this.passages!, line);
      this.offsets.push(this.offsets.at(-1)! + line.length);
    });
    await this.inserting;
    this.inserting = this.graph.add(keys, flat).then((returned) => {
      this.spare = returned;
    });
    // Seen by the next add() or finish(); until then not an unhandled rejection.
    this.inserting.catch(() => undefined);
  }

  /**
   * Buffers for a batch of `rows`: the ones the thread handed back when they fit (batches are
   * all one size but the last), so a build holds two batches' vectors here, not every batch's
   * until a collection.
   */
  private buffersFor(rows: number): {
    keys: BigUint64Array<ArrayBuffer>;
    flat: Float32Array<ArrayBuffer>;
  } {
    const spare = this.spare;
    this.spare = null;
    if (spare && spare.keys.length === rows) return { keys: spare.keys, flat: spare.vectors };
    return { keys: new BigUint64Array(rows), flat: new Float32Array(rows * this.dimensions) };
  }

  /** Writes the graph and the offsets, and stores all three files beside the table. */
  async finish(files: GraphFiles): Promise<void> {
    try {
      this.closePassages();
      await this.inserting;
      await this.graph.save(path.join(this.folder, FILES.graph));
      writeFileSync(path.join(this.folder, FILES.offsets), new Float64Array(this.offsets));
      for (const name of Object.values(FILES)) {
        await files.putFile(name, path.join(this.folder, name));
      }
    } finally {
      await this.discard();
    }
  }

  /** Stops the thread and removes the local files (after `finish`, or when the build failed). */
  async discard(): Promise<void> {
    this.closePassages();
    await this.graph.stop();
    await rm(this.folder, { recursive: true, force: true });
  }

  /**
   * Closes the passages file once: closing a descriptor twice could close another file (or a
   * thread's event loop) that was given the same number in between.
   */
  private closePassages(): void {
    if (this.passages === null) return;
    closeSync(this.passages);
    this.passages = null;
  }
}

/**
 * Approximate nearest neighbours through the build's memory-mapped graph: large agents. The
 * graph is searched, and the passages read, on the process's search thread
 * (graph-threads.ts), never on the event loop.
 */
export class GraphIndex implements RetrievalIndex {
  readonly mode = 'embeddings';

  private constructor(
    private readonly source: GraphSource,
    readonly size: number,
    private readonly embedder: Embedder | null,
  ) {
    closeWhenCollected.register(this, source.graph);
  }

  /**
   * Opens the graph the build stored (fetched once per machine from S3 when it lies there).
   * Without an embedder (a segment of a larger index) it is searched by vector only.
   */
  static async open(
    files: GraphFiles,
    size: number,
    embedder: Embedder | { dimensions: number },
  ): Promise<GraphIndex> {
    const [graph, passages, offsets] = await Promise.all([
      files.localPath(FILES.graph),
      files.localPath(FILES.passages),
      files.localPath(FILES.offsets),
    ]);
    if (!graph || !passages || !offsets) throw new Error(INCOMPLETE);
    const source = { graph, passages, offsets, settings: graphSettings(embedder.dimensions) };
    // A damaged file fails here, when the agent loads, rather than in the middle of a question.
    await graphSearchThread()
      .open(source)
      .catch((cause: unknown) => {
        throw new Error(INCOMPLETE, { cause });
      });
    return new GraphIndex(source, size, 'embedQuery' in embedder ? embedder : null);
  }

  async search(query: string, k: number, signal?: AbortSignal): Promise<Hit[]> {
    if (k <= 0 || this.size === 0) return [];
    if (!this.embedder) throw new Error('This graph is searched by vector only.');
    const vector = unitVector(
      await this.embedder.embedQuery(query, signal),
      this.embedder.dimensions,
    );
    return this.searchVector(vector, k);
  }

  /** The k nearest passages to a unit vector (a question embedded once for many segments). */
  async searchVector(vector: Float32Array, k: number): Promise<Hit[]> {
    if (k <= 0 || this.size === 0) return [];
    const found = await graphSearchThread().search(this.source, vector, Math.min(k, this.size));
    // USearch's cosine distance is 1 − the cosine similarity (of the 8-bit vectors: the full
    // vectors' to about two decimals).
    return found.map(({ line, distance }) => ({
      chunk: JSON.parse(line) as Chunk,
      score: 1 - distance,
    }));
  }

  /**
   * The passages at these positions of the build's table (the graph's rows are its positions),
   * read from the passages file on the search thread.
   */
  async passages(rows: number[]): Promise<Chunk[]> {
    const lines = await graphSearchThread().read(this.source, rows);
    return lines.map((line) => JSON.parse(line) as Chunk);
  }

  /** The graph is mapped from its file (shared page cache); the thread holds the offsets. */
  memoryBytes(): number {
    return (this.size + 1) * Float64Array.BYTES_PER_ELEMENT;
  }
}

/** A collected index lets go of its graph; the search thread closes it after the last one. */
const closeWhenCollected = new FinalizationRegistry<string>((graph) =>
  graphSearchThread().release(graph),
);
