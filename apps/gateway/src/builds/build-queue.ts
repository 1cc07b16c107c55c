import { BUILD_AGENT_JOB, BUILD_JOB_OPTIONS, BUILDS_QUEUE, TBuildJob } from '@agentloom/contracts';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Queue } from 'bullmq';
import { closeWithin, withDeadline } from '../common/deadline';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';

/** How long a build request waits for Redis before answering 503. */
const ENQUEUE_TIMEOUT_MS = 1_500;

export class QueueUnavailableError extends Error {}

/**
 * The producer side of the `builds` queue. It shares the gateway's Redis connection, which fails
 * commands at once while Redis is away (no offline queue) and after REDIS_COMMAND_TIMEOUT_MS
 * while it is stalled, so a build request never hangs. A job added during a stall may still
 * reach Redis when the stall ends; its build row is gone by then (the request was undone), and
 * the worker drops a job whose build no longer exists.
 */
@Injectable()
export class BuildQueue implements OnModuleDestroy {
  private queue: Queue<TBuildJob>;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.queue = this.newQueue();
  }

  private newQueue(): Queue<TBuildJob> {
    const queue = new Queue<TBuildJob>(BUILDS_QUEUE, {
      connection: this.redis.client,
      prefix: this.config.QUEUE_PREFIX,
    });
    // Connection errors are reported by RedisService; without a listener they would be thrown.
    queue.on('error', () => undefined);
    return queue;
  }

  /** Enqueues the build; the build id is the job id, so enqueueing twice adds one job. */
  async enqueue(buildId: string): Promise<void> {
    try {
      // run() answers at once while Redis is known to be away, and marks it away on a timeout.
      await this.redis.run(() =>
        withDeadline(this.add(buildId), ENQUEUE_TIMEOUT_MS, () => new Error('timeout')),
      );
    } catch (error) {
      throw new QueueUnavailableError(
        `The build queue did not answer: ${(error as Error).message}`,
      );
    }
  }

  private async add(buildId: string): Promise<void> {
    // BullMQ keeps the failure of a Queue's start-up (its first round trip, e.g. during a Redis
    // stall) and fails every later call with it, even once Redis answers again. Such a Queue is
    // replaced by a fresh one (on the same connection, so cheap) that starts up again.
    await this.queue.waitUntilReady().catch(() => {
      const broken = this.queue;
      this.queue = this.newQueue();
      void closeWithin(broken.close(), 2_000);
    });
    await this.queue.add(BUILD_AGENT_JOB, { buildId }, { ...BUILD_JOB_OPTIONS, jobId: buildId });
  }

  /** For tests and operations: the job recorded for a build, if any. */
  job(buildId: string) {
    return this.queue.getJob(buildId);
  }

  /** For tests: removes the queue and every job in it from Redis. */
  async obliterate(): Promise<void> {
    await this.queue.obliterate({ force: true });
  }

  async onModuleDestroy(): Promise<void> {
    await closeWithin(this.queue.close(), 2_000);
  }
}
