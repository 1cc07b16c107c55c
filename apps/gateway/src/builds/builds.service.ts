import {
  agentProjectName,
  agentSlug,
  buildPaths,
  buildStagesOf,
  isUuid,
  readBuildInputs,
  TAgentType,
  TBuildHistoryItem,
  TBuildStarted,
  TBuildView,
  ZBuildStages,
} from '@agentloom/contracts';
import { Build, Pipeline } from '@agentloom/db';
import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
  UnprocessableEntityException,
} from '@nestjs/common';
import type { Readable } from 'node:stream';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { readConfig, wizardSteps } from '../pipelines/pipeline-view';
import { PipelinesService } from '../pipelines/pipelines.service';
import { KnowledgeRepository } from '../knowledge/knowledge.repository';
import { buildInputsOf, changesBetween, knowledgeChangesOf } from './build-changes';
import { evaluationOf } from './build-evaluation';
import { BuildQueue, QueueUnavailableError } from './build-queue';
import { buildWarnings } from './build-warnings';
import { BuildsRepository } from './builds.repository';

export const QUEUE_UNAVAILABLE =
  'The build service is unavailable right now (its queue does not answer). Nothing was started; please try again in a minute.';

/** Starting builds, reading their progress back, and handing out the finished zip. */
@Injectable()
export class BuildsService {
  private readonly logger = new Logger(BuildsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pipelines: PipelinesService,
    private readonly builds: BuildsRepository,
    private readonly queue: BuildQueue,
    private readonly storage: PipelineStorage,
    private readonly knowledge: KnowledgeRepository,
  ) {}

  /**
   * Checks the configuration is complete, records the build and enqueues it. A second click
   * while the build runs answers the same build; if Redis is down the record is undone and the
   * answer is 503, so no build is left half-made.
   */
  async start(userId: string, sessionId: string, type: TAgentType): Promise<TBuildStarted> {
    const pipeline = await this.pipelines.findOwned(userId, sessionId, type);
    const missing = wizardSteps(pipeline, readConfig(pipeline)).filter((step) => !step.complete);
    if (missing.length > 0) {
      throw new UnprocessableEntityException(
        `Complete these steps before building: ${missing.map((step) => step.label).join(', ')}.`,
      );
    }
    const maxRunning = this.config.MAX_CONCURRENT_BUILDS_PER_USER;
    // A RAG agent's build is made of every knowledge source it has now (the wizard's first).
    const sources =
      pipeline.agentType === 'rag' ? await this.knowledge.forSnapshot(pipeline) : undefined;
    const build = await this.builds.startBuild(
      pipeline.id,
      userId,
      { ...buildInputsOf(pipeline), ...(sources && { sources }) },
      maxRunning,
    );
    if (build === 'over-quota') {
      throw new HttpException(
        {
          detail: `You already have ${maxRunning} builds running, the most at once. Wait for one to finish, then build this agent.`,
        },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    if (!build) {
      const running = await this.builds.latestOwned(pipeline.id, userId);
      if (running) return this.started(pipeline, running);
      throw new NotFoundException('Agent not found.');
    }
    try {
      await this.queue.enqueue(build.id);
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      this.logger.warn(`Build ${build.id} not enqueued: ${error.message}`);
      await this.builds.abandonBuild(build, pipeline.status);
      throw new ServiceUnavailableException(QUEUE_UNAVAILABLE);
    }
    return this.started(pipeline, build);
  }

  async latest(userId: string, sessionId: string): Promise<TBuildView> {
    const pipeline = await this.pipelines.findOwned(userId, sessionId);
    const build = await this.builds.latestOwned(pipeline.id, userId);
    if (!build) throw new NotFoundException('This agent has not been built yet.');
    return toView(pipeline, build);
  }

  /**
   * The agent's builds, newest first, each numbered and with what changed since the one before.
   * A rebuild leaves the earlier zips where they are, so each Built one stays downloadable.
   */
  async history(userId: string, sessionId: string): Promise<TBuildHistoryItem[]> {
    const pipeline = await this.pipelines.findOwned(userId, sessionId);
    const builds = await this.builds.listOwned(pipeline.id, userId);
    const served = await this.builds.publishedBuildId(pipeline.id);
    const inputs = builds.map((build) => readBuildInputs(build.snapshot, pipeline.agentType));
    return builds
      .map((build, index) => ({
        build_id: build.id,
        number: index + 1,
        status: build.status,
        created_at: build.createdAt.toISOString(),
        finished_at: build.finishedAt?.toISOString() ?? null,
        error: build.error,
        changes: [
          ...changesBetween(index > 0 ? inputs[index - 1]! : null, inputs[index]!),
          ...knowledgeChangesOf(build),
        ],
        trigger: build.trigger,
        published: build.id === served,
        download_url:
          build.status === 'Built' && build.artifact
            ? buildPaths.download(pipeline.agentType, pipeline.id, build.id)
            : null,
        evaluation: evaluationOf(build),
      }))
      .reverse();
  }

  /**
   * A Built zip of the caller's pipeline of this type: the latest (the dashboard's download, saved
   * as `{type}-agent-{id}.zip`), or the build asked for, whose file name adds its number so two
   * builds of one agent do not overwrite each other in a downloads folder.
   */
  async download(
    userId: string,
    sessionId: string,
    type: TAgentType,
    buildId?: string,
  ): Promise<{ stream: Readable; fileName: string; size: number }> {
    const pipeline = await this.pipelines.findOwned(userId, sessionId, type);
    let build: Build | null;
    let fileName = `${agentProjectName(type, pipeline.id)}.zip`;
    if (buildId === undefined) {
      build = await this.builds.latestBuiltOwned(pipeline.id, userId);
    } else {
      const builds = isUuid(buildId) ? await this.builds.listOwned(pipeline.id, userId) : [];
      const index = builds.findIndex((candidate) => candidate.id === buildId);
      build = builds[index] ?? null;
      if (!build) throw new NotFoundException('Build not found.');
      fileName = `${agentSlug(pipeline.name)}-build-${index + 1}.zip`;
    }
    if (build?.status !== 'Built' || !build.artifact) {
      throw new NotFoundException('There is no finished build of this agent to download yet.');
    }
    const zip = await this.storage.openArtifact(pipeline.id, build.artifact);
    if (!zip) throw new NotFoundException('The build output is missing; build the agent again.');
    return { ...zip, fileName };
  }

  private started(pipeline: Pipeline, build: Build): TBuildStarted {
    return {
      session_id: pipeline.id,
      build_id: build.id,
      status: build.status,
      message:
        pipeline.agentType === 'rag' ? 'RAG agent build started!' : 'SQL agent build started!',
    };
  }
}

export function toView(pipeline: Pipeline, build: Build): TBuildView {
  return {
    build_id: build.id,
    session_id: pipeline.id,
    agent_type: pipeline.agentType,
    status: build.status,
    stage_keys: [...buildStagesOf(pipeline.agentType)],
    stages: ZBuildStages.parse(build.stages),
    error: build.error,
    created_at: build.createdAt.toISOString(),
    finished_at: build.finishedAt?.toISOString() ?? null,
    download_url:
      build.status === 'Built' ? buildPaths.download(pipeline.agentType, pipeline.id) : null,
    warnings: buildWarnings(pipeline, build),
  };
}
