import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { rename, rm, writeFile } from 'node:fs/promises';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import { BuildProcessor } from '../builds/build.processor';
import { PrismaService } from '../prisma/prisma.service';
import { RedisService } from '../redis/redis.service';
import { CHECK_DEADLINE_MS, type WorkerHealth } from './worker-health';

async function answers(check: Promise<unknown>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_DEADLINE_MS);
  });
  try {
    await Promise.race([check, deadline]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The worker has no HTTP port, so its health is a file: every WORKER_HEALTH_INTERVAL_MS it checks
 * Postgres and Redis live and that its queue consumer runs, and writes the result (atomically, by
 * rename). `dist/health-check.js` — the container healthcheck — reads it. The file is removed on
 * shutdown, so a stopped worker never looks healthy.
 */
@Injectable()
export class WorkerHealthService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerHealthService.name);
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly prisma: PrismaService,
    private readonly redis: RedisService,
    private readonly processor: BuildProcessor,
  ) {}

  onApplicationBootstrap(): void {
    void this.tick();
  }

  async check(): Promise<WorkerHealth> {
    const [database, redis] = await Promise.all([
      answers(this.prisma.client.$queryRaw`SELECT 1`),
      answers(this.redis.client.ping()),
    ]);
    return { at: Date.now(), database, redis, consuming: this.processor.consuming() };
  }

  private async tick(): Promise<void> {
    try {
      const health = await this.check();
      const file = this.config.WORKER_HEALTH_FILE;
      await writeFile(`${file}.tmp`, JSON.stringify(health));
      await rename(`${file}.tmp`, file);
      // A check that was running when shutdown began must not leave a healthy-looking file.
      if (this.stopped) await rm(file, { force: true });
    } catch (error) {
      this.logger.warn(`Health file not written: ${(error as Error).message}`);
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.config.WORKER_HEALTH_INTERVAL_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await rm(this.config.WORKER_HEALTH_FILE, { force: true });
  }
}
