import { exactSearch, MetricKind } from 'usearch';
import { unitVector } from './vectors';
import type { RetrievalMode } from './agent-events';
import type { Chunk } from './chunks';
import type { Embedder } from './embedders';

export type { RetrievalMode };

export interface Hit {
  chunk: Chunk;
  /** What the hits are ordered by: a similarity, a word score, or both lists' fused rank. */
  score: number;
  /** Which search found it, when an index searches more than one way. */
  found?: 'meaning' | 'words' | 'both';
  /** Its cosine similarity to the question, when it was found by meaning. */
  similarity?: number;
  /** Its BM25 score for the question's words, when it was found by words. */
  wordScore?: number;
}

export interface RetrievalIndex {
  readonly mode: RetrievalMode;
  /** Why the index is not what the agent was configured with, for the preview page to show. */
  readonly note?: string;
  /** Chunks indexed. */
  readonly size: number;
  /** The k best chunks for the query, best first. */
  search(query: string, k: number, signal?: AbortSignal): Promise<Hit[]>;
  /** Approximate memory the index holds: vectors or postings, plus the chunks' text. */
  memoryBytes(): number;
}

/** Lowercased runs of letters and digits in any script: "Zürich's 2024" → zürich, s, 2024. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Exact search: cosine similarity over unit vectors held in one Float32Array, row after row, for
 * small agents (hosted-index.ts reads their vectors once; large ones search a graph, hosted-graph.ts). USearch's
 * exact search does the dot products with SIMD instructions and keeps the best k, on this thread:
 * a few hundred microseconds for a thousand 1536-dimension chunks, several times faster than a
 * JavaScript loop (npm run bench:hosted).
 */
export class DenseIndex implements RetrievalIndex {
  readonly mode = 'embeddings';
  readonly size: number;
  private readonly vectors: Float32Array;
  private readonly dimensions: number;

  constructor(
    private readonly chunks: Chunk[],
    vectors: Float32Array[],
    private readonly embedder?: Embedder,
  ) {
    this.size = chunks.length;
    this.dimensions = vectors[0]?.length ?? 0;
    this.vectors = new Float32Array(this.size * this.dimensions);
    vectors.forEach((vector, row) => {
      if (vector.length !== this.dimensions) {
        throw new Error('The embedding model returned vectors of different lengths.');
      }
      this.vectors.set(unitVector(vector), row * this.dimensions);
    });
  }

  async search(query: string, k: number, signal?: AbortSignal): Promise<Hit[]> {
    if (this.size === 0 || k <= 0) return [];
    if (!this.embedder) throw new Error('This index is searched by vector only.');
    return this.searchVector(unitVector(await this.embedder.embedQuery(query, signal)), k);
  }

  /** The k nearest chunks to a unit vector (a question embedded once for many segments). */
  searchVector(q: Float32Array, k: number): Promise<Hit[]> {
    if (this.size === 0 || k <= 0) return Promise.resolve([]);
    if (q.length !== this.dimensions) {
      throw new Error('The embedding model returned a query vector of another length.');
    }
    // One thread: a search this small costs more to hand to a pool than to run.
    const found = exactSearch(
      this.vectors,
      q,
      this.dimensions,
      Math.min(k, this.size),
      MetricKind.IP,
      1,
    );
    // USearch's inner-product distance is 1 − the dot product; of unit vectors, 1 − cosine.
    return Promise.resolve(
      Array.from(found.keys, (row, i) => ({
        chunk: this.chunks[Number(row)]!,
        score: 1 - found.distances[i]!,
      })),
    );
  }

  memoryBytes(): number {
    return this.vectors.byteLength + textBytes(this.chunks);
  }
}

/** JavaScript holds strings as UTF-16: two bytes per code unit, plus the ids and sources. */
function textBytes(chunks: Chunk[]): number {
  let bytes = 0;
  for (const chunk of chunks) {
    bytes +=
      2 * (chunk.text.length + chunk.id.length + chunk.source.length + (chunk.ref?.length ?? 0));
  }
  return bytes;
}
