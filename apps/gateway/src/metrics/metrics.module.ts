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
  Module,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Queue } from 'bullmq';
import { closeWithin } from '../common/deadline';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';
import { gatewayMetrics } from './gateway-metrics';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { MetricsController } from './metrics.controller';

/** Which process serves them: the gateway also reports the build queue's depth. */
export type MetricsRole = 'gateway' | 'agent-runtime';
const METRICS_ROLE = Symbol('METRICS_ROLE');

/**
 * What the metrics need while the app runs: provider calls told by the agent runtime, the build
 * queue read at each scrape (gateway), and the port of their own when METRICS_PORT is set.
 */
@Injectable()
class MetricsLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Metrics');
  private queue?: Queue;
  private stopWatchingQueue?: () => void;
  private server?: MetricsServer;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(METRICS_ROLE) private readonly role: MetricsRole,
    private readonly redis: RedisService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    gatewayMetrics();
    observeProviderCalls(recordProviderCall);
    if (this.role === 'gateway') {
      const queue = new Queue(BUILDS_QUEUE, {
        connection: this.redis.client,
        prefix: this.config.QUEUE_PREFIX,
      });
      queue.on('error', () => undefined); // RedisService reports the connection's errors
      this.queue = queue;
      this.stopWatchingQueue = watchQueueDepth(() =>
        this.redis.run(() =>
          queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active', 'failed'),
        ),
      );
    }
    if (this.config.METRICS_PORT) {
      this.server = await startMetricsServer({
        host: this.config.METRICS_HOST,
        port: this.config.METRICS_PORT,
        token: this.config.METRICS_TOKEN,
        source: processMetrics().registry,
      });
      this.logger.log(`Metrics on http://${this.config.METRICS_HOST}:${this.server.port}/metrics`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopWatchingQueue?.();
    await this.server?.close();
    if (this.queue) await closeWithin(this.queue.close(), 2_000);
  }
}

/**
 * Prometheus metrics of the gateway and the runtime replicas (docs/operating.md, "Metrics"):
 * every HTTP request timed by route, /metrics, and the lifecycle above.
 */
@Module({})
export class MetricsModule implements NestModule {
  static register(role: MetricsRole): DynamicModule {
    return {
      module: MetricsModule,
      controllers: [MetricsController],
      providers: [{ provide: METRICS_ROLE, useValue: role }, MetricsLifecycle],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*');
  }
}
