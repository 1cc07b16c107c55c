import { createOpenAI } from '@ai-sdk/openai';
import type { TEmbeddingModel } from '@agentloom/contracts';
import { embedMany } from 'ai';
import type { Chunk } from './chunks';
import { isLocalModel, localEmbedder, type Embedder } from './local-embeddings';
import { messageOf } from './error-messages';
import { describeProviderError } from './provider-errors';

export type RetrievalMode = 'embeddings' | 'keyword';

export interface Hit {
  chunk: Chunk;
  score: number;
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

/** Okapi BM25 with the usual constants. */
const K1 = 1.2;
const B = 0.75;

/**
 * Keyword retrieval with Okapi BM25: the preview's answer when no embedding model can be used,
 * and still a fair retriever for the row-per-chunk tables agents are built on.
 */
export class Bm25Index implements RetrievalIndex {
  readonly mode = 'keyword';
  readonly size: number;
  /** term → doc indices and the term's count in each, interleaved: [doc, tf, doc, tf, …]. */
  private readonly postings = new Map<string, Int32Array>();
  private readonly docLengths: Int32Array;
  private readonly averageLength: number;

  constructor(
    private readonly chunks: Chunk[],
    readonly note?: string,
  ) {
    this.size = chunks.length;
    this.docLengths = new Int32Array(chunks.length);
    const building = new Map<string, number[]>();
    chunks.forEach((chunk, doc) => {
      const counts = new Map<string, number>();
      const terms = tokenize(chunk.text);
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      this.docLengths[doc] = terms.length;
      for (const [term, count] of counts) {
        let list = building.get(term);
        if (!list) building.set(term, (list = []));
        list.push(doc, count);
      }
    });
    for (const [term, list] of building) this.postings.set(term, Int32Array.from(list));
    const total = this.docLengths.reduce((sum, length) => sum + length, 0);
    this.averageLength = chunks.length ? total / chunks.length : 0;
  }

  search(query: string, k: number): Promise<Hit[]> {
    const scores = new Float64Array(this.size);
    const n = this.size;
    for (const term of new Set(tokenize(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const df = list.length / 2;
      // The "+ 1" (Lucene's form) keeps idf positive for terms in more than half the documents.
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i += 2) {
        const doc = list[i]!;
        const tf = list[i + 1]!;
        const norm = K1 * (1 - B + (B * this.docLengths[doc]!) / this.averageLength);
        scores[doc]! += (idf * tf * (K1 + 1)) / (tf + norm);
      }
    }
    return Promise.resolve(bestHits(scores, this.chunks, k, (score) => score > 0));
  }

  memoryBytes(): number {
    let bytes = this.docLengths.byteLength + textBytes(this.chunks);
    for (const [term, list] of this.postings) bytes += term.length * 2 + list.byteLength;
    return bytes;
  }
}

/** Cosine similarity over unit vectors held in one Float32Array, row after row. */
class DenseIndex implements RetrievalIndex {
  readonly mode = 'embeddings';
  readonly size: number;
  private readonly vectors: Float32Array;
  private readonly dimensions: number;

  constructor(
    private readonly chunks: Chunk[],
    vectors: Float32Array[],
    private readonly embedder: Embedder,
  ) {
    this.size = chunks.length;
    this.dimensions = vectors[0]?.length ?? 0;
    this.vectors = new Float32Array(this.size * this.dimensions);
    vectors.forEach((vector, row) => {
      if (vector.length !== this.dimensions) {
        throw new Error('The embedding model returned vectors of different lengths.');
      }
      this.vectors.set(normalized(vector), row * this.dimensions);
    });
  }

  async search(query: string, k: number, signal?: AbortSignal): Promise<Hit[]> {
    if (this.size === 0) return [];
    const q = normalized(await this.embedder.embedQuery(query, signal));
    if (q.length !== this.dimensions) {
      throw new Error('The embedding model returned a query vector of another length.');
    }
    const scores = new Float64Array(this.size);
    for (let row = 0; row < this.size; row++) {
      const offset = row * this.dimensions;
      let dot = 0;
      for (let i = 0; i < this.dimensions; i++) dot += this.vectors[offset + i]! * q[i]!;
      scores[row] = dot;
    }
    return bestHits(scores, this.chunks, k, () => true);
  }

