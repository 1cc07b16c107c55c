import {
  API_KEY_MIN_LENGTH,
  EMBEDDING_DIMENSIONS,
  frameworkFitsSource,
  isFileSourceType,
  isStorableModel,
  pickableSpecModels,
  specModelEntry,
  LLM_PROVIDER_LABELS,
  maskApiKey,
  SOURCE_TYPE_LABELS,
  SQL_FRAMEWORK_NEEDS,
  TAgentType,
  TDatabaseSourceType,
  TEmbeddingModel,
  TLlmProvider,
  TPipelineConfig,
  TRagSourceType,
  TSqlFramework,
  TUiFramework,
  TVectorStore,
  TWizardStepSaved,
  UPLOAD_EXTENSIONS,
  readableSize,
} from '@agentloom/contracts';
import type { Pipeline } from '@agentloom/db';
import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
  PayloadTooLargeException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import path from 'node:path';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PipelineSecrets } from '../pipelines/pipeline-secrets';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { readConfig } from '../pipelines/pipeline-view';
import { PipelineChanges, PipelinesRepository } from '../pipelines/pipelines.repository';
import { PIPELINE_NOT_FOUND, PipelinesService } from '../pipelines/pipelines.service';
import { DataSourcesService } from '../sources/data-sources.service';
import { sanitizeOriginalName } from '@agentloom/source-readers';
import { UploadsService } from '../sources/uploads.service';
import { vectorDimensions } from './vector-dimensions';

/** Who is calling and which wizard: every step starts by finding the caller's own pipeline. */
export interface WizardCall {
  userId: string;
  sessionId: string;
  agentType: TAgentType;
}

/** An upload as multer left it on disk (temporary, server-made name). */
export interface IncomingFile {
  path: string;
  originalName: string;
  size: number;
}

/** A typed LLM key, or the id of a key in the caller's vault. */
export interface LlmKeyChoice {
  api_key?: string;
  api_key_id?: string;
}

/** "A PDF", "An Excel". */
const withArticle = (label: string) => `${/^[AEIOU]/i.test(label) ? 'An' : 'A'} ${label}`;

/**
 * The rules behind both wizards (SPEC §2, §7). Each step saves what it was given into the
 * pipeline's configuration and answers what was saved; secrets go to their encrypted columns
 * and come back masked. A later step that no longer fits an earlier answer (a model of another
 * provider, a framework for another kind of source) is refused with 422; changing an earlier
 * answer clears what no longer fits it.
 */
