import {
  INDEX_BUILD_JOB,
  KNOWLEDGE_JOB_OPTIONS,
  KNOWLEDGE_QUEUE,
  REFRESH_EVERY_MS,
  REFRESH_SOURCE_JOB,
  refreshSchedulerId,
  type TRefreshSchedule,
} from '@agentloom/contracts';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { closeWithin, withDeadline } from '../common/deadline';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';

/** How long a call waits for Redis before it counts as unavailable. */
const QUEUE_TIMEOUT_MS = 1_500;

export class KnowledgeQueueUnavailableError extends Error {}

/**
 * The producer side of the knowledge queue (the builder worker consumes it): refreshes asked for
 * now, each source's refresh schedule (a BullMQ job scheduler, one per source: it survives
 * restarts and fires once however many gateways and workers run), and the indexing of builds
 * made before builds indexed themselves.
 */
@Injectable()
export class KnowledgeQueue implements OnModuleDestroy {
  private readonly queue: Queue;

  constructor(redis: RedisService, @Inject(APP_CONFIG) config: AppConfig) {
    this.queue = new Queue(KNOWLEDGE_QUEUE, {
      connection: redis.client,
      prefix: config.QUEUE_PREFIX,
    });
    // Connection errors are reported by RedisService; without a listener they would be thrown.
    this.queue.on('error', () => undefined);
  }

  /** A refresh of the source now (a second ask while one waits is the same job). */
  refreshNow(sourceId: string): Promise<void> {
    return this.call(async () => {
      await this.queue.add(
        REFRESH_SOURCE_JOB,
        { sourceId },
        { ...KNOWLEDGE_JOB_OPTIONS, jobId: `refresh-now-${sourceId}-${Date.now()}` },
      );
    });
  }

  /** The source's refresh schedule: set (replacing the one there was) or removed. */
  schedule(sourceId: string, refresh: TRefreshSchedule): Promise<void> {
    return this.call(async () => {
      if (refresh === 'off') {
        await this.queue.removeJobScheduler(refreshSchedulerId(sourceId));
        return;
      }
      await this.queue.upsertJobScheduler(
        refreshSchedulerId(sourceId),
        { every: REFRESH_EVERY_MS[refresh] },
        { name: REFRESH_SOURCE_JOB, data: { sourceId }, opts: KNOWLEDGE_JOB_OPTIONS },
      );
    });
  }

  /** The next time the source's schedule fires, if it has one (tests and the panel). */
  async nextRefresh(sourceId: string): Promise<Date | null> {
    const scheduler = await this.queue.getJobScheduler(refreshSchedulerId(sourceId));
    return scheduler?.next ? new Date(scheduler.next) : null;
  }

  /**
   * Asks a worker to index a Built build that has no hosted index; one job per build, so many
   * questions at once ask once. A job that failed earlier is asked again.
   */
  indexBuild(buildId: string): Promise<void> {
    return this.call(async () => {
      const jobId = `index-${buildId}`;
      const earlier = await this.queue.getJob(jobId);
      if (earlier && (await earlier.isFailed())) await earlier.remove();
      await this.queue.add(INDEX_BUILD_JOB, { buildId }, { ...KNOWLEDGE_JOB_OPTIONS, jobId });
    });
  }

  private async call(work: () => Promise<void>): Promise<void> {
    try {
      await withDeadline(work(), QUEUE_TIMEOUT_MS, () => new Error('timeout'));
    } catch (error) {
      throw new KnowledgeQueueUnavailableError(
        `The knowledge queue did not answer: ${(error as Error).message}`,
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    await closeWithin(this.queue.close(), 2_000);
  }
}
