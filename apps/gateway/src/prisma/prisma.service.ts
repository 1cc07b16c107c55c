import { PrismaClient, createPrismaClient } from '@agentloom/db';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/env';

/**
 * The one Prisma client of this process. Only repositories inject it (STYLE.md §2):
 * services talk to repositories, never to Prisma.
 */
@Injectable()
export class PrismaService implements OnModuleDestroy {
  readonly client: PrismaClient;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.client = createPrismaClient({
      databaseUrl: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      poolTimeoutMs: config.DATABASE_POOL_TIMEOUT_MS,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    });
  }

  /** One live round trip, for /health (which bounds the wait). */
  async ping(): Promise<void> {
    await this.client.$queryRaw`SELECT 1`;
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.$disconnect();
  }
}
