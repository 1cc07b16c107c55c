import {
  DEFAULT_DISTANCE_METRIC,
  isFileSourceType,
  isUuid,
  retrievalOf,
  RAG_SOURCE_TYPES,
  RELEVANCE_THRESHOLDS,
  SQL_FRAMEWORK_NEEDS,
  SQL_SOURCE_TYPES,
  UPLOAD_EXTENSIONS,
  type TDistanceMetric,
  type TEmbeddingModel,
  type TLlmProvider,
  type TPipelineConfig,
  type TRagPipelineConfig,
  type TSqlPipelineConfig,
  type TRagSourceType,
  type TSearchMode,
  type TSqlFramework,
  type TUiFramework,
  type TVectorStore,
} from '@agentloom/contracts';
import { CURATED_MATCH_THRESHOLDS, CURATED_WORDS_OVERLAP } from '@agentloom/agent-runtime';
import { EMBEDDINGS, PROVIDERS, UIS, providerModelId } from './catalog';
import { manifestSources, type ManifestKnowledgeSource } from './manifest-sources';
import { ProjectInputError, type ProjectInput } from './types';

/**
 * agent.json: the generated project's whole configuration, without secrets. The Python code
 * reads everything user-specific from it (and the prompt from `prompt_file`) at run time.
 * Bump the version when a field changes meaning; the Python refuses versions it does not know.
 */
export const AGENT_MANIFEST_VERSION = 1;
export const PROMPT_FILE = 'prompts/system.txt';
export const DATA_DIR = 'data';
export const CHUNKS_FILE = `${DATA_DIR}/chunks.jsonl`;
export const CURATED_FILE = `${DATA_DIR}/curated_answers.json`;

/**
 * What every generated RAG agent reads besides its owner's retrieval settings (chunk size and
 * overlap, passages per answer: `retrievalOf(config)`, as the hosted agents read them).
 */
export const RAG_DEFAULTS = {
  /** Rows read from a database source at startup. */
  max_source_rows: 10_000,
  question_template:
    'Answer the question using only the numbered passages below. Cite the passages you use ' +
    'like [1] or [2]. If the passages do not contain the answer, say that you do not know.\n\n' +
    'Passages:\n{context}\n\nQuestion: {question}',
} as const;

export const SQL_DEFAULTS = { max_rows: 200, timeout_seconds: 15 } as const;

export interface ManifestSource {
  type: TRagSourceType;
  /** File sources: the shipped file, relative to the project. */
  file?: string;
  /** The uploader's file name, for citations; display only. */
  original_name?: string;
  /** Excel: the sheet the agent reads. */
  sheet?: string;
  /** Database sources. */
  database?: string;
  /** Table, or collection for MongoDB. */
  table?: string;
  columns?: ({ name: string; type: string } | string)[] | null;
  /** RAG: chunks prepared at build time. */
  chunks_file?: string;
}

