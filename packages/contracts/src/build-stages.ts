import type { TAgentType } from './enums';

/**
 * The stages of a build. Each stage has a key, which names the work the builder worker does in
 * it, and a label, which is what the build screen shows (SPEC §9, verbatim). Code picks work by
 * key and never by label, so a label can be reworded without touching the worker.
 *
 * Both agent kinds start by validating and planning the configuration: the worker does that
 * once, before any other step, and every later step reads the plan it made.
 */
export const BUILD_STAGE_KEYS = [
  'validate_config',
  'train_embeddings',
  'load_source',
  'set_up_vector_store',
  'profile_schema',
  'configure_query_engine',
  'integrate_models',
  'secure_sql_access',
  'generate_code',
  'package_container',
  'store_artifact',
  'complete',
] as const;
export type TBuildStageKey = (typeof BUILD_STAGE_KEYS)[number];

export interface BuildStageDefinition<K extends TBuildStageKey = TBuildStageKey> {
  readonly key: K;
  readonly label: string;
}

/** A build's stages in order; the first always validates and plans the configuration. */
export type BuildStageList = readonly [
  BuildStageDefinition<'validate_config'>,
  ...BuildStageDefinition<Exclude<TBuildStageKey, 'validate_config'>>[],
];

export const BUILD_STAGES = {
  // RAG (SPEC §9: eight stages). "training embeddings" reads and chunks the source and embeds
  // every chunk with the agent's model into the hosted index its previews and published agent
  // answer from (the downloaded agent indexes its own store where it runs).
  rag: [
    { key: 'validate_config', label: 'initializing environment' },
    { key: 'train_embeddings', label: 'training embeddings' },
    { key: 'set_up_vector_store', label: 'setting up databases' },
    { key: 'integrate_models', label: 'integrating AI models' },
    { key: 'generate_code', label: 'generating code' },
    { key: 'package_container', label: 'deploying container' },
    { key: 'store_artifact', label: 'finalizing build' },
    { key: 'complete', label: 'build complete' },
  ],
  // SQL (SPEC §9: ten stages).
  sql: [
    { key: 'validate_config', label: 'initializing environment' },
    { key: 'load_source', label: 'loading data source' },
    { key: 'profile_schema', label: 'profiling schema' },
    { key: 'configure_query_engine', label: 'configuring query engine' },
    { key: 'integrate_models', label: 'integrating AI models' },
    { key: 'secure_sql_access', label: 'securing SQL access' },
    { key: 'generate_code', label: 'generating code' },
    { key: 'package_container', label: 'deploying container' },
    { key: 'store_artifact', label: 'finalizing build' },
    { key: 'complete', label: 'build complete' },
  ],
} as const satisfies Record<TAgentType, BuildStageList>;

/** The stages of an agent kind, with their keys. */
export function buildStageListOf(type: TAgentType): BuildStageList {
  return BUILD_STAGES[type];
}

/** The labels the build screen shows for an agent kind, in order. */
export function buildStagesOf(type: TAgentType): readonly string[] {
  return BUILD_STAGES[type].map((stage) => stage.label);
}

export const RAG_BUILD_STAGES: readonly string[] = buildStagesOf('rag');
export const SQL_BUILD_STAGES: readonly string[] = buildStagesOf('sql');
