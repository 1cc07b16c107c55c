import { BUILD_AGENT_JOB, BUILD_JOB_OPTIONS, BUILDS_QUEUE } from '@agentloom/contracts';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { BuildProcessor } from '../builds/build.processor';
import type { WorkerConfig } from '../config/env';
import { WorkerModule } from '../worker.module';

/**
 * The worker module running in this process against real Postgres and Redis, plus a producer
 * that enqueues builds exactly as the gateway does (job id = build id, BUILD_JOB_OPTIONS).
 */
export async function startWorkerHarness(config: WorkerConfig) {
  const worker: INestApplicationContext = await NestFactory.createApplicationContext(
    WorkerModule.register(config),
    { logger: false },
  );
  await worker.init();
  await worker.get(BuildProcessor).ready();
  const producer = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const listener = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue(BUILDS_QUEUE, { connection: producer, prefix: config.QUEUE_PREFIX });
  const events = new QueueEvents(BUILDS_QUEUE, {
    connection: listener,
    prefix: config.QUEUE_PREFIX,
  });
  await events.waitUntilReady();

  return {
    queue,
    /** The queue's events as the gateway hears them (progress, completion). */
    events,
    /** Enqueues the build and resolves when it ends (rejects with the failure reason). */
    async runBuild(buildId: string): Promise<void> {
      const job = await queue.add(
        BUILD_AGENT_JOB,
        { buildId },
        { ...BUILD_JOB_OPTIONS, jobId: buildId },
      );
      await job.waitUntilFinished(events, 120_000);
    },
    async close(): Promise<void> {
      await worker.close();
      await events.close();
      await queue.obliterate({ force: true });
      await queue.close();
      await Promise.all([producer.quit(), listener.quit()]);
    },
  };
}
