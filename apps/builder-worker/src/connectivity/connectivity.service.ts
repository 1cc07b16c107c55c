import { BUILDS_QUEUE } from '@agentloom/contracts';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
} from '@nestjs/common';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import { PrismaService } from '../prisma/prisma.service';
import { RedisService } from '../redis/redis.service';

/** Redis retries forever with `maxRetriesPerRequest: null`; boot must not wait forever. */
const PING_TIMEOUT_MS = 10_000;

export class DependencyUnavailableError extends Error {
  override name = 'DependencyUnavailableError';
}

/** The URL without credentials, so it can be logged. */
function displayUrl(url: string): string {
  const { protocol, host, pathname } = new URL(url);
  return `${protocol}//${host}${pathname === '/' ? '' : pathname}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Checks at boot that Postgres and Redis answer, so a misconfigured worker stops at once
 * instead of reporting ready and failing on its first build.
 */
@Injectable()
export class ConnectivityService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ConnectivityService.name);

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly redis: RedisService,
    private readonly prisma: PrismaService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const [database, redis] = await Promise.allSettled([
      withTimeout(this.prisma.client.$queryRaw`SELECT 1`, PING_TIMEOUT_MS),
      withTimeout(this.redis.client.ping(), PING_TIMEOUT_MS),
    ]);
    const failures: string[] = [];
    if (database.status === 'rejected') {
      failures.push(
        `Postgres at ${displayUrl(this.config.DATABASE_URL)} is unreachable (${reason(database.reason)})`,
      );
    }
    if (redis.status === 'rejected') {
      failures.push(
        `Redis at ${displayUrl(this.config.REDIS_URL)} is unreachable (${reason(redis.reason)})`,
      );
    }
    if (failures.length > 0) throw new DependencyUnavailableError(failures.join('; '));

    this.logger.log(
      `Builder worker ready: Postgres and Redis answer; serving the "${BUILDS_QUEUE}" queue ` +
        `(concurrency ${this.config.WORKER_CONCURRENCY}).`,
    );
  }

  onApplicationShutdown(signal?: string): void {
    this.logger.log(`Builder worker stopped${signal ? ` on ${signal}` : ''}: connections closed.`);
  }
}

/** Prisma's messages span several lines and end with the driver's own words; keep those. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const lines = message.split('\n').filter((line) => line.trim() !== '');
  return lines.at(-1)?.trim() ?? message;
}
