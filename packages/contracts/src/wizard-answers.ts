import { z } from 'zod';
import {
  ZDistanceMetric,
  ZEmbeddingModel,
  ZLlmProvider,
  ZRagSourceType,
  ZSqlFramework,
  ZSqlSourceType,
  ZUiFramework,
  ZVectorStore,
} from './enums';
import { ZDatabaseSource, ZUploadedFile } from './sources';
import { zText } from './text';
import { LOCAL_VECTOR_STORES } from './vector-store-catalog';

/**
 * What the wizard calls answer (docs/product.md#the-calls-behind-the-screens): the session, a
 * sentence, and the fields as saved (secrets masked). Each step has its own schema, strict so that
 * a field a step starts to answer must be added here first (the gateway's tests parse every answer
 * with its step's schema).
 */
const stepAnswer = <S extends z.ZodRawShape>(saved: S) =>
  z.strictObject({
    session_id: z.uuid(),
    message: zText(),
    saved: z.strictObject(saved),
  });

/** Any step's answer, for a client that only reads the message. */
export const ZWizardStepSaved = z.object({
  session_id: z.uuid(),
  message: zText(),
  saved: z.record(zText(), z.unknown()),
});
export type TWizardStepSaved = z.infer<typeof ZWizardStepSaved>;

/** The answer of the step whose schema is given, e.g. `TStepAnswer<typeof ZUiSaved>`. */
export type TStepAnswer<Step extends z.ZodType> = z.infer<Step>;

// ---- source ----

export const ZRagSourceTypeSaved = stepAnswer({ source_type: ZRagSourceType });
export const ZSqlSourceTypeSaved = stepAnswer({ source_type: ZSqlSourceType });
export const ZUploadSaved = stepAnswer({ file: ZUploadedFile });
export const ZDatabaseSourceSaved = stepAnswer({ database: ZDatabaseSource });

// ---- RAG: embeddings and vector store ----

export const ZEmbeddingModelSaved = stepAnswer({ model_name: ZEmbeddingModel });
export const ZVectorDbSaved = stepAnswer({ vector_db: ZVectorStore });
export const ZPineconeSaved = stepAnswer({
  vector_db: z.literal('pinecone'),
  /** Masked. */
  api_key: zText(),
  environment: zText(),
  index_name: zText(),
});
export const ZLocalVectorDbSaved = stepAnswer({
  vector_db: z.enum(LOCAL_VECTOR_STORES),
  url: zText(),
  dimensions: z.number().int(),
  distance_metric: ZDistanceMetric,
});

// ---- LLM ----

/** A typed key comes back masked; a vault key as the vault shows it (masked), with its id. */
const savedKey = { api_key: zText(), api_key_id: z.uuid().optional() };

export const ZLlmProviderSaved = stepAnswer({ provider: ZLlmProvider });
export const ZLlmCredentialsSaved = stepAnswer({
  provider: ZLlmProvider,
  model_name: zText(),
  ...savedKey,
});
export const ZLlmKeySaved = stepAnswer({ provider: ZLlmProvider, ...savedKey });
export const ZLlmModelSaved = stepAnswer({ provider: ZLlmProvider, model: zText() });

// ---- prompt, framework, UI ----

export const ZSystemPromptSaved = stepAnswer({ prompt: zText(), characters: z.number().int() });
export const ZSqlFrameworkSaved = stepAnswer({ framework: ZSqlFramework });
export const ZUiSaved = stepAnswer({ ui: ZUiFramework });
