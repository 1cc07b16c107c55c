import { z } from 'zod';

/**
 * The product's vocabularies (docs/product.md). Values are the wire values the web app sends;
 * labels are what people see. Renaming a value breaks stored configurations — add, never rename.
 */

export const AGENT_TYPES = ['rag', 'sql'] as const;
export const ZAgentType = z.enum(AGENT_TYPES);
export type TAgentType = z.infer<typeof ZAgentType>;

export const PIPELINE_STATUSES = ['Draft', 'Building', 'Built', 'Failed'] as const;
export const ZPipelineStatus = z.enum(PIPELINE_STATUSES);
export type TPipelineStatus = z.infer<typeof ZPipelineStatus>;

export const RAG_SOURCE_TYPES = [
  'pdf',
  'csv',
  'excel',
  'text_file',
  'postgres',
  'mysql',
  'sqlite',
  'mongo',
] as const;
export const ZRagSourceType = z.enum(RAG_SOURCE_TYPES);
export type TRagSourceType = z.infer<typeof ZRagSourceType>;

export const SQL_SOURCE_TYPES = ['csv', 'excel', 'mysql', 'postgres', 'sqlite'] as const;
export const ZSqlSourceType = z.enum(SQL_SOURCE_TYPES);
export type TSqlSourceType = z.infer<typeof ZSqlSourceType>;

export const SOURCE_TYPE_LABELS: Record<TRagSourceType, string> = {
  pdf: 'PDF',
  csv: 'CSV',
  excel: 'Excel',
  text_file: 'TXT',
  postgres: 'Postgres',
  mysql: 'MySQL',
  sqlite: 'SQLite',
  mongo: 'MongoDB',
};

export const LLM_PROVIDERS = ['openai', 'claude', 'groq', 'gemini', 'deepseek'] as const;
export const ZLlmProvider = z.enum(LLM_PROVIDERS);
export type TLlmProvider = z.infer<typeof ZLlmProvider>;

export const LLM_PROVIDER_LABELS: Record<TLlmProvider, string> = {
  openai: 'OpenAI',
  claude: 'Claude',
  groq: 'Groq',
  gemini: 'Gemini',
  deepseek: 'Deepseek',
};

/**
 * Models offered per provider. The product's Claude list once ended with a `{token}` placeholder,
 * which is not a model and is deliberately absent.
 */
export const LLM_MODELS = {
  openai: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini'],
  claude: ['claude-3.5-haiku-20241022', 'claude-3.7-sonnet-20250219', 'claude-4-opus-20250522'],
  groq: ['llama3-70b-8192', 'llama3-8b-8192', 'llama-3.1-8b-instant', 'llama-3.3-70b-versatile'],
  gemini: [
    'gemini-1.5-flash',
    'gemini-1.5-flash-001',
    'gemini-1.5-flash-001-tuning',
    'gemini-1.5-flash-002',
    'gemini-1.5-flash-8b',
    'gemini-1.5-flash-8b-001',
    'gemini-2.0-flash',
    'gemini-2.0-flash-001',
    'gemini-2.0-flash-lite',
    'gemini-2.0-flash-lite-001',
  ],
  deepseek: ['deepseek-chat', 'deepseek-coder-v2', 'deepseek-reasoner', 'deepseek-v2.5-chat'],
} as const satisfies Record<TLlmProvider, readonly string[]>;

export type TLlmModel = (typeof LLM_MODELS)[TLlmProvider][number];

/**
 * The wizard's models (docs/product.md#the-wizard-embedding-model), OpenAI's current two included
 * (their catalogue: embedding-catalog.ts).
 */
export const EMBEDDING_MODELS = [
  'text-embedding-ada-002',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'all-MiniLM-L6-v2',
  'all-MiniLM-L12-v2',
  'sentence-t5-base',
  'bge-small-en',
  'e5-small-v2',
] as const;
export const ZEmbeddingModel = z.enum(EMBEDDING_MODELS);
export type TEmbeddingModel = z.infer<typeof ZEmbeddingModel>;

export const VECTOR_STORES = ['chromadb', 'qdrant', 'milvus', 'pinecone'] as const;
export const ZVectorStore = z.enum(VECTOR_STORES);
export type TVectorStore = z.infer<typeof ZVectorStore>;

export const VECTOR_STORE_LABELS: Record<TVectorStore, string> = {
  chromadb: 'ChromaDB',
  qdrant: 'Qdrant',
  milvus: 'Milvus',
  pinecone: 'Pinecone',
};

/**
 * Where the generated project's docker-compose.yml runs each self-hosted store: its service
 * name on the project's network (apps/builder-worker/templates/rag/compose). The wizard offers
 * it as the default, so nobody has to know what a vector store URL is.
 */
export const COMPOSE_VECTOR_STORE_URLS = {
  chromadb: 'http://chromadb:8000',
  qdrant: 'http://qdrant:6333',
  milvus: 'http://milvus:19530',
} as const satisfies Record<Exclude<TVectorStore, 'pinecone'>, string>;

export const DISTANCE_METRICS = ['cosine', 'euclidean', 'dot'] as const;
export const ZDistanceMetric = z.enum(DISTANCE_METRICS);
export type TDistanceMetric = z.infer<typeof ZDistanceMetric>;

export const DEFAULT_VECTOR_DIMENSIONS = 384;
export const DEFAULT_DISTANCE_METRIC: TDistanceMetric = 'cosine';

export const UI_FRAMEWORKS = ['gradio', 'streamlit'] as const;
export const ZUiFramework = z.enum(UI_FRAMEWORKS);
export type TUiFramework = z.infer<typeof ZUiFramework>;

export const SQL_FRAMEWORKS = [
  'pandasai',
  'vannaai_file',
  'vannaai_db',
  'sql_query_file',
  'sql_query_db',
] as const;
export const ZSqlFramework = z.enum(SQL_FRAMEWORKS);
export type TSqlFramework = z.infer<typeof ZSqlFramework>;
