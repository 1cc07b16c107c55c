import { z } from 'zod';
import { zText } from './text';
import {
  ZAgentType,
  type TAgentType,
  ZDistanceMetric,
  ZEmbeddingModel,
  ZLlmProvider,
  ZPipelineStatus,
  ZRagSourceType,
  ZSqlFramework,
  ZSqlSourceType,
  ZUiFramework,
  ZVectorStore,
} from './enums';
import { ZRetrievalSettings } from './retrieval';
import { ZDatabaseSource, ZUploadedFile } from './sources';

export const PIPELINE_NAME_MAX_LENGTH = 100;

/**
 * The RAG wizard's step-1 message (docs/product.md#the-wizard-agent-name); the SQL wizard's is
 * AGENT_NAME_REQUIRED.
 */
export const AGENT_NAME_AND_TYPE_REQUIRED = 'Agent name and type are required.';
export const AGENT_NAME_REQUIRED = 'Agent name is required.';

export const ZCreatePipelineRequest = z
  .object({
    name: zText().trim().optional(),
    agent_type: zText().trim().toLowerCase().optional(),
  })
  .transform((body, context) => {
    const type = ZAgentType.safeParse(body.agent_type);
    if (body.agent_type && !type.success) {
      context.addIssue({ code: 'custom', message: 'agent_type must be rag or sql.' });
      return z.NEVER;
    }
    if (!body.name || !type.success) {
      const message =
        type.success && type.data === 'sql' ? AGENT_NAME_REQUIRED : AGENT_NAME_AND_TYPE_REQUIRED;
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    if (body.name.length > PIPELINE_NAME_MAX_LENGTH) {
      context.addIssue({
        code: 'custom',
        message: `Agent name must be at most ${PIPELINE_NAME_MAX_LENGTH} characters.`,
      });
      return z.NEVER;
    }
    return { name: body.name, agent_type: type.data };
  });
export type TCreatePipelineRequest = z.infer<typeof ZCreatePipelineRequest>;

/** PATCH /pipelines/{id}: a new name for an agent (its wizard's step 1, opened again). */
export const ZRenamePipelineRequest = z.object({
  name: zText()
    .trim()
    .min(1, { error: 'Agent name is required.' })
    .max(PIPELINE_NAME_MAX_LENGTH, {
      error: `Agent name must be at most ${PIPELINE_NAME_MAX_LENGTH} characters.`,
    }),
});
export type TRenamePipelineRequest = z.infer<typeof ZRenamePipelineRequest>;

export const ZPipelineCreated = z.object({
  /** The pipeline's id; every wizard call carries it. */
  session_id: z.uuid(),
  id: z.uuid(),
  name: zText(),
  agent_type: ZAgentType,
  status: ZPipelineStatus,
  created_at: z.iso.datetime(),
});
export type TPipelineCreated = z.infer<typeof ZPipelineCreated>;

export const ZPipelineListItem = z.object({
  id: z.uuid(),
  name: zText(),
  /** A one-line human summary of the configuration, e.g. "RAG over sales.csv · gpt-4o-mini · Streamlit". */
  description: zText(),
  status: ZPipelineStatus,
  type: ZAgentType,
  created_at: z.iso.datetime(),
});
export type TPipelineListItem = z.infer<typeof ZPipelineListItem>;

/** LLM settings as shown back: the key is masked, or named by the vault key it comes from. */
export const ZLlmSettingsView = z.object({
  provider: ZLlmProvider.nullable(),
  model: zText().nullable(),
  /** Masked (first 8, `...`, last 4) or null when no key is set. */
  api_key: zText().nullable(),
  /** Set when the key is taken from the user's vault instead of typed into the wizard. */
  api_key_id: z.uuid().nullable(),
});
export type TLlmSettingsView = z.infer<typeof ZLlmSettingsView>;

export const ZVectorStoreView = z.object({
  vector_db: ZVectorStore,
  /** ChromaDB, Qdrant and Milvus. */
  url: zText().nullable(),
  dimensions: z.number().int().nullable(),
  distance_metric: ZDistanceMetric.nullable(),
  /** Pinecone. */
  environment: zText().nullable(),
  index_name: zText().nullable(),
  /** Pinecone API key, masked. */
  api_key: zText().nullable(),
});
export type TVectorStoreView = z.infer<typeof ZVectorStoreView>;

export const ZRagConfigView = z.object({
  source_type: ZRagSourceType.nullable(),
  file: ZUploadedFile.nullable(),
  database: ZDatabaseSource.nullable(),
  embedding_model: ZEmbeddingModel.nullable(),
  vector_store: ZVectorStoreView.nullable(),
  llm: ZLlmSettingsView,
  system_prompt: zText().nullable(),
  ui: ZUiFramework.nullable(),
});
export type TRagConfigView = z.infer<typeof ZRagConfigView>;

export const ZSqlConfigView = z.object({
  source_type: ZSqlSourceType.nullable(),
  file: ZUploadedFile.nullable(),
  database: ZDatabaseSource.nullable(),
  llm: ZLlmSettingsView,
  system_prompt: zText().nullable(),
  framework: ZSqlFramework.nullable(),
  ui: ZUiFramework.nullable(),
});
export type TSqlConfigView = z.infer<typeof ZSqlConfigView>;

/** The wizard steps that hold configuration (the last step, Build, holds none). */
export const RAG_WIZARD_STEPS = [
  { key: 'name', label: 'Agent Name' },
  { key: 'source_type', label: 'Source Type' },
  { key: 'source_details', label: 'Source Details' },
  { key: 'embedding', label: 'Embedding' },
  { key: 'vector_store', label: 'Vector Store' },
  { key: 'llm', label: 'LLM Provider' },
  { key: 'system_prompt', label: 'System Prompt' },
  { key: 'ui', label: 'UI Type' },
] as const;
export const SQL_WIZARD_STEPS = [
  { key: 'name', label: 'Agent Name' },
  { key: 'source_type', label: 'Source Type' },
  { key: 'source_details', label: 'Source Details' },
  // The product calls these SQL steps LLM and UI; named as in the RAG wizard, so the two wizards
  // read alike (issue 30).
  { key: 'llm', label: 'LLM Provider' },
  { key: 'system_prompt', label: 'System Prompt' },
  { key: 'framework', label: 'Framework' },
  { key: 'ui', label: 'UI Type' },
] as const;
export type TRagWizardStep = (typeof RAG_WIZARD_STEPS)[number]['key'];
export type TSqlWizardStep = (typeof SQL_WIZARD_STEPS)[number]['key'];

export const ZWizardStepState = z.object({
  key: zText(),
  label: zText(),
  complete: z.boolean(),
});

const pipelineDetailBase = {
  id: z.uuid(),
  session_id: z.uuid(),
  name: zText(),
  description: zText(),
  status: ZPipelineStatus,
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  steps: z.array(ZWizardStepState),
  /** Labels of the steps still to complete before a build can start. */
  missing_steps: z.array(zText()),
};

export const ZPipelineDetail = z.object({
  ...pipelineDetailBase,
  agent_type: ZAgentType,
  /** ZRagConfigView for RAG pipelines, ZSqlConfigView for SQL pipelines. */
  config: z.union([ZRagConfigView, ZSqlConfigView]),
});
export type TPipelineDetail = z.infer<typeof ZPipelineDetail>;

/** The vector store as the wizard saved it: a URL for ChromaDB, Qdrant and Milvus; Pinecone's index. */
export const ZVectorStoreConfig = z.object({
  vector_db: ZVectorStore,
  url: zText().optional(),
  dimensions: z.number().int().optional(),
  distance_metric: ZDistanceMetric.optional(),
  environment: zText().optional(),
  index_name: zText().optional(),
});
export type TVectorStoreConfig = z.infer<typeof ZVectorStoreConfig>;

/** What both kinds of agent answer: their data, their LLM, their prompt and their screen. */
const sharedAnswers = {
  file: ZUploadedFile.optional(),
  database: ZDatabaseSource.optional(),
  llm: z.object({ provider: ZLlmProvider.optional(), model: zText().optional() }).optional(),
  system_prompt: zText().optional(),
  ui: ZUiFramework.optional(),
};

export const ZRagPipelineConfig = z.object({
  agent_type: z.literal('rag'),
  source_type: ZRagSourceType.optional(),
  ...sharedAnswers,
  embedding_model: ZEmbeddingModel.optional(),
  vector_store: ZVectorStoreConfig.optional(),
  /** How passages are cut and found (retrieval.ts); each missing setting at its default. */
  retrieval: ZRetrievalSettings.partial().optional(),
  /** The owner's "Questions you expect" (evaluation.ts): checked by every build, not built in. */
  expected_questions: z.array(zText()).optional(),
});
export type TRagPipelineConfig = z.infer<typeof ZRagPipelineConfig>;

export const ZSqlPipelineConfig = z.object({
  agent_type: z.literal('sql'),
  source_type: ZSqlSourceType.optional(),
  ...sharedAnswers,
  framework: ZSqlFramework.optional(),
});
export type TSqlPipelineConfig = z.infer<typeof ZSqlPipelineConfig>;

/**
 * The wizard's answers as stored in `pipelines.config` (Postgres JSON) — no secrets: keys and
 * connection URIs live in their own encrypted columns. The gateway writes it; the builder reads
 * it. Every answer is optional because the wizard fills it step by step; which answers exist
 * depends on the kind of agent. `agent_type` is not part of the stored JSON: it is the row's own
 * column, added when the configuration is read (`readPipelineConfig`).
 */
export const ZPipelineConfig = z.discriminatedUnion('agent_type', [
  ZRagPipelineConfig,
  ZSqlPipelineConfig,
]);
export type TPipelineConfig = z.infer<typeof ZPipelineConfig>;

/** The configuration as `pipelines.config` holds it: without `agent_type`. */
export type TStoredPipelineConfig =
  Omit<TRagPipelineConfig, 'agent_type'> | Omit<TSqlPipelineConfig, 'agent_type'>;

/** The stored answers of an agent of the given kind, checked (`pipelines.config`, a build's inputs). */
export function readPipelineConfig(agentType: TAgentType, stored: unknown) {
  const answers = typeof stored === 'object' && stored !== null ? stored : {};
  return ZPipelineConfig.safeParse({ ...answers, agent_type: agentType });
}

/** The answers as `pipelines.config` keeps them: the kind stays in the row's own column. */
export function storedAnswers(config: TPipelineConfig): TStoredPipelineConfig {
  const answers: Partial<TPipelineConfig> = { ...config };
  delete answers.agent_type;
  return answers;
}
