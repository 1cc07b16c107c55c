import { z } from 'zod';
import {
  ZAgentType,
  ZDistanceMetric,
  ZEmbeddingModel,
  ZLlmProvider,
  ZRagSourceType,
  ZSqlFramework,
  ZUiFramework,
  ZVectorStore,
} from './enums';
import { PIPELINE_NAME_MAX_LENGTH } from './pipelines';
import { ZDatabaseSourceType } from './sources';
import { zText } from './text';

/**
 * An agent as a file (issue 31): My Agents exports it, "Import agent" reads it back as a new draft.
 * The export is a zip laid out like a built project — `agent.json`, `prompts/system.txt`,
 * `data/<file>` — plus `agentloom-export.json` (the database reference, without its password).
 * Import also takes a downloaded project zip or a bare `agent.json`.
 */

/** agent.json's `version` this Agentloom writes and reads (the generator's AGENT_MANIFEST_VERSION). */
export const AGENT_FILE_VERSION = 1;
/** `agentloom-export.json`'s `format_version`. */
export const AGENT_EXPORT_FORMAT_VERSION = 1;
export const AGENT_EXPORT_INFO_FILE = 'agentloom-export.json';
export const AGENT_PROMPT_FILE = 'prompts/system.txt';

const name = (max: number) => zText().trim().min(1).max(max);

/** The part of agent.json an import reads; everything else in it is derived at build time. */
export const ZAgentFile = z.object({
  version: z.literal(AGENT_FILE_VERSION),
  generator: z.literal('agentloom'),
  type: ZAgentType,
  name: name(PIPELINE_NAME_MAX_LENGTH),
  source: z.object({
    type: ZRagSourceType,
    /** File sources: `data/<file name>`, relative to agent.json. */
    file: name(200).optional(),
    original_name: name(255).optional(),
    database: name(128).optional(),
    table: name(256).optional(),
  }),
  llm: z.object({ provider: ZLlmProvider, model: name(128) }),
  ui: z.object({ framework: ZUiFramework }),
  embedding: z.object({ model: ZEmbeddingModel }).optional(),
  vector_store: z
    .object({
      provider: ZVectorStore,
      url: name(2000).optional(),
      dimensions: z.number().int().min(1).max(65536).optional(),
      distance_metric: ZDistanceMetric.optional(),
      environment: name(200).optional(),
      index_name: name(200).optional(),
    })
    .optional(),
  sql: z.object({ framework: ZSqlFramework }).optional(),
});
export type TAgentFile = z.infer<typeof ZAgentFile>;

/** agentloom-export.json: what an export adds to agent.json, never a secret. */
export const ZAgentExportInfo = z.object({
  format: z.literal('agentloom-agent'),
  format_version: z.literal(AGENT_EXPORT_FORMAT_VERSION),
  exported_at: z.iso.datetime(),
  /** Database sources: the connection URI without its password or credential parameters. */
  database_uri: name(2000).optional(),
  /** The database URI had credential parameters (`?password=`): the import asks for it whole. */
  database_uri_credentials: z.literal(true).optional(),
  /** The vector store URL had a password or key the export left out: the import asks for it. */
  vector_store_url_credentials: z.literal(true).optional(),
});
export type TAgentExportInfo = z.infer<typeof ZAgentExportInfo>;

/** What the import asks for, because the file leaves it out. */
export const ZAgentImportNeeds = z.object({
  /** Always: the LLM key (typed, or `api_key_id` of a vault key). */
  llm_api_key: z.boolean(),
  /** Pinecone's API key. */
  vector_db_api_key: z.boolean(),
  /** The vector store's whole URL: the file's lost its password or key. */
  vector_store_url: z.boolean(),
  /** The whole connection URI (the file names the database and table, not where it is). */
  database_uri: z.boolean(),
  /** The password of the connection URI the file carries. */
  database_password: z.boolean(),
  /** A bare agent.json carries no prompt. */
  system_prompt: z.boolean(),
});
export type TAgentImportNeeds = z.infer<typeof ZAgentImportNeeds>;

/** POST /pipelines/import/check: what the file holds and what the import will ask for. */
export const ZAgentImportPlan = z.object({
  name: zText(),
  agent_type: ZAgentType,
  llm_provider: ZLlmProvider,
  llm_model: zText(),
  /** "RAG over sales.csv · gpt-4o-mini · Gradio". */
  summary: zText(),
  database: z
    .object({
      type: ZDatabaseSourceType,
      uri: zText().nullable(),
      database: zText(),
      table: zText(),
    })
    .nullable(),
  needs: ZAgentImportNeeds,
});
export type TAgentImportPlan = z.infer<typeof ZAgentImportPlan>;

const optionalField = (max: number) =>
  zText()
    .trim()
    .max(max, { error: `must be at most ${max} characters.` })
    .optional()
    .transform((value) => (value === '' ? undefined : value));

/** POST /pipelines/import (multipart, beside `file`): what was left out, and a new name if wanted. */
export const ZAgentImportRequest = z.object({
  name: optionalField(PIPELINE_NAME_MAX_LENGTH),
  api_key: optionalField(500),
  api_key_id: optionalField(100),
  vector_db_api_key: optionalField(500),
  vector_store_url: optionalField(2000),
  database_uri: optionalField(2000),
  database_password: optionalField(500),
  system_prompt: optionalField(8000),
});
export type TAgentImportRequest = z.infer<typeof ZAgentImportRequest>;
