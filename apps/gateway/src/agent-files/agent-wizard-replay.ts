import {
  isFileSourceType,
  ZEmbeddingModelRequest,
  ZLlmCredentialsRequest,
  ZLlmProviderRequest,
  ZLocalVectorDbRequest,
  ZPineconeCredentialsRequest,
  ZRagDatabaseSourceRequest,
  ZRagSourceRequest,
  ZSqlDatabaseSourceRequest,
  ZSqlFrameworkRequest,
  ZSqlSourceRequest,
  ZSystemPromptRequest,
  ZUiRequest,
  type TAgentFile,
} from '@agentloom/contracts';
import { BadRequestException, Injectable } from '@nestjs/common';
import path from 'node:path';
import type { ZodType } from 'zod';
import { describeZodError } from '../common/http-exception.filter';
import { FinishStepsService } from '../wizard/finish-steps.service';
import { LlmStepService } from '../wizard/llm-step.service';
import { SourceStepService } from '../wizard/source-step.service';
import { VectorStoreStepService } from '../wizard/vector-store-step.service';
import type { WizardCall } from '../wizard/wizard-sessions';
import type { AgentFileContents } from './agent-file-reader';

/** What the import asked the user for, beside the file. */
export interface ImportAnswers {
  apiKey?: string;
  apiKeyId?: string;
  vectorDbApiKey?: string;
  /** The vector store URL with the credentials the file left out. */
  vectorStoreUrl?: string;
  /** Database sources: the whole connection URI, password included. */
  databaseUri?: string;
  systemPrompt: string;
}

/**
 * Replays an agent file through the wizard, step by step as the web app sends them: each step's
 * fields are parsed by the step's own request schema, then saved by the step's own service, so
 * an import is held to every rule a person at the wizard is (a checked upload, a reachable and
 * allowed database, a model of the provider, a framework that fits the source…).
 */
@Injectable()
export class AgentWizardReplay {
  constructor(
    private readonly sources: SourceStepService,
    private readonly vectorStores: VectorStoreStepService,
    private readonly llm: LlmStepService,
    private readonly finish: FinishStepsService,
  ) {}

  async run(
    owner: { userId: string; sessionId: string },
    contents: AgentFileContents,
    answers: ImportAnswers,
  ): Promise<void> {
    const { agent } = contents;
    const call: WizardCall = { ...owner, agentType: agent.type };
    const form = <T>(schema: ZodType<T>, fields: Record<string, string | undefined>): T => {
      const parsed = schema.safeParse({ session_id: owner.sessionId, ...fields });
      if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
      return parsed.data;
    };

    await this.source(call, contents, answers, form);
    if (agent.type === 'rag')
      await this.vectorStore({ ...call, agentType: 'rag' }, agent, answers, form);
    const { provider } = form(ZLlmProviderRequest, { provider: agent.llm.provider });
    await this.llm.setProvider(call, provider);
    const credentials = form(ZLlmCredentialsRequest, {
      api_key: answers.apiKey,
      api_key_id: answers.apiKeyId,
      model_name: agent.llm.model,
    });
    await this.llm.setLlmCredentials(call, credentials, credentials.model_name ?? '');
    const { prompt } = form(ZSystemPromptRequest, { prompt: answers.systemPrompt });
    await this.finish.setSystemPrompt(call, prompt);
    if (agent.type === 'sql') {
      const { framework } = form(ZSqlFrameworkRequest, { framework: agent.sql?.framework });
      await this.finish.setFramework({ ...call, agentType: 'sql' }, framework);
    }
    const { ui } = form(ZUiRequest, { ui: agent.ui.framework });
    await this.finish.setUi(call, ui);
  }

  private async source(
    call: WizardCall,
    { agent, dataPath, dataSize }: AgentFileContents,
    answers: ImportAnswers,
    form: <T>(schema: ZodType<T>, fields: Record<string, string | undefined>) => T,
  ): Promise<void> {
    const { source } = agent;
    const typeSchema = agent.type === 'rag' ? ZRagSourceRequest : ZSqlSourceRequest;
    const { source_type } = form(typeSchema, { source_type: source.type });
    await this.sources.setSourceType(call, source_type);
    if (isFileSourceType(source_type)) {
      const originalName = source.original_name ?? path.basename(source.file ?? 'upload');
      await this.sources.saveUpload(
        call,
        dataPath ? { path: dataPath, originalName, size: dataSize } : undefined,
      );
      return;
    }
    if (agent.type === 'rag') {
      const db = form(ZRagDatabaseSourceRequest, {
        source_type,
        uri: answers.databaseUri,
        database: source.database,
        collection_or_table: source.table,
      });
      await this.sources.saveDatabaseSource(call, {
        source_type: db.source_type,
        uri: db.uri,
        database: db.database,
        table: db.collection_or_table,
      });
      return;
    }
    const db = form(ZSqlDatabaseSourceRequest, {
      db_uri: answers.databaseUri,
      db_name: source.database,
      table_name: source.table,
    });
    await this.sources.saveDatabaseSource(call, {
      uri: db.db_uri,
      database: db.db_name,
      table: db.table_name,
    });
  }

  private async vectorStore(
    call: WizardCall<'rag'>,
    agent: TAgentFile,
    answers: ImportAnswers,
    form: <T>(schema: ZodType<T>, fields: Record<string, string | undefined>) => T,
  ): Promise<void> {
    const { model_name } = form(ZEmbeddingModelRequest, { model_name: agent.embedding?.model });
    await this.vectorStores.setEmbeddingModel(call, model_name);
    const store = agent.vector_store;
    if (store?.provider === 'pinecone') {
      await this.vectorStores.setVectorStore(call, 'pinecone');
      const fields = form(ZPineconeCredentialsRequest, {
        api_key: answers.vectorDbApiKey,
        environment: store.environment,
        index_name: store.index_name,
      });
      await this.vectorStores.setPinecone(call, fields);
      return;
    }
    const local = form(ZLocalVectorDbRequest, {
      vector_db: store?.provider,
      url: answers.vectorStoreUrl ?? store?.url,
      dimensions: store?.dimensions === undefined ? undefined : String(store.dimensions),
      distance_metric: store?.distance_metric,
    });
    await this.vectorStores.setVectorStore(call, local.vector_db);
    await this.vectorStores.setLocalVectorStore(call, local);
  }
}
