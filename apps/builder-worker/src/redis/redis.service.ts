import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';

/** The worker's Redis connection, which the BullMQ build processor shares. */
@Injectable()
export class RedisService implements OnApplicationShutdown {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis;

  constructor(@Inject(WORKER_CONFIG) config: WorkerConfig) {
    this.client = new Redis(config.REDIS_URL, {
      // BullMQ workers block on Redis and refuse connections that give up on a command.
      maxRetriesPerRequest: null,
    });
    this.client.on('error', (error: Error) => this.logger.warn(`Redis: ${error.message}`));
  }

  /** After the build processor has stopped (it closes in onModuleDestroy). */
  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
