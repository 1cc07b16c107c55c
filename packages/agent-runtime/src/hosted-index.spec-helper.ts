import type { TEmbeddingModel } from '@agentloom/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Chunk } from './chunks';
import { randomUUID } from 'node:crypto';
import type { THostedIndex } from '@agentloom/contracts';
import { embedderOrKeyword, type Embedder, type KeywordOnly } from './embedders';
import {
  chunkHash,
  localIndexFolder,
  type HostedIndexLocation,
  type SegmentChunk,
} from './hosted-index';
import { writeSegment } from './hosted-index-build';
import type { RetrievalIndex } from './retrieval';
import { openSegmentedIndex } from './segments';

/** Chunks as a segment stores them: keyed by their id, with their text's digest. */
export const keyed = (chunks: Chunk[]): SegmentChunk[] =>
  chunks.map((chunk) => ({ ...chunk, key: chunk.id, hash: chunkHash(chunk.text) }));

/**
 * One base segment of `chunks`, written as a build writes one, with the build record it makes
 * (legacy tests open the same table as a one-table index).
 */
export async function writtenSegment(
  location: HostedIndexLocation,
  chunks: Chunk[],
  model: TEmbeddingModel,
  embedder: Embedder | KeywordOnly,
) {
  const written = await writeSegment({
    location,
    model,
    embedder,
    role: 'base',
    chunks: [keyed(chunks)],
  });
  const segment = {
    id: randomUUID(),
    source_id: randomUUID(),
    role: 'base' as const,
    chunks: written.info.chunks,
    removed: 0,
    graph: written.info.graph,
  };
  const info: THostedIndex = {
    engine: 'lancedb',
    mode: written.info.mode,
    embedding_model: model,
    dimensions: written.info.dimensions,
    chunks: written.info.chunks,
    ann: written.info.graph,
    ...(written.info.graph && { graph: true }),
    ...(written.info.note && { note: written.info.note }),
    segments: [segment],
  };
  return { written, segment, info };
}

/**
 * A real hosted index of `chunks`, made as a build makes one (the agent's model, or full-text
 * search and a note when it cannot be used) in a fresh folder, then opened as an agent opens it.
 */
export async function hostedIndexFor(
  chunks: Chunk[],
  o: {
    embeddingModel: TEmbeddingModel;
    openai?: { apiKey: string; baseUrl?: string };
    cacheDir: string;
  },
  location: HostedIndexLocation = localIndexFolder(
    mkdtempSync(path.join(tmpdir(), 'agent-runtime-index-')),
  ),
): Promise<RetrievalIndex> {
  const embedder = await embedderOrKeyword(o.embeddingModel, {
    openaiKey: o.openai?.apiKey ?? null,
    baseUrl: o.openai?.baseUrl,
    cacheDir: o.cacheDir,
  });
  const { info, segment } = await writtenSegment(location, chunks, o.embeddingModel, embedder);
  return openSegmentedIndex(
    info,
    [{ segment, location }],
    'embedPassages' in embedder ? embedder : undefined,
  );
}
