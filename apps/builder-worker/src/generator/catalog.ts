import {
  EMBEDDING_CATALOG,
  isStorableModel,
  LLM_PROVIDER_CATALOG,
  LLM_PROVIDERS,
  modelApiId,
  type LlmPythonPackage,
  type TEmbeddingModel,
  type TLlmProvider,
  type TSqlFramework,
  type TUiFramework,
  type TVectorStore,
  VECTOR_STORE_CATALOG,
  type VectorStoreSpec as StoreDescriptor,
} from '@agentloom/contracts';

/**
 * What each choice of the wizard means for the generated project. Every table is keyed by a
 * contracts enum value, never by free text: these are the only values that reach templates.
 */

export interface EmbeddingSpec {
  backend: 'openai' | 'sentence-transformers';
  /** The id the backend loads: OpenAI's model name or the Hugging Face repository. */
  modelId: string;
  dimensions: number;
  /** Text put before queries / passages, for models trained that way (e5, BGE). */
  queryPrefix: string;
  passagePrefix: string;
  /**
   * Local models: how ONNX Runtime runs them on the CPU (the project's default, a small install):
   * the ONNX port the hosted agents run too, how its token vectors are pooled, and where a text
   * is cut, as sentence-transformers (the project's PyTorch path, for GPUs) cuts it.
   */
  onnx?: { modelId: string; pooling: 'mean' | 'cls'; maxTokens: number };
}

/**
 * The contracts' embedding catalogue as the generated project's Python reads it: local models
 * run through ONNX Runtime (or sentence-transformers on a GPU), with the same repository,
 * prefixes and size the platform's own hosted index used, so the zip's answers match the
 * preview's.
 */
export const EMBEDDINGS = Object.fromEntries(
  Object.entries(EMBEDDING_CATALOG).map(([model, spec]) => [
    model,
    {
      backend: spec.backend === 'openai' ? 'openai' : 'sentence-transformers',
      modelId: spec.modelId,
      dimensions: spec.dimensions,
      queryPrefix: spec.queryPrefix,
      passagePrefix: spec.passagePrefix,
      ...(spec.onnxModelId && spec.maxTokens
        ? { onnx: { modelId: spec.onnxModelId, pooling: spec.pooling, maxTokens: spec.maxTokens } }
        : {}),
    } satisfies EmbeddingSpec,
  ]),
) as Record<TEmbeddingModel, EmbeddingSpec>;

export interface ProviderSpec {
  /** The provider's own spelling: the generated README and .env.example are prose. */
  label: string;
  /** The Python SDK the agent talks to its provider with (templates/common/agent/llm.py). */
  sdk: LlmPythonPackage;
  /** The environment variable the agent reads the key from. */
  apiKeyEnv: string;
}

/** The contracts' provider catalogue, as the generated project uses it. */
export const PROVIDERS = Object.fromEntries(
  LLM_PROVIDERS.map((provider) => {
    const spec = LLM_PROVIDER_CATALOG[provider];
    return [provider, { label: spec.name, sdk: spec.pythonPackage, apiKeyEnv: spec.apiKeyEnv }];
  }),
) as Record<TLlmProvider, ProviderSpec>;

/**
 * The model as the provider's API knows it, e.g. `claude-3-5-haiku-20241022`: the contracts'
 * catalogue, the same map the preview uses, so a built agent calls what its preview called.
 */
export function providerModelId(provider: TLlmProvider, model: string): string {
  if (!isStorableModel(provider, model)) {
    throw new Error(`${model} is not a ${PROVIDERS[provider].label} model.`);
  }
  return modelApiId(provider, model);
}

export interface UiSpec {
  label: string;
  port: number;
  /** A URL that answers 200 once the UI serves, checked from inside the container. */
  healthcheckUrl: string;
  /** The container's command, as a Dockerfile exec-form array. */
  dockerCommand: readonly string[];
  /** How to start it on a developer's machine. */
  localCommand: string;
  template: string;
}

export const UIS: Record<TUiFramework, UiSpec> = {
  streamlit: {
    label: 'Streamlit',
    port: 8501,
    healthcheckUrl: 'http://127.0.0.1:8501/_stcore/health',
    dockerCommand: ['streamlit', 'run', 'app.py', '--server.address=0.0.0.0', '--server.port=8501'],
    localCommand: 'streamlit run app.py',
    template: 'common/ui/streamlit_app.py',
  },
  gradio: {
    label: 'Gradio',
    port: 7860,
    healthcheckUrl: 'http://127.0.0.1:7860/',
    dockerCommand: ['python', 'app.py', '--host', '0.0.0.0', '--port', '7860'],
    localCommand: 'python app.py',
    template: 'common/ui/gradio_app.py',
  },
};

export interface VectorStoreSpec {
  label: string;
  /** The store's module in the generated `agent/stores/` package. */
  module: string;
  /** Whether docker-compose.yml runs the store next to the agent. */
  selfHosted: boolean;
  /** Where docker-compose.yml publishes it on the developer's machine. */
  localUrl?: string;
}

/** The contracts' vector store catalogue, as the generated project uses it. */
export const VECTOR_STORES = Object.fromEntries(
  Object.entries(VECTOR_STORE_CATALOG).map(([store, spec]: [string, StoreDescriptor]) => [
    store,
    {
      label: spec.label,
      module: spec.pythonModule,
      selfHosted: !spec.hosted,
      localUrl: spec.localUrl,
    } satisfies VectorStoreSpec,
  ]),
) as Record<TVectorStore, VectorStoreSpec>;

export interface SqlFrameworkSpec {
  label: string;
  /** The engine template, copied to `agent/engine.py`. */
  engine: 'sql_query' | 'vanna' | 'pandasai';
}

export const SQL_FRAMEWORKS_SPEC: Record<TSqlFramework, SqlFrameworkSpec> = {
  sql_query_file: { label: 'SQL query (LLM-written SQL)', engine: 'sql_query' },
  sql_query_db: { label: 'SQL query (LLM-written SQL)', engine: 'sql_query' },
  vannaai_file: { label: 'Vanna', engine: 'vanna' },
  vannaai_db: { label: 'Vanna', engine: 'vanna' },
  pandasai: { label: 'PandasAI', engine: 'pandasai' },
};
