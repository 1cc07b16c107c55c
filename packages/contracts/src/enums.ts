import { z } from 'zod';
import { LLM_MODELS, LLM_PROVIDER_IDS } from './llm-providers';
import { VECTOR_STORE_IDS } from './vector-store-catalog';
import { DATABASE_SOURCE_CATALOG } from './database-catalog';
import type { TDatabaseSourceType } from './sources';

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
  ...(Object.fromEntries(
    Object.entries(DATABASE_SOURCE_CATALOG).map(([type, spec]) => [type, spec.label]),
  ) as Record<TDatabaseSourceType, string>),
};

/** The providers' facts (labels, key pages, models, addresses): llm-providers.ts. */
export const LLM_PROVIDERS = LLM_PROVIDER_IDS;
export const ZLlmProvider = z.enum(LLM_PROVIDERS);
export type TLlmProvider = z.infer<typeof ZLlmProvider>;

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

/** The stores' facts (labels, URLs, Python modules): vector-store-catalog.ts. */
export const VECTOR_STORES = VECTOR_STORE_IDS;
export const ZVectorStore = z.enum(VECTOR_STORES);
export type TVectorStore = z.infer<typeof ZVectorStore>;

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
