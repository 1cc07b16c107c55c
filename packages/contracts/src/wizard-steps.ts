import { isStorableModel } from './llm-models';
import {
  RAG_WIZARD_STEPS,
  SQL_WIZARD_STEPS,
  type TPipelineConfig,
  type TRagPipelineConfig,
} from './pipelines';
import { isFileSourceType } from './sources';
import { SQL_FRAMEWORK_NEEDS } from './wizard';

/**
 * When is a wizard step complete? One rule for the gateway (which lists the missing steps and
 * refuses to build before they are done) and the builder-worker (which checks again before it
 * builds), so the two can never disagree.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);

/** Which secrets and files a pipeline holds outside its configuration JSON. */
export interface StoredPipelineParts {
  sourceFile: boolean;
  sourceUri: boolean;
  /** A typed key or a key of the owner's vault. */
  llmKey: boolean;
  vectorDbKey: boolean;
}

/** The columns of a pipeline row (packages/db) that hold its stored parts. */
export interface PipelinePartColumns {
  sourceFile: string | null;
  sourceUriEncrypted: string | null;
  llmApiKeyEncrypted: string | null;
  llmApiKeyId: string | null;
  vectorDbApiKeyEncrypted: string | null;
}

/** Which parts a pipeline row holds: the one mapping the gateway and the worker both use. */
export function storedPartsOf(row: PipelinePartColumns): StoredPipelineParts {
  return {
    sourceFile: Boolean(row.sourceFile),
    sourceUri: Boolean(row.sourceUriEncrypted),
    llmKey: Boolean(row.llmApiKeyEncrypted || row.llmApiKeyId),
    vectorDbKey: Boolean(row.vectorDbApiKeyEncrypted),
  };
}

/** Whether the chosen SQL framework can serve the chosen source. */
export function frameworkFitsSource(framework: string, sourceType: string | undefined): boolean {
  const sources: readonly string[] | undefined =
    SQL_FRAMEWORK_NEEDS[framework as keyof typeof SQL_FRAMEWORK_NEEDS]?.sources;
  return sources?.includes(sourceType ?? '') ?? false;
}

/** The source step is done when the details on record belong to the source type on record. */
function sourceDetailsComplete(config: TPipelineConfig, stored: StoredPipelineParts): boolean {
  if (isFileSourceType(config.source_type)) {
    return stored.sourceFile && config.file?.summary.kind === config.source_type;
  }
  return Boolean(
    config.source_type && stored.sourceUri && config.database?.type === config.source_type,
  );
}

function llmComplete(config: TPipelineConfig, stored: StoredPipelineParts): boolean {
  const { provider, model } = config.llm ?? {};
  return Boolean(provider && model && isStorableModel(provider, model) && stored.llmKey);
}

function vectorStoreComplete(config: TRagPipelineConfig, stored: StoredPipelineParts): boolean {
  const store = config.vector_store;
  if (!store) return false;
  if (store.vector_db === 'pinecone') {
    return Boolean(store.environment && store.index_name && stored.vectorDbKey);
  }
  return Boolean(store.url);
}

export interface WizardStepState {
  key: string;
  label: string;
  complete: boolean;
}

/** Each step of the agent's wizard, and whether its answers are complete. */
export function wizardSteps(
  config: TPipelineConfig,
  stored: StoredPipelineParts,
): WizardStepState[] {
  const done: Record<string, boolean> = {
    name: true,
    source_type: Boolean(config.source_type),
    source_details: sourceDetailsComplete(config, stored),
    llm: llmComplete(config, stored),
    system_prompt: Boolean(config.system_prompt),
    ui: Boolean(config.ui),
  };
  if (config.agent_type === 'rag') {
    done.embedding = Boolean(config.embedding_model);
    done.vector_store = vectorStoreComplete(config, stored);
  } else {
    done.framework = Boolean(
      config.framework && frameworkFitsSource(config.framework, config.source_type),
    );
  }
  const steps = config.agent_type === 'rag' ? RAG_WIZARD_STEPS : SQL_WIZARD_STEPS;
  return steps.map(({ key, label }) => ({ key, label, complete: done[key] ?? false }));
}
