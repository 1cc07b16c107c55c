import { availableParallelism } from 'node:os';
import { ThreadRequests } from './thread-requests';

/**
 * The search graphs' work happens on worker threads, never on the event loop: USearch's calls are
 * synchronous, and a graph search (one to three milliseconds), its passage reads or a build's
 * batch of insertions (a second or more) would otherwise hold every other request of the process
 * (a gateway's, or a worker's embedding responses) until they end.
 *
 * - The search thread: one per process. Each graph stays memory-mapped in it after its first use;
 *   the operating system shares the mapped pages between threads and processes. One is enough: a
 *   search costs one to three milliseconds, so it serves several hundred questions a second, more
 *   than the process that asks them can answer.
 * - A build thread: one per build that makes a graph, holding the graph while it grows; the build
 *   goes on embedding and writing its table while the thread inserts.
 *
 * The threads' code is plain JavaScript in strings (thread-requests.ts); usearch is required by
 * the absolute path the host resolved. Messages: {id, op, …} → {id, ok, …result | message}.
 */
const SEARCH_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { Index } = require(workerData.usearchPath);

// Graphs by their file, least recently searched first; past the cap the oldest is closed (it is
// opened again, from its file, by its next search).
const open = new Map();

function opened(source) {
  let graph = open.get(source.graph);
  if (graph) {
    open.delete(source.graph);
    open.set(source.graph, graph);
    return graph;
  }
  const index = new Index(source.settings);
  index.view(source.graph);
  const bytes = fs.readFileSync(source.offsets);
  const offsets = new Float64Array(bytes.byteLength / 8);
  new Uint8Array(offsets.buffer).set(bytes);
  graph = { index, offsets, passages: fs.openSync(source.passages, 'r') };
  open.set(source.graph, graph);
  if (open.size > workerData.maxOpen) forget(open.keys().next().value);
  return graph;
}

function forget(file) {
  const graph = open.get(file);
  if (!graph) return;
  open.delete(file);
  fs.closeSync(graph.passages);
}

function lineAt(graph, row) {
  const start = graph.offsets[row];
  const line = Buffer.allocUnsafe(graph.offsets[row + 1] - start);
  fs.readSync(graph.passages, line, 0, line.length, start);
  return line.toString('utf8');
}

function search(graph, vector, k) {
  const found = graph.index.search(vector, k, 1);
  const lines = [];
  const distances = [];
  for (let i = 0; i < found.keys.length; i += 1) {
    lines.push(lineAt(graph, Number(found.keys[i])));
    distances.push(found.distances[i]);
  }
  return { lines, distances };
}

function answer(graph, message) {
  if (message.op === 'search') return search(graph, message.vector, message.k);
  if (message.op === 'read') return { lines: message.rows.map((row) => lineAt(graph, row)) };
  return {};
}

parentPort.on('message', (message) => {
  if (message.op === 'forget') return forget(message.graph);
  try {
    const graph = opened(message.source);
    parentPort.postMessage({ id: message.id, ok: true, ...answer(graph, message) });
  } catch (error) {
    forget(message.source.graph);
    parentPort.postMessage({ id: message.id, ok: false, message: String((error && error.message) || error) });
  }
});
`;

const BUILD_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { Index } = require(workerData.usearchPath);
const index = new Index(workerData.settings);

parentPort.on('message', (message) => {
  try {
    if (message.op === 'add') {
      index.add(message.keys, message.vectors, workerData.threads);
      // The batch's buffers go back to be filled again: garbage here would wait for a collection
      // this thread, which allocates almost nothing, seldom runs (hundreds of MB at 1536 numbers).
      const { keys, vectors } = message;
      return parentPort.postMessage({ id: message.id, ok: true, keys, vectors }, [keys.buffer, vectors.buffer]);
    }
    if (message.op === 'save') index.save(message.file);
    parentPort.postMessage({ id: message.id, ok: true });
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, message: String((error && error.message) || error) });
  }
});
`;

/** USearch's index settings, as its `Index` constructor takes them. */
export interface GraphSettings {
  dimensions: number;
  metric: string;
  quantization: string;
  connectivity: number;
  expansion_add: number;
  expansion_search: number;
  multi: boolean;
}

