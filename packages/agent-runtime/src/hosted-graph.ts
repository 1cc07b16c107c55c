import { closeSync, openSync, readFileSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Index, MetricKind, ScalarKind } from 'usearch';
import type { Chunk } from './chunks';
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

const FILES = {
  graph: 'graph.usearch',
  passages: 'passages.jsonl',
  offsets: 'passages.offsets',
} as const;

/**
 * HNSW over 8-bit scalar-quantised vectors: 16 links a node, 128 candidates while adding, 160
 * while searching. Cosine, not inner product: USearch scales 8-bit vectors for cosine only (its
 * 8-bit inner product of unit vectors ranked wrongly), and of unit vectors the two are the same.
 * Measured on 122,548 chunks of 1536 numbers (the bench's): recall@4 against exact search rose
 * with the search's candidates, at about 1.2 (64), 1.7 (128) and 2.7 ms (256) of CPU a question
 * on a busy 2-core machine; npm run bench:hosted prints the recall this setting gives.
 */
function graphOf(dimensions: number): Index {
  return new Index({
    dimensions,
    metric: MetricKind.Cos,
    quantization: ScalarKind.I8,
    connectivity: 16,
    expansion_add: 128,
    expansion_search: 160,
    multi: false,
  });
}

/** The build's side: passages and unit vectors in, row by row in order; then the three files. */
export class GraphWriter {
  private readonly graph: Index;
  private readonly passages: number;
  /** Byte offset of each passage, and of the end: passage i is bytes [offsets[i], offsets[i+1]). */
  private offsets: number[] = [0];

  private constructor(
    private readonly folder: string,
    private readonly dimensions: number,
  ) {
    this.graph = graphOf(dimensions);
    this.passages = openSync(path.join(folder, FILES.passages), 'w');
  }

  static async create(dimensions: number): Promise<GraphWriter> {
    return new GraphWriter(await mkdtemp(path.join(tmpdir(), 'agentloom-graph-')), dimensions);
  }

  get rows(): number {
    return this.offsets.length - 1;
  }

  /** The next rows: their chunks and unit vectors (of `dimensions` numbers each). */
  add(chunks: Chunk[], vectors: Float32Array[]): void {
    const first = this.rows;
    const keys = new BigUint64Array(chunks.length);
    const flat = new Float32Array(chunks.length * this.dimensions);
    chunks.forEach((chunk, i) => {
      keys[i] = BigInt(first + i);
      flat.set(vectors[i]!, i * this.dimensions);
      const line = Buffer.from(`${JSON.stringify(chunk)}\n`);
      writeSync(this.passages, line);
      this.offsets.push(this.offsets.at(-1)! + line.length);
    });
    // On the machine's cores (0: as many as it has); a build's batch takes a fraction of a second.
    this.graph.add(keys, flat, 0);
  }

  /** Writes the graph and the offsets, and stores all three files beside the table. */
  async finish(files: GraphFiles): Promise<void> {
    try {
      closeSync(this.passages);
      this.graph.save(path.join(this.folder, FILES.graph));
      writeFileSync(path.join(this.folder, FILES.offsets), new Float64Array(this.offsets));
      for (const name of Object.values(FILES)) {
        await files.putFile(name, path.join(this.folder, name));
      }
    } finally {
      await this.discard();
    }
  }

  /** Removes the local files (after `finish`, or when the build failed). */
  async discard(): Promise<void> {
    try {
      closeSync(this.passages);
    } catch {
      // already closed by finish()
    }
    await rm(this.folder, { recursive: true, force: true });
  }
}

/** Approximate nearest neighbours through the build's memory-mapped graph: large agents. */
export class GraphIndex implements RetrievalIndex {
  readonly mode = 'embeddings';

  private constructor(
    private readonly graph: Index,
    private readonly passages: string,
    private readonly offsets: Float64Array,
    readonly size: number,
    private readonly embedder: Embedder,
  ) {}

  /** Opens the graph the build stored (fetched once per machine from S3 when it lies there). */
  static async open(files: GraphFiles, size: number, embedder: Embedder): Promise<GraphIndex> {
    const [graphFile, passages, offsets] = await Promise.all([
      files.localPath(FILES.graph),
      files.localPath(FILES.passages),
      files.localPath(FILES.offsets),
    ]);
    if (!graphFile || !passages || !offsets) {
      throw new Error('This build’s search index is incomplete. Build the agent again.');
    }
    const graph = graphOf(embedder.dimensions);
    graph.view(graphFile);
    const bytes = readFileSync(offsets);
    const table = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
    return new GraphIndex(graph, passages, table, size, embedder);
  }

  async search(query: string, k: number, signal?: AbortSignal): Promise<Hit[]> {
    if (k <= 0 || this.size === 0) return [];
    const vector = unitVector(
      await this.embedder.embedQuery(query, signal),
      this.embedder.dimensions,
    );
    // One thread, this one: a search visits a few hundred nodes, less than a hand-off would cost.
    const found = this.graph.search(vector, Math.min(k, this.size), 1);
    const hits: Hit[] = [];
    const file = openSync(this.passages, 'r');
    try {
      for (let i = 0; i < found.keys.length; i += 1) {
        const row = Number(found.keys[i]);
        const start = this.offsets[row]!;
        const line = Buffer.allocUnsafe(this.offsets[row + 1]! - start);
        readSync(file, line, 0, line.length, start);
        // USearch's cosine distance is 1 − the cosine similarity (of the 8-bit vectors: the
        // full vectors' to about two decimals).
        hits.push({
          chunk: JSON.parse(line.toString('utf8')) as Chunk,
          score: 1 - found.distances[i]!,
        });
      }
    } finally {
      closeSync(file);
    }
    return hits;
  }

  /** The graph is mapped from its file (shared page cache), not held; the offsets are. */
  memoryBytes(): number {
    return this.offsets.byteLength;
  }
}
