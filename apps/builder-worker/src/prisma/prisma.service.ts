import { PrismaClient, createPrismaClient } from '@agentloom/db';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';

/** The one Prisma client of this process. */
@Injectable()
export class PrismaService implements OnApplicationShutdown {
  readonly client: PrismaClient;

  constructor(@Inject(WORKER_CONFIG) config: WorkerConfig) {
    this.client = createPrismaClient({
      databaseUrl: config.DATABASE_URL,
      // One connection per concurrent build, plus one for status updates between builds.
      poolSize: config.WORKER_CONCURRENCY + 1,
    });
  }

  /** After the build processor has stopped (it closes in onModuleDestroy). */
  async onApplicationShutdown(): Promise<void> {
    await this.client.$disconnect();
  }
}
