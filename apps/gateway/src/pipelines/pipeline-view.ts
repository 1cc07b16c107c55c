import {
  FILE_SOURCE_TYPES,
  isModelOfProvider,
  LLM_MODELS,
  RAG_WIZARD_STEPS,
  SOURCE_TYPE_LABELS,
  SQL_FRAMEWORK_SOURCES,
  SQL_WIZARD_STEPS,
  TLlmSettingsView,
  TPipelineConfig,
  TPipelineDetail,
  TPipelineListItem,
  UPLOAD_EXTENSIONS,
  ZPipelineConfig,
} from '@agentloom/contracts';
import type { Pipeline } from '@agentloom/db';

/** The stored configuration, checked: a row that no longer fits the schema is a bug, not input. */
export function readConfig(pipeline: Pick<Pipeline, 'id' | 'config'>): TPipelineConfig {
  const parsed = ZPipelineConfig.safeParse(pipeline.config ?? {});
  if (!parsed.success) {
    throw new Error(
      `Pipeline ${pipeline.id} holds an invalid configuration: ${parsed.error.message}`,
    );
  }
  return parsed.data;
}

const isFileSource = (type: string | undefined): type is keyof typeof UPLOAD_EXTENSIONS =>
  (FILE_SOURCE_TYPES as readonly string[]).includes(type ?? '');

/** The source step is done when the details on record belong to the source type on record. */
function sourceDetailsComplete(pipeline: Pipeline, config: TPipelineConfig): boolean {
  if (isFileSource(config.source_type)) {
    return Boolean(pipeline.sourceFile && config.file?.summary.kind === config.source_type);
  }
  return Boolean(
    config.source_type &&
    pipeline.sourceUriEncrypted &&
    config.database?.type === config.source_type,
  );
}

function llmComplete(pipeline: Pipeline, config: TPipelineConfig): boolean {
  const { provider, model } = config.llm ?? {};
  return Boolean(
    provider &&
    model &&
    isModelOfProvider(provider, model) &&
    (pipeline.llmApiKeyEncrypted || pipeline.llmApiKeyId),
  );
}

function vectorStoreComplete(pipeline: Pipeline, config: TPipelineConfig): boolean {
  const store = config.vector_store;
  if (!store) return false;
  if (store.vector_db === 'pinecone') {
    return Boolean(store.environment && store.index_name && pipeline.vectorDbApiKeyEncrypted);
  }
  return Boolean(store.url);
}

/** Whether the chosen SQL framework can serve the chosen source. */
export function frameworkFitsSource(framework: string, sourceType: string | undefined): boolean {
  const sources = SQL_FRAMEWORK_SOURCES[framework as keyof typeof SQL_FRAMEWORK_SOURCES];
  return (sources as readonly string[] | undefined)?.includes(sourceType ?? '') ?? false;
}

export function wizardSteps(pipeline: Pipeline, config: TPipelineConfig) {
  const done: Record<string, boolean> = {
    name: true,
    source_type: Boolean(config.source_type),
    source_details: sourceDetailsComplete(pipeline, config),
    embedding: Boolean(config.embedding_model),
    vector_store: vectorStoreComplete(pipeline, config),
    llm: llmComplete(pipeline, config),
    system_prompt: Boolean(config.system_prompt),
    framework: Boolean(
      config.framework && frameworkFitsSource(config.framework, config.source_type),
    ),
    ui: Boolean(config.ui),
  };
  const steps = pipeline.agentType === 'rag' ? RAG_WIZARD_STEPS : SQL_WIZARD_STEPS;
  return steps.map(({ key, label }) => ({ key, label, complete: done[key] ?? false }));
}

const UI_LABELS = { gradio: 'Gradio', streamlit: 'Streamlit' } as const;

/** "RAG over sales.csv · gpt-4o-mini · Streamlit" — as much as is configured so far. */
export function describePipeline(pipeline: Pipeline, config: TPipelineConfig): string {
  const kind = pipeline.agentType === 'rag' ? 'RAG' : 'SQL';
  let source: string | undefined;
  if (config.file && isFileSource(config.source_type)) source = config.file.original_name;
  else if (config.database && config.database.type === config.source_type) {
    source = `${config.database.table} (${SOURCE_TYPE_LABELS[config.database.type]})`;
  } else if (config.source_type) {
    source = SOURCE_TYPE_LABELS[config.source_type];
  }
  const parts = [source ? `${kind} over ${source}` : `${kind} agent`];
  if (config.llm?.model) parts.push(config.llm.model);
  else if (config.llm?.provider) parts.push(config.llm.provider);
  if (config.ui) parts.push(UI_LABELS[config.ui]);
  if (parts.length === 1 && !source) parts.push('not configured yet');
  return parts.join(' · ');
}

export function toListItem(pipeline: Pipeline): TPipelineListItem {
  return {
    id: pipeline.id,
    name: pipeline.name,
    description: describePipeline(pipeline, readConfig(pipeline)),
    status: pipeline.status,
    type: pipeline.agentType,
    created_at: pipeline.createdAt.toISOString(),
  };
}

/** Secrets as the owner may see them: masked, never in full. */
export interface MaskedSecrets {
  llmApiKey: string | null;
  vectorDbApiKey: string | null;
}

export function toDetail(pipeline: Pipeline, masked: MaskedSecrets): TPipelineDetail {
  const config = readConfig(pipeline);
  const steps = wizardSteps(pipeline, config);
  const llm: TLlmSettingsView = {
    provider: config.llm?.provider ?? null,
    model: config.llm?.model ?? null,
    api_key: masked.llmApiKey,
    api_key_id: pipeline.llmApiKeyId,
  };
  const base = {
    id: pipeline.id,
    session_id: pipeline.id,
    name: pipeline.name,
    description: describePipeline(pipeline, config),
    status: pipeline.status,
    created_at: pipeline.createdAt.toISOString(),
    updated_at: pipeline.updatedAt.toISOString(),
    steps,
    missing_steps: steps.filter((step) => !step.complete).map((step) => step.label),
  };
  const source = {
    file: isFileSource(config.source_type) ? (config.file ?? null) : null,
    database: !isFileSource(config.source_type) ? (config.database ?? null) : null,
  };
  if (pipeline.agentType === 'rag') {
    const store = config.vector_store;
    return {
      ...base,
      agent_type: 'rag',
      config: {
        source_type: (config.source_type as never) ?? null,
        ...source,
        embedding_model: config.embedding_model ?? null,
        vector_store: store
          ? {
              vector_db: store.vector_db,
              url: store.url ?? null,
              dimensions: store.dimensions ?? null,
              distance_metric: store.distance_metric ?? null,
              environment: store.environment ?? null,
              index_name: store.index_name ?? null,
              api_key: store.vector_db === 'pinecone' ? masked.vectorDbApiKey : null,
            }
          : null,
        llm,
        system_prompt: config.system_prompt ?? null,
        ui: config.ui ?? null,
      },
    };
  }
  return {
    ...base,
    agent_type: 'sql',
    config: {
      source_type: (config.source_type as never) ?? null,
      ...source,
      llm,
      system_prompt: config.system_prompt ?? null,
      framework: config.framework ?? null,
      ui: config.ui ?? null,
    },
  };
}

/** Every model the provider offers, for error messages. */
export const modelsOf = (provider: keyof typeof LLM_MODELS) => LLM_MODELS[provider].join(', ');
