import {
  isFileSourceType,
  SOURCE_TYPE_LABELS,
  TLlmSettingsView,
  TPipelineConfig,
  TPipelineDetail,
  TPipelineListItem,
  wizardSteps as stepsOf,
  readPipelineConfig,
  storedPartsOf,
} from '@agentloom/contracts';
import type { Pipeline } from '@agentloom/db';

/** The stored configuration, checked: a row that no longer fits the schema is a bug, not input. */
export function readConfig(
  pipeline: Pick<Pipeline, 'id' | 'agentType' | 'config'>,
): TPipelineConfig {
  const parsed = readPipelineConfig(pipeline.agentType, pipeline.config);
  if (!parsed.success) {
    throw new Error(
      `Pipeline ${pipeline.id} holds an invalid configuration: ${parsed.error.message}`,
    );
  }
  return parsed.data;
}

/** The pipeline's wizard steps and whether each is done (the rule lives in contracts). */
export function wizardSteps(pipeline: Pipeline, config: TPipelineConfig) {
  return stepsOf(config, storedPartsOf(pipeline));
}

const UI_LABELS = { gradio: 'Gradio', streamlit: 'Streamlit' } as const;

/** "RAG over sales.csv · gpt-4o-mini · Streamlit" — as much as is configured so far. */
export function describePipeline(pipeline: Pipeline, config: TPipelineConfig): string {
  const kind = pipeline.agentType === 'rag' ? 'RAG' : 'SQL';
  let source: string | undefined;
  if (config.file && isFileSourceType(config.source_type)) source = config.file.original_name;
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
    file: isFileSourceType(config.source_type) ? (config.file ?? null) : null,
    database: !isFileSourceType(config.source_type) ? (config.database ?? null) : null,
  };
  if (config.agent_type === 'rag') {
    const store = config.vector_store;
    return {
      ...base,
      agent_type: 'rag',
      config: {
        source_type: config.source_type ?? null,
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
      source_type: config.source_type ?? null,
      ...source,
      llm,
      system_prompt: config.system_prompt ?? null,
      framework: config.framework ?? null,
      ui: config.ui ?? null,
    },
  };
}
