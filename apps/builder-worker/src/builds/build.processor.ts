import {
  BUILD_AGENT_JOB,
  BUILDS_QUEUE,
  BUILDS_QUEUE_JOBS,
  TBuildJob,
  TBuildsQueueJob,
  ZBuildJob,
} from '@agentloom/contracts';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import { watchBuilds } from '../metrics/build-metrics';
import { RedisService } from '../redis/redis.service';
import { BuildError, BuildRunner } from './build-runner.service';
import { BuildSteps, stagesWithoutStep } from './build-steps';
import { BuildsRepository } from './builds.repository';

const UNEXPECTED_FAILURE =
  'The build failed unexpectedly. Please try again; if it keeps failing, contact support.';
/** A full disk (or quota) under DATA_DIR: no retry within seconds would fix it. */
export const STORAGE_FULL =
  'The build server ran out of storage space while writing the agent. Nothing was kept; please try again later.';

/** Node's own errors carry a code; LanceDB's (the hosted index) only the OS's message. */
const isStorageFull = (error: unknown) =>
  ['ENOSPC', 'EDQUOT'].includes((error as NodeJS.ErrnoException | undefined)?.code ?? '') ||
  /No space left on device|Disk quota exceeded/i.test((error as Error | undefined)?.message ?? '');

/** Shown when BullMQ gave up on a build itself: each run of it stopped its worker. */
export const BUILD_INTERRUPTED =
  'The build was interrupted: the worker running it stopped more than once. Please try again; if it keeps failing, contact support.';

/**
 * The consumer of the `builds` queue. Thin on purpose: it checks the job, hands it to the
 * BuildRunner, and decides what a failure means — a BuildError ends the build at once with its
 * message, and so does a full disk (saying so; the temporary zip and work folder are removed on
 * the way out, so a later retry starts clean); anything else is retried (attempts in
 * BUILD_JOB_OPTIONS) and, on the last attempt, ends the build Failed with a general message; a
 * job BullMQ itself gives up on ends its build Failed too. Closing waits for running builds to finish, which is what SIGTERM does.
 */
@Injectable()
export class BuildProcessor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BuildProcessor.name);
  private worker?: Worker<TBuildJob>;
  /** One handler per job name of the queue (contracts' BUILDS_QUEUE_JOBS). */
  private readonly handlers: Record<TBuildsQueueJob, (job: Job<TBuildJob>) => Promise<void>> = {
    [BUILD_AGENT_JOB]: (job) => this.build(job),
  };

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly redis: RedisService,
    private readonly runner: BuildRunner,
    private readonly builds: BuildsRepository,
    private readonly steps: BuildSteps,
  ) {}

  onApplicationBootstrap(): void {
    assertEverythingHandled(this.handlers, this.steps);
    this.worker = new Worker<TBuildJob>(BUILDS_QUEUE, (job) => this.process(job), {
      connection: this.redis.client,
      prefix: this.config.QUEUE_PREFIX,
      concurrency: this.config.WORKER_CONCURRENCY,
      // A worker that dies mid-build stops renewing its lock; once the lock expires, the next
      // stalled-job check (on any worker) puts the build back in the queue to run again.
      lockDuration: this.config.WORKER_LOCK_DURATION_MS,
      stalledInterval: this.config.WORKER_STALLED_INTERVAL_MS,
    });
    watchBuilds(this.worker);
    this.worker.on('error', (error) => this.logger.warn(`Queue: ${error.message}`));
    this.worker.on('failed', (job, error) => {
      this.logger.warn(`Build ${job?.id ?? '?'} attempt failed: ${error.message}`);
      if (job) void this.endAbandonedBuild(job);
    });
    this.logger.log(
      `Consuming the "${BUILDS_QUEUE}" queue with concurrency ${this.config.WORKER_CONCURRENCY}.`,
    );
  }

  /** For the health file: the consumer exists and has not been closed. */
  consuming(): boolean {
    return this.worker?.isRunning() ?? false;
  }

  /** For tests: resolves when the worker is connected and taking jobs. */
  async ready(): Promise<void> {
    await this.worker?.waitUntilReady();
  }

  async process(job: Job<TBuildJob>): Promise<void> {
    const handler = this.handlers[job.name as TBuildsQueueJob] as
      ((job: Job<TBuildJob>) => Promise<void>) | undefined;
    if (!handler) {
      throw new UnrecoverableError(`This worker has no handler for "${job.name}" jobs.`);
    }
    await handler(job);
  }

  private async build(job: Job<TBuildJob>): Promise<void> {
    const payload = ZBuildJob.safeParse(job.data);
    if (!payload.success) throw new UnrecoverableError('The job payload is not a build id.');
    const { buildId } = payload.data;
    try {
      await this.runner.run(buildId, (progress) => job.updateProgress(progress));
      await this.startWaitingChanges(buildId);
    } catch (error) {
      const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (error instanceof BuildError || isStorageFull(error) || lastAttempt) {
        const detail =
          error instanceof BuildError
            ? error.message
            : isStorageFull(error)
              ? STORAGE_FULL
              : UNEXPECTED_FAILURE;
        if (!(error instanceof BuildError)) this.logger.error((error as Error).stack);
        const build = await this.builds.findWithPipeline(buildId);
        if (build) await this.builds.markFailed(build, detail);
        await this.startWaitingChanges(buildId);
        throw new UnrecoverableError(detail);
      }
      throw error;
    }
  }

  /** Knowledge changes that waited for this build get one of their own; never fails the job. */
  private async startWaitingChanges(buildId: string): Promise<void> {
    await this.runner.afterBuild(buildId).catch((error: unknown) => {
      this.logger.warn(`Waiting knowledge changes not started: ${(error as Error).message}`);
    });
  }

  /**
   * A job can fail for good without `process` running: BullMQ fails a job that stalled more
   * than once (its worker died with it each time, say from running out of memory) when a worker
   * next picks it up. Its build would stay Building forever; it ends Failed here instead. A
   * failure `process` already recorded is left as it is (markFailed only ends a Building build).
   */
  private async endAbandonedBuild(job: Job<TBuildJob>): Promise<void> {
    // finishedOn is set only when the job moved to failed, not when it waits for a retry.
    if (!job.finishedOn) return;
    const payload = ZBuildJob.safeParse(job.data);
    if (!payload.success) return;
    try {
      const build = await this.builds.findWithPipeline(payload.data.buildId);
      if (build?.status === 'Building') await this.builds.markFailed(build, BUILD_INTERRUPTED);
    } catch (error) {
      this.logger.error(
        `Build ${payload.data.buildId} could not be marked Failed: ${(error as Error).message}`,
      );
    }
  }

  /** Runs before Redis and Postgres close: running builds finish, then the worker stops. */
  async onModuleDestroy(): Promise<void> {
    if (!this.worker) return;
    this.logger.log('Stopping: waiting for running builds to finish.');
    await this.worker.close();
  }
}

/**
 * Refuses to start a worker that would take jobs it cannot finish: every job name of the queue
 * needs a handler and every build stage a step (immich's worker makes the same check at startup).
 */
export function assertEverythingHandled(
  handlers: Partial<Record<string, unknown>>,
  steps: Pick<BuildSteps, 'steps'>,
): void {
  const missing = [
    ...BUILDS_QUEUE_JOBS.filter((name) => typeof handlers[name] !== 'function').map(
      (name) => `job "${name}"`,
    ),
    ...stagesWithoutStep(steps.steps),
  ];
  if (missing.length > 0) {
    throw new Error(`This worker has no handler for ${missing.join(', ')}; it will not start.`);
  }
}
