import {
  readBuildInputs,
  ZHostedIndex,
  type TBuildWarning,
  type TEmbeddingModel,
} from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import { readConfig } from '../pipelines/pipeline-view';

/** The OpenAI model a keyword-only agent can switch to with the key it already has. */
const OPENAI_SEARCH: TEmbeddingModel = 'text-embedding-3-small';
export const USE_OPENAI_SEARCH = 'Use OpenAI search instead and rebuild';

/**
 * What the owner should know about a Built build: a RAG build whose embedding model could not be
 * used answers by keyword search only — every stage is green, so without this nothing would say
 * so before the preview. The worker records why in the build's hosted index (`note`).
 */
export function buildWarnings(pipeline: Pipeline, build: Build): TBuildWarning[] {
  if (build.status !== 'Built' || pipeline.agentType !== 'rag') return [];
  const index = ZHostedIndex.safeParse(build.hostedIndex);
  if (!index.success || index.data.mode !== 'keyword') return [];
  const config =
    readBuildInputs(build.snapshot, pipeline.agentType)?.config ?? readConfig(pipeline);
  const openaiKey = config.llm?.provider === 'openai';
  const reason = index.data.note ?? 'The chosen embedding model could not be used.';
  return [
    {
      code: 'keyword_search',
      detail:
        `${reason.replace(/\s*$/, '')} Answers are found by matching words, not meaning: ` +
        (openaiKey
          ? 'switch to OpenAI search (your OpenAI key pays for it) and build again.'
          : 'choose an OpenAI embedding model with an OpenAI key, or keep keyword search.'),
      fix: openaiKey ? { embedding_model: OPENAI_SEARCH, label: USE_OPENAI_SEARCH } : null,
    },
  ];
}
