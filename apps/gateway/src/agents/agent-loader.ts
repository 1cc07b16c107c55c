import {
  CURATED_MATCH_THRESHOLDS,
  embedderOrKeyword,
  fileSqlEngine,
  languageModel,
  mysqlSqlEngine,
  postgresSqlEngine,
  RagAgent,
  rememberingQueries,
  SqlAgent,
  sqliteFileSqlEngine,
  type AgentEvent,
  type ChatTurn,
  type Embedder,
  type KeywordOnly,
  type ProviderBaseUrls,
  type RetrievalIndex,
  type RetrievalMode,
  type SearchMode,
  type SqlEngine,
} from '@agentloom/agent-runtime';
import {
  DEFAULT_EMBEDDING_MODEL,
  RAG_WIZARD_STEPS,
  readBuildInputs,
  RELEVANCE_THRESHOLDS,
  retrievalOf,
  SQL_WIZARD_STEPS,
  TPipelineConfig,
  TPreviewInfo,
  TUiFramework,
} from '@agentloom/contracts';
import { Build, Pipeline } from '@agentloom/db';
import { VaultDecryptError } from '@agentloom/vault';
import {
  Inject,
  Injectable,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { APP_CONFIG, AppConfig } from '../config/env';
import { providerBaseUrls } from '../config/provider-base-urls';
import { PipelineSecrets } from '../pipelines/pipeline-secrets';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { readConfig } from '../pipelines/pipeline-view';
import { DataSourcesService } from '../sources/data-sources.service';
import { CuratedMatcher } from './curated-matcher';
import { HostedIndexes } from './hosted-indexes';
import type { AgentSetup } from './plain-errors';

/**
 * One Built build's agent, loaded in this process: what a preview page shows about it, and the
 * agent itself (previews, published agents and runtime replicas all answer through it).
 */
export interface LoadedAgent {
  kind: 'rag' | 'sql';
  name: string;
  ui: TUiFramework;
  /** e.g. "sales.csv" or "customers (mysql)". */
  sourceLabel: string;
  /** RAG only: how retrieval works here, and why when it is not the chosen embedding model. */
  retrieval?: { mode: RetrievalMode; note?: string; chunks: number };
  /** SQL: the tables it queries, with their columns. */
  tables?: TPreviewInfo['tables'];
  /** Its provider and model, and where the owner changes them (for plain error messages). */
  setup: AgentSetup;
  /** `history`: earlier turns of the conversation (published agents; previews have none). */
  ask(question: string, signal: AbortSignal, history?: ChatTurn[]): AsyncGenerator<AgentEvent>;
  memoryBytes(): number;
  close(): Promise<void>;
}

/**
 * Loads a Built build's agent: the build's configuration, its hosted index or its SQL source, and
 * the provider key decrypted in memory only — it never reaches the page, the stream or a log.
 */
@Injectable()
export class AgentLoader {
  private readonly baseUrls: ProviderBaseUrls;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: PipelineSecrets,
    private readonly apiKeys: ApiKeysService,
    private readonly storage: PipelineStorage,
    private readonly dataSources: DataSourcesService,
    private readonly hostedIndexes: HostedIndexes,
    private readonly curated: CuratedMatcher,
  ) {
    this.baseUrls = providerBaseUrls(config);
  }

  /**
   * The agent of one Built build of a pipeline, whoever asks: previews load the latest build,
   * published agents the build their owner published (the caller has checked both). It is the
   * build's agent — the prompt, model, embedding model and data it was built with, from the
   * build's snapshot — whatever the draft has become since; only the provider key is the
   * pipeline's current one (a rotated key needs no rebuild).
   */
  async loadBuild(pipeline: Pipeline, build: Build): Promise<LoadedAgent> {
    // Builds from before snapshots were kept serve the configuration as it is.
    const config =
      readBuildInputs(build.snapshot, pipeline.agentType)?.config ?? readConfig(pipeline);
    const provider = config.llm?.provider;
    const modelName = config.llm?.model;
    if (!provider || !modelName) {
      throw new UnprocessableEntityException('The agent has no LLM provider and model.');
    }
    const apiKey = await this.providerKey(pipeline);
    const model = languageModel({ provider, model: modelName, apiKey, baseUrls: this.baseUrls });
    const systemPrompt = config.system_prompt ?? '';
    // What the preview page shows, the same for both kinds.
    const shown = {
      name: pipeline.name,
      ui: config.ui ?? 'streamlit',
      sourceLabel: sourceLabel(config),
      setup: {
        provider,
        model: modelName,
        editUrl: this.llmStepUrl(pipeline.agentType, pipeline.id),
      },
    };
    if (config.agent_type === 'sql') {
      const engine = await this.sqlEngine(pipeline, config);
      const agent = new SqlAgent({ model, systemPrompt, engine });
      // A SQL agent has no embedding model: its curated questions match by shared words.
      const curated = { pipelineId: pipeline.id, embedder: () => null, threshold: 1 };
      return {
        kind: 'sql',
        ...shown,
        tables: await engine.describe(),
        ask: (question, signal, history) =>
          withoutSecret(
            this.curated.answer(curated, question, signal, () =>
              agent.ask(question, signal, history),
            ),
            apiKey,
          ),
        memoryBytes: () => engine.memoryBytes(),
        close: () => engine.close(),
      };
    }
    const settings = retrievalOf(config);
    const embedding = this.embedding(config, provider === 'openai' ? apiKey : null);
    const index = await this.ragIndex(pipeline, build, embedding.load, settings.search);
    const curated = {
      pipelineId: pipeline.id,
      // Curated questions are compared by meaning when the index is, else by shared words.
      embedder: () => (index.mode === 'embeddings' ? embedding.loaded() : null),
      threshold: CURATED_MATCH_THRESHOLDS[config.embedding_model ?? DEFAULT_EMBEDDING_MODEL],
    };
    const agent = new RagAgent({
      model,
      systemPrompt,
      index,
      topK: settings.top_k,
      answerOnlyFromSources: settings.answer_only_from_sources,
      relevanceThreshold: RELEVANCE_THRESHOLDS[config.embedding_model ?? DEFAULT_EMBEDDING_MODEL],
    });
    return {
      kind: 'rag',
      ...shown,
      retrieval: { mode: index.mode, note: index.note, chunks: index.size },
      ask: (question, signal, history) =>
        withoutSecret(
          this.curated.answer(curated, question, signal, () =>
            agent.ask(question, signal, history),
          ),
          apiKey,
        ),
      memoryBytes: () => index.memoryBytes(),
      close: () => Promise.resolve(),
    };
  }

  /** The wizard step where the owner changes the agent's key and model, in the web app. */
  private llmStepUrl(kind: 'rag' | 'sql', pipelineId: string): string {
    const steps: readonly { key: string }[] = kind === 'rag' ? RAG_WIZARD_STEPS : SQL_WIZARD_STEPS;
    const step = steps.findIndex((candidate) => candidate.key === 'llm') + 1;
    const web = this.config.PUBLIC_URL.replace(/\/+$/, '');
    return `${web}/pipeline/${kind}/${pipelineId}?step=${step}`;
  }

  /** The key the agent was configured with: typed into the wizard, or one of the owner's vault. */
  private async providerKey(pipeline: Pipeline): Promise<string> {
    try {
      if (pipeline.llmApiKeyEncrypted) {
        return this.secrets.decrypt(pipeline, 'llm_api_key', pipeline.llmApiKeyEncrypted);
      }
      if (pipeline.llmApiKeyId) {
        return (await this.apiKeys.reveal(pipeline.userId, pipeline.llmApiKeyId)).key;
      }
    } catch (error) {
      if (error instanceof NotFoundException) {
        throw new UnprocessableEntityException(
          'The saved API key this agent uses was deleted; choose another key in the wizard.',
        );
      }
      if (error instanceof VaultDecryptError) {
        throw new UnprocessableEntityException(
          'The stored API key can no longer be decrypted; enter it again in the wizard.',
        );
      }
      throw error;
    }
    throw new UnprocessableEntityException('The agent has no API key for its provider.');
  }

  /**
   * A RAG build's hosted index opened to search `search`'s way, without an agent around it: what
   * the owner's retrieval test reads (the question is embedded with the owner's key, as the
   * agent would embed it).
   */
  async openIndex(pipeline: Pipeline, build: Build, search: SearchMode): Promise<RetrievalIndex> {
    const config =
      readBuildInputs(build.snapshot, pipeline.agentType)?.config ?? readConfig(pipeline);
    const openai = config.llm?.provider === 'openai';
    const embedding = this.embedding(config, openai ? await this.providerKey(pipeline) : null);
    return this.ragIndex(pipeline, build, embedding.load, search);
  }

  /** The build's hosted index, as the worker made it. */
  private ragIndex(
    pipeline: Pipeline,
    build: Build,
    embedder: () => Promise<Embedder | KeywordOnly>,
    search: SearchMode,
  ) {
    if (pipeline.agentType !== 'rag') throw new Error('Only RAG agents retrieve passages.');
    return this.hostedIndexes.open(pipeline, build, embedder, search);
  }

  /**
   * The agent's embedding model, loaded when first asked for (an index searched by words alone
   * never asks), remembering its last questions' vectors: the curated answers and the passage
   * search embed a question once.
   */
  private embedding(config: TPipelineConfig, openaiKey: string | null) {
    const model =
      (config.agent_type === 'rag' && config.embedding_model) || DEFAULT_EMBEDDING_MODEL;
    let chosen: Embedder | KeywordOnly | undefined;
    let loading: Promise<Embedder | KeywordOnly> | undefined;
    const load = () =>
      (loading ??= embedderOrKeyword(model, {
        openaiKey,
        baseUrl: this.baseUrls.openai,
        cacheDir: this.config.MODEL_CACHE_DIR,
      }).then((found) => (chosen = 'keywordBecause' in found ? found : rememberingQueries(found))));
    const loaded = () => (chosen && !('keywordBecause' in chosen) ? chosen : null);
    return { load, loaded };
  }

  private async sqlEngine(pipeline: Pipeline, config: TPipelineConfig): Promise<SqlEngine> {
    if (config.database) return this.databaseEngine(pipeline, config);
    const kind = config.source_type;
    if ((kind !== 'csv' && kind !== 'excel') || !pipeline.sourceFile || !config.file) {
      throw new UnprocessableEntityException('The agent has no data source to query.');
    }
    const file = await this.storage.uploadFile(pipeline.id, pipeline.sourceFile);
    if (!file) {
      throw new UnprocessableEntityException(
        'The uploaded source file is missing; upload it again.',
      );
    }
    return fileSqlEngine({ kind, path: file, tableName: config.file.original_name });
  }

  private async databaseEngine(pipeline: Pipeline, config: TPipelineConfig): Promise<SqlEngine> {
    const source = config.database;
    if (!source || !pipeline.sourceUriEncrypted) {
      throw new UnprocessableEntityException('The agent has no database connection.');
    }
    if (source.type === 'sqlite') {
      const file = await this.dataSources.sqliteFile(
        this.secrets.decrypt(pipeline, 'source_uri', pipeline.sourceUriEncrypted),
      );
      try {
        return await sqliteFileSqlEngine({ path: file, table: source.table });
      } catch (error) {
        throw new UnprocessableEntityException((error as Error).message);
      }
    }
    if (source.type !== 'postgres' && source.type !== 'mysql') {
      throw new UnprocessableEntityException(
        'MongoDB agents cannot be previewed here yet. Download the agent to try it.',
      );
    }
    const uri = await this.dataSources.connectionUri(
      source.type,
      this.secrets.decrypt(pipeline, 'source_uri', pipeline.sourceUriEncrypted),
      source.database,
    );
    const open = source.type === 'postgres' ? postgresSqlEngine : mysqlSqlEngine;
    try {
      return await open({ uri, table: source.table });
    } catch (error) {
      throw new UnprocessableEntityException(
        `The ${source.type === 'postgres' ? 'Postgres' : 'MySQL'} database could not be opened: ${(error as Error).message}`.replaceAll(
          uri,
          source.uri,
        ),
      );
    }
  }
}

/**
 * The runtime never puts the key in an event, but a provider's error text is outside its
 * control: anything that would carry the key to the page has it masked first.
 */
async function* withoutSecret(
  events: AsyncGenerator<AgentEvent>,
  secret: string,
): AsyncGenerator<AgentEvent> {
  for await (const event of events) {
    // Tokens are most of the events: their text is checked as it is, not serialised.
    if (event.type === 'token') {
      yield event.text.includes(secret)
        ? { ...event, text: event.text.replaceAll(secret, '****') }
        : event;
      continue;
    }
    const serialized = JSON.stringify(event);
    yield serialized.includes(secret)
      ? (JSON.parse(serialized.replaceAll(secret, '****')) as AgentEvent)
      : event;
  }
}

function sourceLabel(config: TPipelineConfig): string {
  if (config.database) return `${config.database.table} (${config.database.type})`;
  return config.file?.original_name ?? 'data source';
}
