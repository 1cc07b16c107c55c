import {
  isFileSourceType,
  LLM_FIELDS_REQUIRED,
  PINECONE_FIELDS_REQUIRED,
  RAG_DB_FIELDS_REQUIRED,
  SQL_DB_FIELDS_REQUIRED,
  SYSTEM_PROMPT_REQUIRED,
  ZCreatePipelineRequest,
  type TAgentImportNeeds,
  type TAgentImportPlan,
  type TAgentImportRequest,
  type TPipelineCreated,
} from '@agentloom/contracts';
import {
  BadRequestException,
  Inject,
  Injectable,
  UnprocessableEntityException,
} from '@nestjs/common';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describeZodError } from '../common/http-exception.filter';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PipelinesService } from '../pipelines/pipelines.service';
import { readAgentFile, type AgentFileContents } from './agent-file-reader';
import { AgentWizardReplay, type ImportAnswers } from './agent-wizard-replay';

/** Room for agent.json and the prompt beside the largest source file an upload may be. */
const ENVELOPE_BYTES = 1024 * 1024;
export const importMaxBytes = (config: AppConfig) => config.UPLOAD_MAX_BYTES + ENVELOPE_BYTES;

/**
 * "Import agent": a new draft from an agent file, through the wizard's own steps and checks
 * (AgentWizardReplay). The file never holds a secret, so the import asks for what it left out —
 * the LLM key, Pinecone's key, the database password (or the whole URI when the file names only
 * the database and table, or its URI lost credential parameters), the vector store URL when it
 * lost a password or key. A refused step removes the draft: a failed import creates nothing.
 */
@Injectable()
export class AgentImportService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pipelines: PipelinesService,
    private readonly replay: AgentWizardReplay,
  ) {}

  /** What the file holds and what the import will ask for; nothing is created. */
  async check(file: string | undefined): Promise<TAgentImportPlan> {
    const contents = await this.read(file);
    try {
      return planOf(contents);
    } finally {
      if (contents.dataPath) await rm(contents.dataPath, { force: true });
    }
  }

  async import(
    userId: string,
    file: string | undefined,
    request: TAgentImportRequest,
  ): Promise<TPipelineCreated> {
    const contents = await this.read(file);
    try {
      const plan = planOf(contents);
      const answers = answersOf(contents, plan, request);
      const name = ZCreatePipelineRequest.safeParse({
        name: request.name ?? contents.agent.name,
        agent_type: contents.agent.type,
      });
      if (!name.success) throw new BadRequestException(describeZodError(name.error));
      const created = await this.pipelines.create(userId, name.data);
      try {
        await this.replay.run({ userId, sessionId: created.id }, contents, answers);
      } catch (error) {
        await this.pipelines.remove(userId, created.id);
        throw error;
      }
      return created;
    } finally {
      if (contents.dataPath) await rm(contents.dataPath, { force: true });
    }
  }

  private read(file: string | undefined): Promise<AgentFileContents> {
    if (!file) {
      throw new BadRequestException(
        'Choose the agent file to import (the exported .zip, a downloaded agent zip or its agent.json).',
      );
    }
    return readAgentFile(file, path.dirname(file), this.config.UPLOAD_MAX_BYTES);
  }
}

const UI_LABELS = { gradio: 'Gradio', streamlit: 'Streamlit' } as const;
const URI_WITH_USER = /^[a-z][a-z0-9+.-]*:\/\/[^@/?#:]+@/i;

function planOf({ agent, prompt, info, dataPath }: AgentFileContents): TAgentImportPlan {
  const { source } = agent;
  const fileSource = isFileSourceType(source.type);
  if (fileSource && !dataPath) {
    throw new UnprocessableEntityException(
      `This agent reads ${source.original_name ?? 'a file'}, which only its zip carries. Import the exported file or the downloaded agent zip instead of agent.json alone.`,
    );
  }
  if (!fileSource && (!source.database || !source.table)) {
    throw new UnprocessableEntityException(
      'agent.json names no database and table for its database source; export the agent again.',
    );
  }
  const uri = info?.database_uri ?? null;
  const database = fileSource
    ? null
    : {
        type: source.type as 'postgres' | 'mysql' | 'sqlite' | 'mongo',
        uri,
        database: source.database ?? '',
        table: source.table ?? '',
      };
  const needs: TAgentImportNeeds = {
    llm_api_key: true,
    vector_db_api_key: agent.vector_store?.provider === 'pinecone',
    vector_store_url: info?.vector_store_url_credentials === true,
    // The file names only the database and table, or its URI lost credential parameters.
    database_uri: database !== null && (uri === null || info?.database_uri_credentials === true),
    database_password:
      database !== null &&
      uri !== null &&
      info?.database_uri_credentials !== true &&
      URI_WITH_USER.test(uri),
    system_prompt: prompt === null,
  };
  const over = fileSource ? source.original_name : source.table;
  const kind = agent.type === 'rag' ? 'RAG' : 'SQL';
  return {
    name: agent.name,
    agent_type: agent.type,
    llm_provider: agent.llm.provider,
    llm_model: agent.llm.model,
    summary: [
      over ? `${kind} over ${over}` : `${kind} agent`,
      agent.llm.model,
      UI_LABELS[agent.ui.framework],
    ].join(' · '),
    database,
    needs,
  };
}

/** The answers the file left out, from the request; the wizard's own message when one is missing. */
function answersOf(
  contents: AgentFileContents,
  plan: TAgentImportPlan,
  request: TAgentImportRequest,
): ImportAnswers {
  const missing = (message: string) => new BadRequestException(message);
  if (!request.api_key && !request.api_key_id) throw missing(LLM_FIELDS_REQUIRED);
  if (plan.needs.vector_db_api_key && !request.vector_db_api_key) {
    throw missing(PINECONE_FIELDS_REQUIRED);
  }
  if (plan.needs.vector_store_url && !request.vector_store_url) {
    throw missing(
      "Enter the vector store's URL with its password or key: the exported file leaves them out.",
    );
  }
  const prompt = contents.prompt ?? request.system_prompt;
  if (!prompt?.trim()) throw missing(SYSTEM_PROMPT_REQUIRED);
  let databaseUri: string | undefined;
  if (plan.database) {
    const dbFieldsRequired =
      plan.agent_type === 'rag' ? RAG_DB_FIELDS_REQUIRED : SQL_DB_FIELDS_REQUIRED;
    if (request.database_uri) databaseUri = request.database_uri;
    else if (plan.needs.database_uri || plan.database.uri === null) throw missing(dbFieldsRequired);
    else if (plan.needs.database_password) {
      if (!request.database_password) {
        throw missing('Enter the password of the database this agent reads.');
      }
      databaseUri = withPassword(plan.database.uri, request.database_password);
    } else databaseUri = plan.database.uri;
  }
  return {
    apiKey: request.api_key,
    apiKeyId: request.api_key_id,
    vectorDbApiKey: request.vector_db_api_key,
    vectorStoreUrl: request.vector_store_url,
    databaseUri,
    systemPrompt: prompt,
  };
}

/** `scheme://user@host…` with the password put back (percent-encoded, as URIs need it). */
function withPassword(uri: string, password: string): string {
  return uri.replace(
    URI_WITH_USER,
    (head) => `${head.slice(0, -1)}:${encodeURIComponent(password)}@`,
  );
}
