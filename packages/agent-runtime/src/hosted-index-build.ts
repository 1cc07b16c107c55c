import type { TEmbeddingModel, THostedIndex } from '@agentloom/contracts';
import type { Chunk } from './chunks';
import type { Embedder } from './embedders';
import { HostedIndexWriter, WRITE_BATCH_ROWS, type HostedIndexLocation } from './hosted-index';

export interface HostedIndexSource {
  location: HostedIndexLocation;
  model: TEmbeddingModel;
  /**
   * The agent's embedding model, or why it cannot be used here (no OpenAI key for an OpenAI
   * model, local weights that cannot be had): the index is then full-text only and says why.
   */
  embedder: Embedder | { keywordBecause: string };
  /** The chunks, in order, in batches of any size (a build streams them from chunks.jsonl). */
  chunks: AsyncIterable<Chunk[]> | Iterable<Chunk[]>;
  /** Called as chunks are embedded and stored: how many so far. */
  onProgress?: (done: number) => void | Promise<void>;
  signal?: AbortSignal;
}

/**
 * Embeds every chunk once with the agent's model and writes them, with their vectors, into the
 * build's hosted index. Embedding errors (a rejected key, an unreachable provider) propagate:
 * the caller fails the build, and the half-written table is never recorded as the build's.
 */
export async function writeHostedIndex(source: HostedIndexSource): Promise<THostedIndex> {
  const embedder = 'embedPassages' in source.embedder ? source.embedder : null;
  const dimensions = embedder ? embedder.dimensions : null;
  const writer = await HostedIndexWriter.create(source.location, dimensions);
  let embedded = 0;
  // A batch is written (and added to the search graph) while the next one is embedded: the
  // provider works while the graph grows.
  let writing: Promise<void> = Promise.resolve();
  try {
    for await (const batch of rebatched(source.chunks, WRITE_BATCH_ROWS)) {
      source.signal?.throwIfAborted();
      const vectors = embedder
        ? await embedder.embedPassages(
            batch.map((chunk) => chunk.text),
            source.signal,
            (done) => source.onProgress?.(embedded + done),
          )
        : undefined;
      embedded += batch.length;
      await writing;
      writing = writer.add(batch, vectors);
      await source.onProgress?.(embedded);
    }
    await writing;
  } catch (error) {
    await writing.catch(() => undefined);
    await writer.discard();
    throw error;
  }
  const { chunks, ann } = await writer.finish();
  return {
    engine: 'lancedb',
    mode: embedder ? 'embeddings' : 'keyword',
    embedding_model: source.model,
    dimensions: dimensions ?? 1,
    chunks,
    ann,
    ...(ann && { graph: true }),
    ...('keywordBecause' in source.embedder && { note: source.embedder.keywordBecause }),
  };
}

/** The same chunks in batches of `size` (the last one shorter). */
async function* rebatched(
  batches: AsyncIterable<Chunk[]> | Iterable<Chunk[]>,
  size: number,
): AsyncGenerator<Chunk[]> {
  let pending: Chunk[] = [];
  for await (const batch of batches) {
    pending.push(...batch);
    while (pending.length >= size) {
      yield pending.slice(0, size);
      pending = pending.slice(size);
    }
  }
  if (pending.length > 0) yield pending;
}