export interface AgentManifest {
  version: typeof AGENT_MANIFEST_VERSION;
  generator: 'agentloom';
  session_id: string;
  type: 'rag' | 'sql';
  name: string;
  prompt_file: typeof PROMPT_FILE;
  /** The wizard's source (for RAG agents, the first of `sources`). */
  source: ManifestSource;
  /** RAG: every knowledge source the agent answers from (manifest-sources.ts). */
  sources?: ManifestKnowledgeSource[];
  llm: {
    provider: TLlmProvider;
    model: string;
    /** The model as the provider's API knows it. */
    model_id: string;
    api_key_env: string;
    temperature: number;
    max_tokens: number;
  };
  ui: { framework: TUiFramework; port: number };
  embedding?: {
    model: TEmbeddingModel;
    backend: 'openai' | 'sentence-transformers';
    model_id: string;
    dimensions: number;
    query_prefix: string;
    passage_prefix: string;
    /** Local models: what ONNX Runtime loads and how (agent/local_model.py). */
    onnx?: { model_id: string; pooling: 'mean' | 'cls'; max_tokens: number };
  };
  vector_store?: {
    provider: TVectorStore;
    /** ChromaDB, Qdrant, Milvus: the URL chosen in the builder (VECTOR_STORE_URL overrides). */
    url?: string;
    /** The collection (ChromaDB, Qdrant, Milvus) or Pinecone namespace of this agent. */
    collection: string;
    distance_metric: TDistanceMetric;
    /** The embedding model's size: vectors of any other size would not fit. */
    dimensions: number;
    environment?: string;
    index_name?: string;
  };
  rag?: {
    chunk_size: number;
    chunk_overlap: number;
    top_k: number;
    /** By meaning (the vector store), by words (BM25 over the passages) or both, fused. */
    search: TSearchMode;
    /** When no passage is relevant, the agent says it does not know instead of answering. */
    answer_only_from_sources: boolean;
    /** The similarity from which a passage found by meaning is relevant (cosine stores). */
    relevance_threshold: number;
    max_source_rows: number;
    question_template: string;
  };
  sql?: { framework: TSqlFramework; max_rows: number; timeout_seconds: number };
  /**
   * The owner's curated answers (agent/curated.py), compared as the hosted agents compare them:
   * RAG agents by meaning, the cosine similarity of the embedding model's unit vectors reaching
   * `threshold` (agent-runtime's CURATED_MATCH_THRESHOLDS); SQL agents, which have no embedding
   * model, by the share of content words the two questions have in common (CURATED_WORDS_OVERLAP).
   */
  curated: { file: typeof CURATED_FILE; compare: 'meaning' | 'words'; threshold: number };
}

const SAFE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function assertSessionId(sessionId: string): void {
  if (!isUuid(sessionId)) throw new ProjectInputError('sessionId must be a UUID.');
}

function required<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null || value === '') {
    throw new ProjectInputError(`The configuration has no ${what}.`);
  }
  return value;
}

/**
 * Check the input is complete and consistent, and describe it as agent.json. The configuration
 * arrives parsed (the worker's build plan read it once, at its boundary): only what a project
 * needs on top of a valid configuration is checked here.
 */
export function buildManifest(input: ProjectInput): AgentManifest {
  assertSessionId(input.sessionId);
  if (typeof input.name !== 'string') throw new ProjectInputError('name must be a string.');
  if (input.agentType !== 'rag' && input.agentType !== 'sql') {
    throw new ProjectInputError('agentType must be rag or sql.');
  }
  const config = input.config;
  if (config.agent_type !== input.agentType) {
    throw new ProjectInputError(`The configuration is for a ${config.agent_type} agent.`);
  }
  if (input.agentType === 'sql' && (input.chunksFile || input.sources)) {
    throw new ProjectInputError('Chunks and knowledge sources are for RAG agents only.');
  }

  const provider = required(config.llm?.provider, 'LLM provider');
  const model = required(config.llm?.model, 'LLM model');
  let modelId: string;
  try {
    modelId = providerModelId(provider, model);
  } catch (error) {
    throw new ProjectInputError((error as Error).message);
  }
  required(config.system_prompt, 'system prompt');
  const ui = required(config.ui, 'UI framework');

  const manifest: AgentManifest = {
    version: AGENT_MANIFEST_VERSION,
    generator: 'agentloom',
    session_id: input.sessionId,
    type: input.agentType,
    name: input.name,
    prompt_file: PROMPT_FILE,
    source: buildSource(input, config),
    llm: {
      provider,
      model,
      model_id: modelId,
      api_key_env: PROVIDERS[provider].apiKeyEnv,
      temperature: 0,
      max_tokens: 1024,
    },
    ui: { framework: ui, port: UIS[ui].port },
    curated: { file: CURATED_FILE, compare: 'words', threshold: CURATED_WORDS_OVERLAP },
  };
  return config.agent_type === 'rag' ? withRag(manifest, input, config) : withSql(manifest, config);
}