  memoryBytes(): number {
    return this.vectors.byteLength + textBytes(this.chunks);
  }
}

export interface RetrievalIndexOptions {
  embeddingModel: TEmbeddingModel;
  /** For text-embedding-ada-002; without it the index falls back to BM25. */
  openai?: { apiKey: string; baseUrl?: string };
  /** Where local models' weights are downloaded on first use and read from afterwards. */
  cacheDir: string;
  signal?: AbortSignal;
}

const FALLBACK = 'so this preview answers with keyword (BM25) retrieval.';

/**
 * The index a preview retrieves with: the configured embedding model when it can be used, else
 * BM25 with a note saying why. Only an abort rejects; a model that cannot be loaded (no network,
 * a bad key) is the fallback's case, because the preview should still answer.
 */
export async function buildRetrievalIndex(
  chunks: Chunk[],
  o: RetrievalIndexOptions,
): Promise<RetrievalIndex> {
  const model = o.embeddingModel;
  if (!isLocalModel(model) && !o.openai?.apiKey) {
    return new Bm25Index(
      chunks,
      `The embedding model ${model} needs an OpenAI API key and this agent has none, ${FALLBACK}`,
    );
  }
  let embedder: Embedder;
  let vectors: Float32Array[];
  try {
    embedder = isLocalModel(model)
      ? await localEmbedder(model, o.cacheDir)
      : openAiEmbedder(o.openai!.apiKey, o.openai!.baseUrl);
    vectors = await embedder.embedPassages(
      chunks.map((chunk) => chunk.text),
      o.signal,
    );
  } catch (error) {
    if (o.signal?.aborted) throw error;
    return new Bm25Index(
      chunks,
      `The embedding model ${model} could not be loaded (${reasonOf(error)}), ${FALLBACK}`,
    );
  }
  return new DenseIndex(chunks, vectors, embedder);
}

/** Texts per embeddings request: well under OpenAI's per-request input limit for chunk-sized texts. */
const OPENAI_BATCH = 96;

function openAiEmbedder(apiKey: string, baseUrl?: string): Embedder {
  const model = createOpenAI({ apiKey, baseURL: baseUrl }).embedding('text-embedding-ada-002');
  const embed = async (values: string[], signal?: AbortSignal) => {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < values.length; start += OPENAI_BATCH) {
      const { embeddings } = await embedMany({
        model,
        values: values.slice(start, start + OPENAI_BATCH),
        abortSignal: signal,
      });
      for (const embedding of embeddings) vectors.push(Float32Array.from(embedding));
    }
    return vectors;
  };
  return {
    embedPassages: embed,
    embedQuery: async (text, signal) => {
      const [vector] = await embed([text], signal);
      if (!vector) throw new Error('The embeddings endpoint returned no vector.');
      return vector;
    },
  };
}

function reasonOf(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  const message =
    typeof name === 'string' && name.startsWith('AI_')
      ? describeProviderError(error)
      : messageOf(error);
  const trimmed = message.replace(/\.$/, '');
  return trimmed.length > 200 ? `${trimmed.slice(0, 199)}…` : trimmed;
}

function normalized(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const length = Math.sqrt(sum);
  return length > 0 && Math.abs(length - 1) > 1e-6 ? vector.map((value) => value / length) : vector;
}

/** The k highest-scoring chunks that pass `keep`, best first; ties keep document order. */
function bestHits(
  scores: Float64Array,
  chunks: Chunk[],
  k: number,
  keep: (score: number) => boolean,
): Hit[] {
  if (k <= 0) return [];
  // A short sorted list beats sorting every score: k is a handful, the corpus can be large.
  const best: number[] = [];
  for (let doc = 0; doc < scores.length; doc++) {
    const score = scores[doc]!;
    if (!keep(score)) continue;
    if (best.length === k && score <= scores[best[k - 1]!]!) continue;
    let at = best.length;
    while (at > 0 && scores[best[at - 1]!]! < score) at--;
    best.splice(at, 0, doc);
    if (best.length > k) best.pop();
  }
  return best.map((doc) => ({ chunk: chunks[doc]!, score: scores[doc]! }));
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