@Injectable()
export class WizardService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pipelinesService: PipelinesService,
    private readonly pipelines: PipelinesRepository,
    private readonly secrets: PipelineSecrets,
    private readonly storage: PipelineStorage,
    private readonly uploads: UploadsService,
    private readonly dataSources: DataSourcesService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  // ---- source ----

  /** One account's uploads may take at most MAX_STORED_BYTES_PER_USER (a replaced file is not counted). */
  private async assertStorageQuota(pipeline: Pipeline, incoming: number): Promise<void> {
    const limit = this.config.MAX_STORED_BYTES_PER_USER;
    const stored = await this.pipelines.storedUploadBytes(pipeline.userId, pipeline.id);
    if (stored + incoming > limit) {
      throw new PayloadTooLargeException(
        `Your agents' files already take ${readableSize(stored)} of the ${readableSize(limit)} an account may store. Delete an agent or remove its file, then upload again.`,
      );
    }
  }

  async setSourceType(call: WizardCall, sourceType: TRagSourceType): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    const changes: PipelineChanges = {};
    const notes: string[] = [];
    if (config.source_type !== sourceType) {
      Object.assign(changes, this.clearSource(pipeline, config, sourceType));
      config.source_type = sourceType;
      if (config.framework && !frameworkFitsSource(config.framework, sourceType)) {
        notes.push(
          `The ${config.framework} framework cannot serve a ${SOURCE_TYPE_LABELS[sourceType]} source, so it was cleared.`,
        );
        delete config.framework;
      }
    }
    await this.save(pipeline, config, changes);
    if (changes.sourceFile === null)
      await this.storage.removeUpload(pipeline.id, pipeline.sourceFile);
    return this.answer(pipeline, ['Source type saved.', ...notes].join(' '), {
      source_type: sourceType,
    });
  }

  async saveUpload(call: WizardCall, file: IncomingFile | undefined): Promise<TWizardStepSaved> {
    if (!file) throw new BadRequestException('No file selected');
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    const kind = config.source_type;
    if (!isFileSourceType(kind)) {
      throw new UnprocessableEntityException(
        call.agentType === 'rag'
          ? 'Choose PDF, CSV, Excel or TXT as the source type before uploading a file.'
          : 'Choose CSV or Excel as the source type before uploading a file.',
      );
    }
    const originalName = sanitizeOriginalName(file.originalName);
    const expected = UPLOAD_EXTENSIONS[kind];
    if (path.extname(originalName).toLowerCase() !== expected) {
      throw new UnsupportedMediaTypeException(
        `${withArticle(SOURCE_TYPE_LABELS[kind])} source takes a ${expected} file; "${originalName}" is not one.`,
      );
    }
    await this.assertStorageQuota(pipeline, file.size);
    const summary = await this.uploads.inspect(file.path, kind);

    const storedName = await this.storage.keepUpload(pipeline.id, file.path, expected);
    config.file = {
      original_name: originalName,
      size_bytes: file.size,
      summary,
      uploaded_at: new Date().toISOString(),
    };
    delete config.database;
    try {
      await this.save(pipeline, config, { sourceFile: storedName, sourceUriEncrypted: null });
    } catch (error) {
      await this.storage.removeUpload(pipeline.id, storedName);
      throw error;
    }
    await this.storage.removeUpload(pipeline.id, pipeline.sourceFile);
    return this.answer(pipeline, `${originalName} uploaded.`, { file: config.file });
  }

  async saveDatabaseSource(
    call: WizardCall,
    request: { source_type?: TDatabaseSourceType; uri: string; database: string; table: string },
  ): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    const type = request.source_type ?? config.source_type;
    if (!type || isFileSourceType(type)) {
      throw new UnprocessableEntityException(
        'Choose MySQL, Postgres or SQLite as the source type before connecting a database.',
      );
    }
    if (call.agentType === 'sql' && type === 'mongo') {
      throw new UnprocessableEntityException('SQL agents cannot use MongoDB as a source.');
    }
    const checked = await this.dataSources.check(
      type,
      request.uri,
      request.database,
      request.table,
    );

    if (config.framework && !frameworkFitsSource(config.framework, type)) delete config.framework;
    config.source_type = type;
    config.database = checked.source;
    delete config.file;
    await this.save(pipeline, config, {
      sourceUriEncrypted: this.secrets.encrypt(pipeline, 'source_uri', checked.uri),
      sourceFile: null,
    });
    await this.storage.removeUpload(pipeline.id, pipeline.sourceFile);
    const rows =
      checked.source.approximate_rows === null
        ? ''
        : `, about ${checked.source.approximate_rows} rows`;
    const message = checked.source.columns
      ? `Connected: ${checked.source.table} has ${checked.source.columns.length} columns${rows}.`
      : `Saved. The SQLite file is opened where the agent runs, so it was not checked here.`;
    return this.answer(pipeline, message, { database: checked.source });
  }

  // ---- RAG: embeddings and vector store ----

  /** A store saved before the model changed follows it: its vectors are the model's size. */
  async setEmbeddingModel(call: WizardCall, model: TEmbeddingModel): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    config.embedding_model = model;
    if (config.vector_store?.dimensions !== undefined) {
      config.vector_store.dimensions = EMBEDDING_DIMENSIONS[model];
    }
    await this.save(pipeline, config);
    return this.answer(pipeline, 'Embedding model saved.', { model_name: model });
  }

  async setVectorStore(call: WizardCall, store: TVectorStore): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    const changes: PipelineChanges = {};
    if (config.vector_store?.vector_db !== store) {
      config.vector_store = { vector_db: store };
      if (store !== 'pinecone') changes.vectorDbApiKeyEncrypted = null;
    }
    await this.save(pipeline, config, changes);
    return this.answer(pipeline, 'Vector store saved.', { vector_db: store });
  }

  async setPinecone(
    call: WizardCall,
    request: { api_key: string; environment: string; index_name: string },
  ): Promise<TWizardStepSaved> {
    if (!/^[a-z0-9][a-z0-9-]{0,44}$/.test(request.index_name)) {
      throw new BadRequestException(
        'index_name: Pinecone index names use lower-case letters, digits and hyphens (at most 45).',
      );
    }
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(request.environment)) {
      throw new BadRequestException(
        'environment: use the Pinecone environment name, e.g. us-west1-gcp.',
      );
    }
    if (/\s/.test(request.api_key)) {
      throw new BadRequestException('api_key: the key must not contain spaces.');
    }
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    config.vector_store = {
      vector_db: 'pinecone',
      environment: request.environment,
      index_name: request.index_name,
    };
    await this.save(pipeline, config, {
      vectorDbApiKeyEncrypted: this.secrets.encrypt(pipeline, 'vector_db_api_key', request.api_key),
    });
    return this.answer(pipeline, 'Pinecone settings saved.', {
      vector_db: 'pinecone',
      api_key: maskApiKey(request.api_key),
      environment: request.environment,
      index_name: request.index_name,
    });
  }

  async setLocalVectorStore(
    call: WizardCall,
    request: {
      vector_db: 'chromadb' | 'qdrant' | 'milvus';
      url: string;
      dimensions?: number;
      distance_metric: 'cosine' | 'euclidean' | 'dot';
    },
  ): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    const store = {
      vector_db: request.vector_db,
      url: request.url,
      dimensions: vectorDimensions(config.embedding_model, request.dimensions),
      distance_metric: request.distance_metric,
    };
    config.vector_store = store;
    await this.save(pipeline, config, { vectorDbApiKeyEncrypted: null });
    return this.answer(pipeline, 'Vector store settings saved.', store);
  }

  // ---- LLM ----

  /** A new provider clears the model and key chosen for the previous one. */
  async setProvider(call: WizardCall, provider: TLlmProvider): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    const changes: PipelineChanges = {};
    if (config.llm?.provider !== provider) {
      config.llm = { provider };
      changes.llmApiKeyEncrypted = null;
      changes.llmApiKeyId = null;
    }
    await this.save(pipeline, config, changes);
    return this.answer(pipeline, `${LLM_PROVIDER_LABELS[provider]} selected.`, { provider });
  }

  /** RAG: key and model in one call. */
  async setLlmCredentials(
    call: WizardCall,
    key: LlmKeyChoice,
    model: string,
  ): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    const provider = this.requireProvider(config);
    this.requireModelOf(provider, model, config.llm?.model);
    const keyChanges = await this.keyChanges(call.userId, pipeline, provider, key);
    config.llm = { provider, model };
    await this.save(pipeline, config, keyChanges.changes);
    return this.answer(pipeline, 'LLM settings saved.', {
      provider,
      model_name: model,
      ...keyChanges.shown,
    });
  }

  /** SQL: the key alone (the wizard then saves the model). */
  async setLlmKey(call: WizardCall, key: LlmKeyChoice): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    const provider = this.requireProvider(config);
    const keyChanges = await this.keyChanges(call.userId, pipeline, provider, key);
    await this.save(pipeline, config, keyChanges.changes);
    return this.answer(pipeline, 'API key saved.', { provider, ...keyChanges.shown });
  }

  async setModel(call: WizardCall, model: string): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    const provider = this.requireProvider(config);
    this.requireModelOf(provider, model, config.llm?.model);
    config.llm = { provider, model };
    await this.save(pipeline, config);
    return this.answer(pipeline, 'Model saved.', { provider, model });
  }

  // ---- prompt, framework, UI ----

  async setSystemPrompt(call: WizardCall, prompt: string): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    config.system_prompt = prompt;
    await this.save(pipeline, config);
    return this.answer(pipeline, 'System prompt saved.', {
      prompt,
      characters: prompt.length,
    });
  }

  async setFramework(call: WizardCall, framework: TSqlFramework): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    if (config.source_type && !frameworkFitsSource(framework, config.source_type)) {
      throw new UnprocessableEntityException(
        `The ${framework} framework cannot serve a ${SOURCE_TYPE_LABELS[config.source_type]} source; it needs ${SQL_FRAMEWORK_NEEDS[framework].needs}.`,
      );
    }
    config.framework = framework;
    await this.save(pipeline, config);
    return this.answer(pipeline, 'Framework saved.', { framework });
  }

  async setUi(call: WizardCall, ui: TUiFramework): Promise<TWizardStepSaved> {
    const pipeline = await this.load(call);
    const config = readConfig(pipeline);
    config.ui = ui;
    await this.save(pipeline, config);
    return this.answer(pipeline, 'UI saved.', { ui });
  }

  // ---- helpers ----

  /** The caller's pipeline of this wizard's kind, if it is not being built right now. */
  private async load(call: WizardCall): Promise<Pipeline> {
    const pipeline = await this.pipelinesService.findOwned(
      call.userId,
      call.sessionId,
      call.agentType,
    );
    if (pipeline.status === 'Building') {
      throw new ConflictException(
        'This agent is being built. Wait for the build to finish before changing its configuration.',
      );
    }
    return pipeline;
  }

  private async save(
    pipeline: Pipeline,
    config: TPipelineConfig,
    changes: PipelineChanges = {},
  ): Promise<void> {
    const updated = await this.pipelines.updateOwned(pipeline.id, pipeline.userId, {
      ...changes,
      config,
    });
    if (!updated) throw new NotFoundException(PIPELINE_NOT_FOUND);
  }

  /** A different source type makes the saved file or database details meaningless. */
  private clearSource(
    pipeline: Pipeline,
    config: TPipelineConfig,
    nextType: TRagSourceType,
  ): PipelineChanges {
    const changes: PipelineChanges = {};
    if (config.file && config.file.summary.kind !== nextType) {
      delete config.file;
      if (pipeline.sourceFile) changes.sourceFile = null;
    }
    if (config.database && config.database.type !== nextType) {
      delete config.database;
      changes.sourceUriEncrypted = null;
    }
    return changes;
  }

  private requireProvider(config: TPipelineConfig): TLlmProvider {
    const provider = config.llm?.provider;
    if (!provider) throw new UnprocessableEntityException('Choose an LLM provider first.');
    return provider;
  }

  /**
   * A SPEC model or one the provider lists; a retired SPEC model only where the agent already
   * uses it (it still loads and is saved again as it is), never as a new choice.
   */
  private requireModelOf(provider: TLlmProvider, model: string, onRecord?: string): void {
    const label = LLM_PROVIDER_LABELS[provider];
    const choices = `Choose one of: ${pickableSpecModels(provider).join(', ')}.`;
    if (!isStorableModel(provider, model)) {
      throw new UnprocessableEntityException(`${model} is not a ${label} model. ${choices}`);
    }
    if (specModelEntry(provider, model)?.retired && model !== onRecord) {
      throw new UnprocessableEntityException(`${label} no longer offers ${model}. ${choices}`);
    }
  }

  /** The columns to write for a typed key or a vault key, and how to show it back (masked). */
  private async keyChanges(
    userId: string,
    pipeline: Pipeline,
    provider: TLlmProvider,
    key: LlmKeyChoice,
  ): Promise<{ changes: PipelineChanges; shown: Record<string, string> }> {
    if (key.api_key_id) {
      const stored = await this.apiKeys.findOwnedKey(userId, key.api_key_id);
      if (stored.provider !== provider) {
        throw new UnprocessableEntityException(
          `That saved key is for ${LLM_PROVIDER_LABELS[stored.provider]}, not ${LLM_PROVIDER_LABELS[provider]}.`,
        );
      }
      return {
        changes: { llmApiKeyId: stored.id, llmApiKeyEncrypted: null },
        shown: { api_key: stored.key, api_key_id: stored.id },
      };
    }
    const apiKey = key.api_key ?? '';
    if (apiKey.length < API_KEY_MIN_LENGTH || /\s/.test(apiKey)) {
      throw new BadRequestException(
        `An API key has at least ${API_KEY_MIN_LENGTH} characters and no spaces. Copy the whole key from your provider's site.`,
      );
    }
    return {
      changes: {
        llmApiKeyEncrypted: this.secrets.encrypt(pipeline, 'llm_api_key', apiKey),
        llmApiKeyId: null,
      },
      shown: { api_key: maskApiKey(apiKey) },
    };
  }

  private answer(
    pipeline: Pipeline,
    message: string,
    saved: Record<string, unknown>,
  ): TWizardStepSaved {
    return { session_id: pipeline.id, message, saved };
  }
}