function buildSource(input: ProjectInput, config: TPipelineConfig): ManifestSource {
  const type = required(config.source_type, 'source type');
  const allowed: readonly string[] =
    input.agentType === 'rag' ? RAG_SOURCE_TYPES : SQL_SOURCE_TYPES;
  if (!allowed.includes(type)) {
    throw new ProjectInputError(`A ${input.agentType} agent cannot use a ${type} source.`);
  }

  if (isFileSourceType(type)) {
    const file = required(config.file, 'uploaded file');
    if (file.summary.kind !== type) {
      throw new ProjectInputError(`The uploaded file is ${file.summary.kind}, not ${type}.`);
    }
    const sourceFile = required(input.sourceFile, 'source file (sourceFile)');
    const name = sourceFile.dataFileName;
    if (!SAFE_FILE_NAME.test(name) || name === 'chunks.jsonl' || name.includes('..')) {
      throw new ProjectInputError(`${JSON.stringify(name)} is not a safe data file name.`);
    }
    if (!name.toLowerCase().endsWith(UPLOAD_EXTENSIONS[type])) {
      throw new ProjectInputError(`A ${type} source must end in ${UPLOAD_EXTENSIONS[type]}.`);
    }
    const summary = file.summary;
    return {
      type,
      file: `${DATA_DIR}/${name}`,
      original_name: file.original_name,
      ...(summary.kind === 'excel' ? { sheet: summary.sheet } : {}),
      ...(summary.kind === 'csv' || summary.kind === 'excel' ? { columns: summary.columns } : {}),
      ...(input.chunksFile ? { chunks_file: CHUNKS_FILE } : {}),
    };
  }

  if (input.sourceFile) throw new ProjectInputError('sourceFile is for file sources only.');
  const database = required(config.database, 'database details');
  if (database.type !== type) {
    throw new ProjectInputError(`The database details are for ${database.type}, not ${type}.`);
  }
  return {
    type,
    database: database.database,
    table: database.table,
    columns: database.columns,
    ...(input.chunksFile ? { chunks_file: CHUNKS_FILE } : {}),
  };
}

function withRag(
  manifest: AgentManifest,
  input: ProjectInput,
  config: TRagPipelineConfig,
): AgentManifest {
  const model = required(config.embedding_model, 'embedding model');
  const store = required(config.vector_store, 'vector store');
  const embedding = EMBEDDINGS[model];
  const collection = `agent_${input.sessionId.toLowerCase().replace(/-/g, '')}`;
  const common = {
    provider: store.vector_db,
    collection,
    distance_metric: store.distance_metric ?? DEFAULT_DISTANCE_METRIC,
    dimensions: embedding.dimensions,
  };
  const vectorStore =
    store.vector_db === 'pinecone'
      ? {
          ...common,
          environment: required(store.environment, 'Pinecone environment'),
          index_name: required(store.index_name, 'Pinecone index name'),
        }
      : { ...common, url: required(store.url, 'vector store URL') };

  return {
    ...manifest,
    embedding: {
      model,
      backend: embedding.backend,
      model_id: embedding.modelId,
      dimensions: embedding.dimensions,
      query_prefix: embedding.queryPrefix,
      passage_prefix: embedding.passagePrefix,
      ...(embedding.onnx
        ? {
            onnx: {
              model_id: embedding.onnx.modelId,
              pooling: embedding.onnx.pooling,
              max_tokens: embedding.onnx.maxTokens,
            },
          }
        : {}),
    },
    vector_store: vectorStore,
    sources: manifestSources(input, manifest.source).sources,
    rag: { ...ragSettings(config, model), ...RAG_DEFAULTS },
    curated: { file: CURATED_FILE, compare: 'meaning', threshold: CURATED_MATCH_THRESHOLDS[model] },
  };
}

/** The owner's retrieval settings the generated agent follows. */
function ragSettings(config: TRagPipelineConfig, model: TEmbeddingModel) {
  const settings = retrievalOf(config);
  return {
    chunk_size: settings.chunk_size,
    chunk_overlap: settings.chunk_overlap,
    top_k: settings.top_k,
    search: settings.search,
    answer_only_from_sources: settings.answer_only_from_sources,
    relevance_threshold: RELEVANCE_THRESHOLDS[model],
  };
}

function withSql(manifest: AgentManifest, config: TSqlPipelineConfig): AgentManifest {
  const framework = required(config.framework, 'SQL framework');
  const sources: readonly string[] = SQL_FRAMEWORK_NEEDS[framework].sources;
  if (!sources.includes(manifest.source.type)) {
    throw new ProjectInputError(
      `The ${framework} framework cannot serve a ${manifest.source.type} source.`,
    );
  }
  return { ...manifest, sql: { framework, ...SQL_DEFAULTS } };
}
