import { observeProviderCalls } from '@agentloom/agent-runtime';
import { BUILDS_QUEUE } from '@agentloom/contracts';
import {
  processMetrics,
  recordProviderCall,
  startMetricsServer,
  watchQueueDepth,
  type MetricsServer,
} from '@agentloom/server-kit';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Queue } from 'bullmq';
import { WORKER_CONFIG, type WorkerConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';

/**
 * The worker's Prometheus metrics (docs/operating.md, "Metrics"), on a small HTTP server of their
 * own (the worker serves nothing else): GET /metrics on METRICS_PORT, behind METRICS_TOKEN when
 * set. Unset METRICS_PORT: no server. Builds are counted by build-metrics.ts; the provider calls
 * of their embeddings and the build queue's depth are reported here.
 */
@Injectable()
export class WorkerMetrics implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WorkerMetrics.name);
  private server?: MetricsServer;
  private queue?: Queue;
  private stopWatchingQueue?: () => void;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly redis: RedisService,
  ) {}

  /** The port it serves on, once started (for tests that ask for a free one). */
  get port(): number | undefined {
    return this.server?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    observeProviderCalls(recordProviderCall);
    const queue = new Queue(BUILDS_QUEUE, {
      connection: this.redis.client,
      prefix: this.config.QUEUE_PREFIX,
    });
    queue.on('error', () => undefined); // RedisService reports the connection's errors
    this.queue = queue;
    this.stopWatchingQueue = watchQueueDepth(() =>
      queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed'),
    );
    if (this.config.METRICS_PORT === undefined) return;
    this.server = await startMetricsServer({
      host: this.config.METRICS_HOST,
      port: this.config.METRICS_PORT,
      token: this.config.METRICS_TOKEN,
      source: processMetrics().registry,
    });
    this.logger.log(`Metrics on http://${this.config.METRICS_HOST}:${this.server.port}/metrics`);
  }

  /** Before Redis closes (RedisService quits on application shutdown). */
  async onModuleDestroy(): Promise<void> {
    this.stopWatchingQueue?.();
    await this.server?.close();
    await this.queue?.close().catch(() => undefined);
  }
}
