import {
  BUILD_AGENT_JOB,
  BUILD_JOB_OPTIONS,
  BUILDS_QUEUE,
  KNOWLEDGE_QUEUE,
  refreshSchedulerId,
  type TBuildJob,
  type TKnowledgeChange,
} from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';
import { KnowledgeRepository } from './knowledge.repository';

/**
 * The builds the worker starts itself: after a refresh that found changes, and after a build
 * that ended while knowledge changes waited for it. Each is made like the gateway's knowledge
 * builds: the newest Built build's configuration, the sources as they are now, enqueued once
 * (the build id is the job id).
 */
@Injectable()
export class KnowledgeBuilds implements OnModuleDestroy {
  private readonly logger = new Logger(KnowledgeBuilds.name);
  private readonly builds: Queue<TBuildJob>;
  private readonly knowledgeQueue: Queue;

  constructor(
    @Inject(WORKER_CONFIG) config: WorkerConfig,
    redis: RedisService,
    private readonly knowledge: KnowledgeRepository,
  ) {
    const options = { connection: redis.client, prefix: config.QUEUE_PREFIX };
    this.builds = new Queue<TBuildJob>(BUILDS_QUEUE, options);
    this.knowledgeQueue = new Queue(KNOWLEDGE_QUEUE, options);
    // Connection errors are reported by RedisService; without a listener they would be thrown.
    this.builds.on('error', () => undefined);
    this.knowledgeQueue.on('error', () => undefined);
  }

  /**
   * A build of the agent's sources as they are now, on top of its newest Built build; null when
   * the agent was never built (the first build is the owner's) or a build runs (the changes wait
   * for it and this is called again when it ends).
   */
  async start(
    pipeline: Pipeline,
    trigger: 'knowledge' | 'refresh',
    changes: TKnowledgeChange[],
  ): Promise<Build | null> {
    const base = await this.knowledge.latestBuilt(pipeline.id);
    if (!base) return null;
    const build = await this.knowledge.startKnowledgeBuild(pipeline, base, trigger, changes);
    if (!build) return null;
    await this.builds.add(
      BUILD_AGENT_JOB,
      { buildId: build.id },
      { ...BUILD_JOB_OPTIONS, jobId: build.id },
    );
    this.logger.log(`Build ${build.id} started for ${pipeline.id}'s knowledge (${trigger}).`);
    return build;
  }

  /** After a build of the agent ended: the changes that waited for it get a build of their own. */
  async startWaiting(pipeline: Pipeline): Promise<void> {
    const waiting = await this.knowledge.waitingSources(pipeline.id);
    if (waiting.length === 0) return;
    await this.start(pipeline, 'knowledge', []);
  }

  /** A source's schedule stops (it was removed, or its refreshes kept failing). */
  async stopSchedule(sourceId: string): Promise<void> {
    await this.knowledgeQueue.removeJobScheduler(refreshSchedulerId(sourceId));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.builds.close(), this.knowledgeQueue.close()]).catch(() => undefined);
  }
}
