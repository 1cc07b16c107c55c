import type { Embedder, KeywordOnly } from '@agentloom/agent-runtime';
import {
  chunkingKey,
  type TChunking,
  type TEmbeddingModel,
  type TStageWork,
} from '@agentloom/contracts';
import type { KnowledgeSource, Pipeline } from '@agentloom/db';
import type { ChainKey, Segment } from './knowledge.repository';

/** How a build or a refresh embeds: the agent's model, or full-text only and why. */
export interface IndexContext {
  pipeline: Pipeline;
  model: TEmbeddingModel;
  embedder: Embedder | KeywordOnly;
  chunking: TChunking;
  /** The build's live progress (rows read, chunks embedded). */
  report: (work: TStageWork) => Promise<void>;
}

/** A source's segments, as a build lists them, and what reading it changed. */
export interface IndexedSource {
  chain: Segment[];
  /** In words, for the history and the source ("added", "12 rows changed"); null if reused. */
  change: string | null;
  /** Texts sent to the embedding model for it. */
  embedded: number;
  /** The source's live chunks. */
  chunks: number;
  /** Web sources: the pages this read found (the source shows how many it holds). */
  pages?: number;
}

export function chainKey(ctx: IndexContext, source: KnowledgeSource): ChainKey {
  return {
    sourceId: source.id,
    model: 'embedPassages' in ctx.embedder ? ctx.model : 'keyword',
    chunking: chunkingKey(ctx.chunking),
  };
}

/** Chunk ids are unique across an agent's sources: the wizard's keeps the plain form. */
export function idPrefixOf(source: KnowledgeSource): string {
  return source.primary ? '' : `${source.id.slice(0, 8)}-`;
}
