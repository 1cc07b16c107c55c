import { createDatabase, type Database, type DirectSql, type PrismaClient } from '@agentloom/db';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/env';

/**
 * The one Prisma client of this process. Only repositories inject it (docs/architecture.md):
 * services talk to repositories, never to Prisma. `sql` is for the statements of a published
 * agent's answer path, written in SQL for speed; it shares Prisma's pool.
 */
@Injectable()
export class PrismaService implements OnModuleDestroy {
  readonly client: PrismaClient;
  readonly sql: DirectSql;
  private readonly database: Database;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.database = createDatabase({
      databaseUrl: config.DATABASE_URL,
      poolSize: config.DATABASE_POOL_SIZE,
      poolTimeoutMs: config.DATABASE_POOL_TIMEOUT_MS,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    });
    this.client = this.database.prisma;
    this.sql = this.database.sql;
  }

  /** One live round trip, for /health (which bounds the wait). */
  async ping(): Promise<void> {
    await this.client.$queryRaw`SELECT 1`;
  }

  async onModuleDestroy(): Promise<void> {
    await this.database.close();
  }
}
