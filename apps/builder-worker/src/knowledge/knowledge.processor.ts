import { embedderOrKeyword } from '@agentloom/agent-runtime';
import {
  DEFAULT_CHUNKING,
  DEFAULT_EMBEDDING_MODEL,
  embeddingSpec,
  INDEX_BUILD_JOB,
  KNOWLEDGE_QUEUE,
  KNOWLEDGE_QUEUE_JOBS,
  MAX_FAILED_REFRESHES,
  readBuildInputs,
  readPipelineConfig,
  REFRESH_SOURCE_JOB,
  ZIndexBuildJob,
  ZRefreshSourceJob,
  type TKnowledgeQueueJob,
  type TPipelineConfig,
  type TStageWork,
} from '@agentloom/contracts';
import { Prisma, type KnowledgeSource, type Pipeline } from '@agentloom/db';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import { BuildError } from '../builds/build-error';
import { BuildSecrets } from '../builds/build-secrets';
import { BuildsRepository } from '../builds/builds.repository';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';
import { KnowledgeBuilds } from './knowledge-builds';
import { KnowledgeIndex } from './knowledge-index';
import { KnowledgeRepository } from './knowledge.repository';
import { SourceError, SourceIndexer, type IndexContext } from './source-indexer';

/** How often a refresh's progress is written to its source row (the Knowledge panel polls it). */
const PROGRESS_EVERY_MS = 500;

/**
 * The consumer of the knowledge queue: refreshes of table and web sources (each source's
 * schedule is a BullMQ job scheduler, so a refresh fires once however many workers run) and the
 * indexing of builds made before builds indexed themselves. A refresh that finds nothing changed
 * embeds and builds nothing; one that finds changes writes them (a delta) and starts a build; a
 * refresh that fails leaves the agent as it was, and three failures in a row pause the schedule.
 */
