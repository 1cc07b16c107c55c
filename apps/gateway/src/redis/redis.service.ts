import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { withDeadline } from '../common/deadline';
import { APP_CONFIG, AppConfig } from '../config/env';

/** The gateway's Redis connection (rate limits now; queues and socket fan-out later). */
@Injectable()
export class RedisService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.client = new Redis(config.REDIS_URL, {
      // Fail commands quickly while Redis is away instead of queueing them forever;
      // the client keeps reconnecting in the background and recovers by itself.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      lazyConnect: false,
    });
    this.client.on('error', (error: Error) => this.logger.warn(`Redis: ${error.message}`));
  }

  /**
   * Gives the first connection a moment so early requests do not fail, but never blocks boot:
   * with Redis down the gateway still starts, /health says so, and it reconnects by itself.
   */
  async onModuleInit(): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 2_000);
      this.client.once('ready', done);
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  async isReachable(): Promise<boolean> {
    try {
      const answer = await withDeadline(this.client.ping(), 1_000, () => new Error('timeout'));
      return answer === 'PONG';
    } catch {
      return false;
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
