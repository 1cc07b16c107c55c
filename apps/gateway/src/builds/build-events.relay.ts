import {
  BUILD_EVENTS,
  BUILDS_QUEUE,
  TBuildCompletedEvent,
  TBuildFailedEvent,
  TBuildStageEvent,
  ZBuildProgress,
} from '@agentloom/contracts';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { Namespace } from 'socket.io';
import { AccessTokenVerifier } from '../auth/access-token.verifier';
import { closeWithin } from '../common/deadline';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';
import { emitToSignedIn } from './build-sockets';
import { BuildsRepository } from './builds.repository';
import { toView } from './builds.service';

/** Socket.IO room of one pipeline's build events. */
export const pipelineRoom = (pipelineId: string) => `pipeline:${pipelineId}`;

/**
 * Relays what the workers report (BullMQ QueueEvents, a Redis stream every gateway replica
 * reads) to the browsers subscribed on this replica. Stage events carry the build id; the build
 * row says which pipeline — and so which room — it belongs to.
 */
@Injectable()
export class BuildEventsRelay implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(BuildEventsRelay.name);
  private connection?: Redis;
  private events?: QueueEvents;
  private namespace?: Namespace;
  /** build id → pipeline id: each build's first event looks it up, the rest reuse it. */
  private readonly pipelineOf = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly builds: BuildsRepository,
    private readonly redis: RedisService,
    private readonly tokens: AccessTokenVerifier,
  ) {}

  attach(namespace: Namespace): void {
    this.namespace = namespace;
  }

  /**
   * Starts listening once Redis answers. With Redis down at boot there is nothing to relay yet,
   * and a listener that never connected could not be shut down cleanly.
   */
  onModuleInit(): void {
    if (this.redis.client.status === 'ready') this.listen();
    else this.redis.client.once('ready', () => this.listen());
  }

  private listen(): void {
    if (this.events || this.closed) return;
    // QueueEvents blocks on its connection, so it gets its own, which must never give up.
    this.connection = new Redis(this.config.REDIS_URL, { maxRetriesPerRequest: null });
    this.connection.on('error', () => undefined); // RedisService reports connection problems
    const events = new QueueEvents(BUILDS_QUEUE, {
      connection: this.connection,
      prefix: this.config.QUEUE_PREFIX,
      autorun: false,
    });
    events.on('error', (error) => this.logger.warn(`Build events: ${error.message}`));
    events.on('progress', ({ jobId, data }) => this.inOrder(() => this.relayStage(jobId, data)));
    events.on('completed', ({ jobId }) => this.inOrder(() => this.relayEnd(jobId)));
    events.on('failed', ({ jobId }) => this.inOrder(() => this.relayEnd(jobId)));
    void events.run().catch((error: Error) => this.logger.warn(error.message));
    this.events = events;
  }

  /**
   * Relaying may wait for a database lookup; chaining keeps the browser's order the same as the
   * worker's (a stage never appears to finish before it started).
   */
  private inOrder(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((error: Error) => this.logger.warn(error.message));
  }

  private async pipelineOfBuild(buildId: string): Promise<string | null> {
    let pipelineId = this.pipelineOf.get(buildId);
    if (!pipelineId) {
      const build = await this.builds.findById(buildId);
      if (!build) return null;
      pipelineId = build.pipelineId;
      this.pipelineOf.set(buildId, pipelineId);
    }
    return pipelineId;
  }

  private async relayStage(buildId: string, data: unknown): Promise<void> {
    const progress = ZBuildProgress.safeParse(data);
    const pipelineId = progress.success ? await this.pipelineOfBuild(buildId) : null;
    if (!progress.success || !pipelineId || !this.namespace) return;
    const event: TBuildStageEvent = { ...progress.data, session_id: pipelineId };
    await this.emit(pipelineRoom(pipelineId), BUILD_EVENTS.stage, event);
  }

  /** The build row is the truth about how it ended (a failed attempt may still be retried). */
  private async relayEnd(buildId: string): Promise<void> {
    try {
      const build = await this.builds.findByIdWithPipeline(buildId);
      this.pipelineOf.delete(buildId);
      if (!build || !this.namespace) return;
      const room = pipelineRoom(build.pipelineId);
      const view = toView(build.pipeline, build);
      if (build.status === 'Built' && view.download_url) {
        const event: TBuildCompletedEvent = {
          session_id: build.pipelineId,
          build_id: build.id,
          download_url: view.download_url,
        };
        await this.emit(room, BUILD_EVENTS.completed, event);
      } else if (build.status === 'Failed') {
        const event: TBuildFailedEvent = {
          session_id: build.pipelineId,
          build_id: build.id,
          error: build.error ?? 'The build failed.',
        };
        await this.emit(room, BUILD_EVENTS.failed, event);
      }
    } catch (error) {
      this.logger.warn(`Could not relay the end of build ${buildId}: ${(error as Error).message}`);
    }
  }

  /** To the room's sockets whose tokens still hold (a reset password ends the others). */
  private async emit(room: string, event: string, payload: unknown): Promise<void> {
    if (this.namespace) await emitToSignedIn(this.namespace, room, this.tokens, event, payload);
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.events) await closeWithin(this.events.close(), 2_000);
    this.connection?.disconnect();
  }
}
