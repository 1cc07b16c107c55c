import type { TEmbeddingModel, TSegmentInfo } from '@agentloom/contracts';
import type { Embedder } from './embedders';
import { HostedIndexWriter, type HostedIndexLocation, type SegmentChunk } from './hosted-index';

/**
 * Rows per write: bounded memory while a build streams its chunks in. A batch is embedded while
 * the one before is written, so one round of the OpenAI embedder's parallel requests (4 × 512
 * texts) is enough: 4,096 held twice the vectors for no more speed.
 */
export const WRITE_BATCH_ROWS = 2048;

export interface SegmentSource {
  location: HostedIndexLocation;
  model: TEmbeddingModel;
  /**
   * The agent's embedding model, or why it cannot be used here (no OpenAI key for an OpenAI
   * model, local weights that cannot be had): the segment is then full-text only and says why.
   */
  embedder: Embedder | { keywordBecause: string };
  /** base: all of a source's chunks; delta: what changed on top of its earlier segments. */
  role: 'base' | 'delta';
  /**
   * The chunks, in order, in batches of any size (streamed from a file, a table, a site). A chunk
   * may bring its `vector` (carried over from an earlier segment of this model): it is stored as
   * it is.
   */
  chunks: AsyncIterable<CarriedChunk[]> | Iterable<CarriedChunk[]>;
  /**
   * The vector this model already made of a text with this digest (in an earlier segment), or
   * undefined: only texts without one are sent to the embedding model.
   */
  reuse?: (hash: string) => Float32Array | undefined;
  /** A delta: the keys of earlier chunks of the source it replaces or removes. */
  removed?: string[];
  /** Called as chunks are stored: how many so far, and how many of them had to be embedded. */
  onProgress?: (done: number, embedded: number) => void | Promise<void>;
  signal?: AbortSignal;
}

/** A chunk to store, with the vector an earlier segment already holds for it, if any. */
export type CarriedChunk = SegmentChunk & { vector?: Float32Array };

export interface WrittenSegment {
  info: Omit<TSegmentInfo, 'live'>;
  /** Texts sent to the embedding model (the rest reused an earlier vector). */
  embedded: number;
  reused: number;
}

/**
 * Writes one segment of a hosted index: its chunks with their vectors — reused where this model
 * already embedded the same text, embedded now where not — then its search structures. Embedding
 * errors (a rejected key, an unreachable provider) propagate: the caller fails the change, and
 * the half-written segment is never recorded.
 */
export async function writeSegment(source: SegmentSource): Promise<WrittenSegment> {
  const embedder = 'embedPassages' in source.embedder ? source.embedder : null;
  const dimensions = embedder ? embedder.dimensions : null;
  const writer = await HostedIndexWriter.create(source.location, dimensions);
  let stored = 0;
  let embedded = 0;
  let reused = 0;
  // A batch is written (and added to the search graph) while the next one is embedded: the
  // provider works while the graph grows.
  let writing: Promise<void> = Promise.resolve();
  try {
    for await (const batch of rebatched(source.chunks, WRITE_BATCH_ROWS)) {
      source.signal?.throwIfAborted();
      let vectors: Float32Array[] | undefined;
      if (embedder) {
        vectors = new Array<Float32Array>(batch.length);
        const missing: number[] = [];
        batch.forEach((chunk, i) => {
          const known = chunk.vector ?? source.reuse?.(chunk.hash);
          if (known && known.length === embedder.dimensions) vectors![i] = known;
          else missing.push(i);
        });
        if (missing.length > 0) {
          const made = await embedder.embedPassages(
            missing.map((i) => batch[i]!.text),
            source.signal,
            (done) => source.onProgress?.(stored, embedded + done),
          );
          missing.forEach((at, i) => (vectors![at] = made[i]!));
        }
        embedded += missing.length;
        reused += batch.length - missing.length;
      }
      stored += batch.length;
      await writing;
      writing = writer.add(batch.map(withoutVector), vectors);
      await source.onProgress?.(stored, embedded);
    }
    await writing;
  } catch (error) {
    await writing.catch(() => undefined);
    await writer.discard();
    throw error;
  }
  const removed = source.removed ?? [];
  const { chunks, ann } = await writer.finish(removed);
  return {
    info: {
      mode: embedder ? 'embeddings' : 'keyword',
      dimensions: dimensions ?? 1,
      role: source.role,
      chunks,
      removed: removed.length,
      graph: ann,
      ...('keywordBecause' in source.embedder && { note: source.embedder.keywordBecause }),
    },
    embedded,
    reused,
  };
}

function withoutVector({ vector: _vector, ...chunk }: CarriedChunk): SegmentChunk {
  return chunk;
}

/** The same chunks in batches of `size` (the last one shorter). */
async function* rebatched<T>(
  batches: AsyncIterable<T[]> | Iterable<T[]>,
  size: number,
): AsyncGenerator<T[]> {
  let pending: T[] = [];
  for await (const batch of batches) {
    pending.push(...batch);
    while (pending.length >= size) {
      yield pending.slice(0, size);
      pending = pending.slice(size);
    }
  }
  if (pending.length > 0) yield pending;
}
