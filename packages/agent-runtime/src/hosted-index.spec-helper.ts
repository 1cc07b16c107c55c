import type { TEmbeddingModel } from '@agentloom/contracts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Chunk } from './chunks';
import { embedderOrKeyword } from './embedders';
import { localIndexFolder, openHostedIndex, type HostedIndexLocation } from './hosted-index';
import { writeHostedIndex } from './hosted-index-build';
import type { RetrievalIndex } from './retrieval';

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
  const info = await writeHostedIndex({
    location,
    model: o.embeddingModel,
    embedder,
    chunks: [chunks],
  });
  return openHostedIndex(location, info, 'embedPassages' in embedder ? embedder : undefined);
}
