import type { Embedder, KeywordOnly } from '@agentloom/agent-runtime';
import type { TBuildEvaluation, THostedIndex, TKnowledgeChange } from '@agentloom/contracts';
import type { GeneratedFile } from '../generator';

/** What a build's steps produce: the project's files, part by part, the hosted index, the zip. */
export class BuildOutput {
  readonly files: GeneratedFile[] = [];
  /** RAG agents: the index previews and the published agent answer from. */
  hostedIndex?: THostedIndex;
  /** RAG agents: what this build changed in the agent's knowledge, for its history. */
  knowledgeChanges: TKnowledgeChange[] = [];
  /** RAG agents: the embedding model the index was made with (its evaluation embeds with it). */
  embedder?: Embedder | KeywordOnly;
  /** RAG agents: the checks replayed against the index (null when they could not run). */
  evaluation: TBuildEvaluation | null = null;
  artifact?: { name: string; bytes: number };
}
