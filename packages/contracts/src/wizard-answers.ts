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
import { LOCAL_VECTOR_STORES } from './wizard';

/**
 * What the wizard calls answer (SPEC §7): the session, a sentence, and the fields as saved
 * (secrets masked). Each step has its own schema, strict so that a field a step starts to answer
 * must be added here first (the gateway's tests parse every answer with its step's schema).
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

// ---- source ----

export const ZRagSourceTypeSaved = stepAnswer({ source_type: ZRagSourceType });
export type TRagSourceTypeSaved = z.infer<typeof ZRagSourceTypeSaved>;
export const ZSqlSourceTypeSaved = stepAnswer({ source_type: ZSqlSourceType });
export type TSqlSourceTypeSaved = z.infer<typeof ZSqlSourceTypeSaved>;
export const ZUploadSaved = stepAnswer({ file: ZUploadedFile });
export type TUploadSaved = z.infer<typeof ZUploadSaved>;
export const ZDatabaseSourceSaved = stepAnswer({ database: ZDatabaseSource });
export type TDatabaseSourceSaved = z.infer<typeof ZDatabaseSourceSaved>;

// ---- RAG: embeddings and vector store ----

export const ZEmbeddingModelSaved = stepAnswer({ model_name: ZEmbeddingModel });
export type TEmbeddingModelSaved = z.infer<typeof ZEmbeddingModelSaved>;
export const ZVectorDbSaved = stepAnswer({ vector_db: ZVectorStore });
export type TVectorDbSaved = z.infer<typeof ZVectorDbSaved>;
export const ZPineconeSaved = stepAnswer({
  vector_db: z.literal('pinecone'),
  /** Masked. */
  api_key: zText(),
  environment: zText(),
  index_name: zText(),
});
export type TPineconeSaved = z.infer<typeof ZPineconeSaved>;
export const ZLocalVectorDbSaved = stepAnswer({
  vector_db: z.enum(LOCAL_VECTOR_STORES),
  url: zText(),
  dimensions: z.number().int(),
  distance_metric: ZDistanceMetric,
});
export type TLocalVectorDbSaved = z.infer<typeof ZLocalVectorDbSaved>;

// ---- LLM ----

/** A typed key comes back masked; a vault key as the vault shows it (masked), with its id. */
const savedKey = { api_key: zText(), api_key_id: z.uuid().optional() };

export const ZLlmProviderSaved = stepAnswer({ provider: ZLlmProvider });
export type TLlmProviderSaved = z.infer<typeof ZLlmProviderSaved>;
export const ZLlmCredentialsSaved = stepAnswer({
  provider: ZLlmProvider,
  model_name: zText(),
  ...savedKey,
});
export type TLlmCredentialsSaved = z.infer<typeof ZLlmCredentialsSaved>;
export const ZLlmKeySaved = stepAnswer({ provider: ZLlmProvider, ...savedKey });
export type TLlmKeySaved = z.infer<typeof ZLlmKeySaved>;
export const ZLlmModelSaved = stepAnswer({ provider: ZLlmProvider, model: zText() });
export type TLlmModelSaved = z.infer<typeof ZLlmModelSaved>;

// ---- prompt, framework, UI ----

export const ZSystemPromptSaved = stepAnswer({ prompt: zText(), characters: z.number().int() });
export type TSystemPromptSaved = z.infer<typeof ZSystemPromptSaved>;
export const ZSqlFrameworkSaved = stepAnswer({ framework: ZSqlFramework });
export type TSqlFrameworkSaved = z.infer<typeof ZSqlFrameworkSaved>;
export const ZUiSaved = stepAnswer({ ui: ZUiFramework });
export type TUiSaved = z.infer<typeof ZUiSaved>;