/** A build's search graph: its three local files and the settings it was made with. */
export interface GraphSource {
  graph: string;
  passages: string;
  offsets: string;
  settings: GraphSettings;
}

/** One hit: the passage's JSON line and USearch's distance (cosine: 1 − similarity). */
export interface GraphMatch {
  line: string;
  distance: number;
}

const usearchPath = () => require.resolve('usearch');

/** Graphs kept open at once in the search thread (a file handle and the passages' offsets each). */
const MAX_OPEN_GRAPHS = 256;

const STOPPED = 'The search graph’s thread stopped unexpectedly.';

class GraphSearchThread {
  private readonly thread = new ThreadRequests<{ lines?: string[]; distances?: number[] }>({
    source: SEARCH_THREAD,
    workerData: () => ({ usearchPath: usearchPath(), maxOpen: MAX_OPEN_GRAPHS }),
    crashMessage: STOPPED,
  });

  /**
   * How many live indexes hold each graph file: two agents (a preview and a published agent of
   * one build, say) share one open graph, which is closed only when the last of them is collected.
   */
  private readonly holders = new Map<string, number>();

  /**
   * Opens (maps) the graph now, so a broken file fails the load rather than a question; the
   * caller holds it until `release`.
   */
  async open(source: GraphSource): Promise<void> {
    await this.thread.call({ op: 'open', source });
    this.holders.set(source.graph, (this.holders.get(source.graph) ?? 0) + 1);
  }

  async search(source: GraphSource, vector: Float32Array, k: number): Promise<GraphMatch[]> {
    const reply = await this.thread.call({ op: 'search', source, vector, k });
    return (reply.lines ?? []).map((line, i) => ({ line, distance: reply.distances![i]! }));
  }

  /** The passages of the graph's rows (positions), in that order, as the build wrote them. */
  async read(source: GraphSource, rows: number[]): Promise<string[]> {
    if (rows.length === 0) return [];
    return (await this.thread.call({ op: 'read', source, rows })).lines ?? [];
  }

  /** One holder of `graph` is gone (its index was collected); the last one closes it. */
  release(graph: string): void {
    const left = (this.holders.get(graph) ?? 1) - 1;
    if (left > 0) return void this.holders.set(graph, left);
    this.holders.delete(graph);
    this.thread.tell({ op: 'forget', graph });
  }

  /** How many indexes hold `graph` open (for tests). */
  holdersOf(graph: string): number {
    return this.holders.get(graph) ?? 0;
  }
}

let searchThread: GraphSearchThread | undefined;

/** The process's search thread (started by its first request). */
export function graphSearchThread(): GraphSearchThread {
  return (searchThread ??= new GraphSearchThread());
}

/** A batch's keys and vectors, handed back by the build thread once they are in the graph. */
export interface BatchBuffers {
  keys: BigUint64Array<ArrayBuffer>;
  vectors: Float32Array<ArrayBuffer>;
}

/** A graph being built on a thread of its own: batches in, then saved to a file. */
export class GraphBuildThread {
  private readonly thread: ThreadRequests<object>;

  constructor(settings: GraphSettings) {
    // Insertions on every core: the build's own work between batches (embedding responses, the
    // table's writes) is light, and the operating system shares the cores with it.
    this.thread = new ThreadRequests({
      source: BUILD_THREAD,
      workerData: () => ({ usearchPath: usearchPath(), settings, threads: availableParallelism() }),
      crashMessage: STOPPED,
    });
  }

  /**
   * Inserts `vectors` (flat, row after row) under `keys`; both are handed to the thread, and
   * handed back once inserted, for the next batch to reuse.
   */
  async add(
    keys: BigUint64Array<ArrayBuffer>,
    vectors: Float32Array<ArrayBuffer>,
  ): Promise<BatchBuffers> {
    const reply = await this.thread.call({ op: 'add', keys, vectors }, [
      keys.buffer,
      vectors.buffer,
    ]);
    return reply as BatchBuffers;
  }

  async save(file: string): Promise<void> {
    await this.thread.call({ op: 'save', file });
  }

  async stop(): Promise<void> {
    await this.thread.stop();
  }
}