@Injectable()
export class KnowledgeProcessor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(KnowledgeProcessor.name);
  private worker?: Worker;
  private readonly handlers: Record<TKnowledgeQueueJob, (job: Job) => Promise<void>> = {
    [REFRESH_SOURCE_JOB]: (job) => this.refresh(ZRefreshSourceJob.parse(job.data).sourceId),
    [INDEX_BUILD_JOB]: (job) => this.indexBuild(ZIndexBuildJob.parse(job.data).buildId),
  };

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly redis: RedisService,
    private readonly knowledge: KnowledgeRepository,
    private readonly indexer: SourceIndexer,
    private readonly index: KnowledgeIndex,
    private readonly knowledgeBuilds: KnowledgeBuilds,
    private readonly builds: BuildsRepository,
    private readonly secrets: BuildSecrets,
  ) {}

  onApplicationBootstrap(): void {
    const missing = KNOWLEDGE_QUEUE_JOBS.filter(
      (name) => typeof this.handlers[name] !== 'function',
    );
    if (missing.length > 0) throw new Error(`No handler for knowledge jobs: ${missing.join(', ')}`);
    this.worker = new Worker(KNOWLEDGE_QUEUE, (job) => this.process(job), {
      connection: this.redis.client,
      prefix: this.config.QUEUE_PREFIX,
      concurrency: this.config.WORKER_CONCURRENCY,
      lockDuration: this.config.WORKER_LOCK_DURATION_MS,
      stalledInterval: this.config.WORKER_STALLED_INTERVAL_MS,
    });
    this.worker.on('error', (error) => this.logger.warn(`Knowledge queue: ${error.message}`));
  }

  /** For tests: resolves when the consumer takes jobs. */
  async ready(): Promise<void> {
    await this.worker?.waitUntilReady();
  }

  consuming(): boolean {
    return this.worker?.isRunning() ?? false;
  }

  async process(job: Job): Promise<void> {
    const handler = this.handlers[job.name as TKnowledgeQueueJob] as
      ((job: Job) => Promise<void>) | undefined;
    if (!handler) throw new UnrecoverableError(`No handler for "${job.name}" jobs.`);
    await handler(job);
  }

  /** One refresh of one table or web source. */
  async refresh(sourceId: string): Promise<void> {
    const found = await this.knowledge.findSource(sourceId);
    if (!found || found.kind === 'file' || found.status === 'removed') {
      // Removed since the schedule was set (or a file, which is replaced, not refreshed).
      await this.knowledgeBuilds.stopSchedule(sourceId);
      return;
    }
    const { pipeline, ...source } = found;
    if (!(await this.knowledge.claim(source.id))) {
      this.logger.log(`Source ${source.id} is being read already; this refresh is skipped.`);
      return;
    }
    const base = await this.knowledge.latestBuilt(pipeline.id);
    const config = base
      ? readBuildInputs(base.snapshot, pipeline.agentType)?.config
      : readPipelineConfig(pipeline.agentType, pipeline.config).data;
    if (!base || config?.agent_type !== 'rag') {
      // Not built yet: the owner's first build reads it.
      await this.knowledge.updateSource(source.id, { status: 'waiting', progress: Prisma.DbNull });
      return;
    }
    try {
      const ctx = await this.contextFor(pipeline, config, source);
      const result = await this.indexer.refresh(ctx, source);
      await this.knowledge.recordPages(source, result?.pages);
      if (!result) {
        await this.knowledge.updateSource(source.id, {
          status: 'ready',
          error: null,
          progress: Prisma.DbNull,
          failedRefreshes: 0,
          lastRefreshedAt: new Date(),
          lastChange: 'no changes found',
        });
        this.logger.log(`Source ${source.id} refreshed: no changes.`);
        return;
      }
      await this.knowledge.updateSource(source.id, {
        status: 'ready',
        error: null,
        progress: Prisma.DbNull,
        failedRefreshes: 0,
        chunks: result.chunks,
        contentVersion: result.chain.at(-1)!.contentVersion,
        lastRefreshedAt: new Date(),
        lastChangedAt: new Date(),
        lastChange: result.change,
      });
      const build = await this.knowledgeBuilds.start(pipeline, 'refresh', [
        { source_id: source.id, name: source.name, change: `refreshed: ${result.change}` },
      ]);
      // A build of the agent is running: this change waits for it, and builds when it ends.
      if (!build) await this.knowledge.updateSource(source.id, { status: 'waiting' });
      this.logger.log(`Source ${source.id} refreshed: ${result.change}.`);
    } catch (error) {
      await this.refreshFailed(source, error);
    }
  }

  private async refreshFailed(source: KnowledgeSource, error: unknown): Promise<void> {
    const message =
      error instanceof SourceError || error instanceof BuildError
        ? error.message
        : `The refresh failed unexpectedly (${(error as Error).message}).`;
    const failures = source.failedRefreshes + 1;
    this.logger.warn(`Refresh of source ${source.id} failed (${failures} in a row): ${message}`);
    if (failures >= MAX_FAILED_REFRESHES && source.refresh !== 'off') {
      await this.knowledgeBuilds.stopSchedule(source.id);
      await this.knowledge.updateSource(source.id, {
        status: 'paused',
        progress: Prisma.DbNull,
        failedRefreshes: failures,
        refresh: 'off',
        error: `Scheduled refreshes stopped after ${failures} failures in a row. The last: ${message} Fix the source, then refresh it or turn its schedule on again.`,
      });
      return;
    }
    await this.knowledge.updateSource(source.id, {
      status: 'failed',
      progress: Prisma.DbNull,
      failedRefreshes: failures,
      error: `${message} The agent still answers from the last version that was read.`,
    });
  }

  /** How a refresh embeds: the model of the agent's newest build, with the owner's key. */
  private async contextFor(
    pipeline: Pipeline,
    config: TPipelineConfig,
    source: KnowledgeSource,
  ): Promise<IndexContext> {
    if (config.agent_type !== 'rag') throw new Error('Only RAG agents have knowledge sources.');
    const model = config.embedding_model ?? DEFAULT_EMBEDDING_MODEL;
    const openai = embeddingSpec(model).backend === 'openai' && config.llm?.provider === 'openai';
    const embedder = await embedderOrKeyword(model, {
      openaiKey: openai ? await this.secrets.llmKey(pipeline) : null,
      baseUrl: this.config.OPENAI_BASE_URL,
      cacheDir: this.config.MODEL_CACHE_DIR,
    });
    let last = 0;
    const report = async (work: TStageWork) => {
      const now = Date.now();
      if (now - last < PROGRESS_EVERY_MS && work.done < work.of) return;
      last = now;
      await this.knowledge.updateSource(source.id, {
        progress: { done: work.done, of: work.of, unit: work.unit },
      });
    };
    return { pipeline, model, embedder, chunking: DEFAULT_CHUNKING, report };
  }

  /**
   * A Built build recorded without a hosted index (made before builds indexed themselves): its
   * index, made once from its sources and recorded with it. The gateway asks for it the first
   * time such an agent is asked, and waits.
   */
  async indexBuild(buildId: string): Promise<void> {
    const found = await this.builds.findWithPipeline(buildId);
    if (!found || found.status !== 'Built' || found.hostedIndex) return;
    const { pipeline, ...build } = found;
    const config =
      readBuildInputs(build.snapshot, pipeline.agentType)?.config ??
      readPipelineConfig(pipeline.agentType, pipeline.config).data;
    if (config?.agent_type !== 'rag') return;
    const { hostedIndex } = await this.index.run({ build, pipeline, config }, () =>
      Promise.resolve(),
    );
    await this.builds.recordHostedIndex(build.id, hostedIndex);
    this.logger.log(`Build ${build.id}: indexed on first use (${hostedIndex.chunks} chunks).`);
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
  }
}
