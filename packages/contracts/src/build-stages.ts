import type { TAgentType } from './enums';

/**
 * The stages of a build. A stage's key names the work the builder worker does in it; the build row,
 * the job's progress and the build screen's API all carry keys. Its label is what the build screen
 * shows (docs/product.md#build-progress-preview-and-download, verbatim) and is read only for
 * display, so a label can be reworded without touching stored builds, the worker or the live feed.
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

/** A build's stages in order; the first always validates and plans the configuration. */
export type BuildStageList = readonly [
  'validate_config',
  ...Exclude<TBuildStageKey, 'validate_config'>[],
];

export const BUILD_STAGES = {
  // RAG (eight stages). "training embeddings" reads and chunks the source and embeds
  // every chunk with the agent's model into the hosted index its previews and published agent
  // answer from (the downloaded agent indexes its own store where it runs).
  rag: [
    'validate_config',
    'train_embeddings',
    'set_up_vector_store',
    'integrate_models',
    'generate_code',
    'package_container',
    'store_artifact',
    'complete',
  ],
  // SQL (ten stages).
  sql: [
    'validate_config',
    'load_source',
    'profile_schema',
    'configure_query_engine',
    'integrate_models',
    'secure_sql_access',
    'generate_code',
    'package_container',
    'store_artifact',
    'complete',
  ],
} as const satisfies Record<TAgentType, BuildStageList>;

/**
 * What the build screen calls each stage (verbatim). Display only: nothing stores,
 * sends or compares a label. Read it at render time (stageLabel), never copy it into data.
 */
export const BUILD_STAGE_LABELS: Record<TBuildStageKey, string> = {
  validate_config: 'initializing environment',
  train_embeddings: 'training embeddings',
  load_source: 'loading data source',
  set_up_vector_store: 'setting up databases',
  profile_schema: 'profiling schema',
  configure_query_engine: 'configuring query engine',
  integrate_models: 'integrating AI models',
  secure_sql_access: 'securing SQL access',
  generate_code: 'generating code',
  package_container: 'deploying container',
  store_artifact: 'finalizing build',
  complete: 'build complete',
};

/** The stage keys of an agent kind, in order. */
export function buildStagesOf(type: TAgentType): BuildStageList {
  return BUILD_STAGES[type];
}

/** The text the build screen shows for a stage. */
export function stageLabel(key: TBuildStageKey): string {
  return BUILD_STAGE_LABELS[key];
}

export const RAG_BUILD_STAGES: BuildStageList = BUILD_STAGES.rag;
export const SQL_BUILD_STAGES: BuildStageList = BUILD_STAGES.sql;
