import {
  ZKnowledgeChanges,
  type TBuildInputs,
  type TKnowledgeChange,
  type TPipelineConfig,
} from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { readConfig } from '../pipelines/pipeline-view';

/** A digest of an encrypted value: tells "another key was saved" without keeping the key. */
const fingerprint = (envelope: string | null) =>
  envelope ? createHash('sha256').update(envelope).digest('base64url').slice(0, 16) : null;

/**
 * What a build is made from, as stored with the build row. The expected questions are left out:
 * they test the agent rather than make it, so writing one neither changes what a build is
 * compared on nor stops a knowledge build from being served (the worker reads them from the
 * agent when it evaluates the build).
 */
export function buildInputsOf(pipeline: Pipeline): TBuildInputs {
  const config = readConfig(pipeline);
  if (config.agent_type === 'rag') delete config.expected_questions;
  return {
    config,
    llm_key: pipeline.llmApiKeyId ?? fingerprint(pipeline.llmApiKeyEncrypted),
    vector_db_key: fingerprint(pipeline.vectorDbApiKeyEncrypted),
    source_uri: fingerprint(pipeline.sourceUriEncrypted),
    source_file: pipeline.sourceFile,
  };
}

type Part = (inputs: TBuildInputs, config: TPipelineConfig) => unknown;

/** The answers only one kind of agent has (absent in the other kind's configuration). */
const ragOnly = (config: TPipelineConfig) => (config.agent_type === 'rag' ? config : undefined);
const sqlOnly = (config: TPipelineConfig) => (config.agent_type === 'sql' ? config : undefined);

/**
 * The parts of an agent a user can change between builds, in the wizard's order. A build that
 * names its knowledge sources says what changed in them itself (knowledgeChangesOf), so its
 * wizard's source is not compared a second time.
 */
const PARTS: readonly [string, Part][] = [
  [
    'Source',
    (i, c) => (i.sources ? null : [c.source_type, c.file, c.database, i.source_uri, i.source_file]),
  ],
  ['Embedding model', (_, c) => ragOnly(c)?.embedding_model],
  ['Vector store', (i, c) => [ragOnly(c)?.vector_store, i.vector_db_key]],
  ['LLM provider', (_, c) => c.llm?.provider],
  ['LLM model', (_, c) => c.llm?.model],
  ['API key', (i) => i.llm_key],
  ['System prompt', (_, c) => c.system_prompt],
  ['Query engine', (_, c) => sqlOnly(c)?.framework],
  ['UI framework', (_, c) => c.ui],
  // Builds from before snapshots kept them shipped none.
  ['Curated answers', (i) => i.curated_answers ?? []],
];

/** What differs between two builds, in words; the first build says so. */
export function changesBetween(previous: TBuildInputs | null, current: TBuildInputs | null) {
  if (!current) return [];
  if (!previous) return ['First build'];
  return PARTS.filter(
    ([, part]) =>
      !isDeepStrictEqual(part(previous, previous.config), part(current, current.config)),
  ).map(([label]) => label);
}

/**
 * What a build changed in the agent's knowledge, in words: "added stations.csv", "new version
 * of prices.pdf", "removed faq.txt", "refreshed parts: 10 rows changed".
 */
export function knowledgeChangesOf(build: Pick<Build, 'knowledgeChanges'>): string[] {
  const parsed = ZKnowledgeChanges.safeParse(build.knowledgeChanges);
  return parsed.success ? parsed.data.map(describeKnowledgeChange) : [];
}

function describeKnowledgeChange({ name, change }: TKnowledgeChange): string {
  if (change.startsWith('refreshed: ')) return `refreshed ${name}: ${change.slice(11)}`;
  switch (change) {
    case 'added':
      return `added ${name}`;
    case 'removed':
      return `removed ${name}`;
    case 'new version':
      return `new version of ${name}`;
    case 'read again':
      return `read ${name} again`;
    default:
      return `${name}: ${change}`;
  }
}
