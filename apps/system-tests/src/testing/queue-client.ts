import {
  BUILD_AGENT_JOB,
  BUILD_JOB_OPTIONS,
  BUILDS_QUEUE,
  type TBuildJob,
  type TBuildProgress,
  type TBuildStageKey,
} from '@agentloom/contracts';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import type { WorkerConfig } from './builder-worker';

/**
 * The producer side of the builds queue as the gateway has it (apps/gateway/src/builds/
 * build-queue.ts): same queue, prefix, job name, options, and the build id as job id. Plus the
 * live feed (QueueEvents), to see where a build is.
 */
export class QueueClient {
  readonly queue: Queue<TBuildJob>;
  readonly events: QueueEvents;
  private readonly connections: Redis[];

  constructor(config: Pick<WorkerConfig, 'REDIS_URL' | 'QUEUE_PREFIX'>) {
    const [producer, listener] = [0, 1].map(
      () => new Redis(config.REDIS_URL, { maxRetriesPerRequest: null }),
    ) as [Redis, Redis];
    this.connections = [producer, listener];
    // Tests that stop Redis expect connection errors; without listeners they would be thrown.
    for (const connection of this.connections) connection.on('error', () => undefined);
    this.queue = new Queue<TBuildJob>(BUILDS_QUEUE, {
      connection: producer,
      prefix: config.QUEUE_PREFIX,
    });
    this.events = new QueueEvents(BUILDS_QUEUE, {
      connection: listener,
      prefix: config.QUEUE_PREFIX,
    });
    this.queue.on('error', () => undefined);
    this.events.on('error', () => undefined);
  }

  ready(): Promise<void> {
    return this.events.waitUntilReady().then(() => undefined);
  }

  async enqueue(buildId: string): Promise<void> {
    await this.queue.add(BUILD_AGENT_JOB, { buildId }, { ...BUILD_JOB_OPTIONS, jobId: buildId });
  }

  /** Resolves when the build reports that `stage` started (call it before enqueueing). */
  stageStarted(buildId: string, stage: TBuildStageKey, timeoutMs: number): Promise<TBuildProgress> {
    return new Promise((resolve, reject) => {
      const onProgress = ({ jobId, data }: { jobId: string; data: unknown }) => {
        const progress = data as TBuildProgress;
        if (jobId !== buildId || progress.stage !== stage || progress.state !== 'started') return;
        finish();
        resolve(progress);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`Build ${buildId} did not start "${stage}" within ${timeoutMs} ms.`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.events.off('progress', onProgress);
      };
      this.events.on('progress', onProgress);
    });
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.queue.obliterate({ force: true }).catch(() => undefined);
    await this.queue.close();
    await Promise.all(this.connections.map((connection) => connection.quit().catch(() => 0)));
  }
}
