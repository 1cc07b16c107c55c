import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { RedisService } from './redis.service';

/** Version and entry in one round trip: the entry is stored under the version it was read at. */
const READ = `
local version = redis.call('GET', KEYS[1]) or '0'
return { version, redis.call('GET', ARGV[1] .. version) }
`;

/** Version keys outlive every entry, so a version never restarts while an entry is alive. */
const VERSION_TTL_SECONDS = 86_400;

export interface CacheRead<T> {
  value: T | null;
  /** Pass to `write`; null when Redis is away or too slow (then nothing is cached). */
  version: string | null;
}

/**
 * A read-through cache in Redis that is safe against the classic race where a reader fetches
 * a row, a writer commits and invalidates, and the reader then stores the stale row.
 * Writers call `invalidate` after committing, which bumps the record's version; a reader stores
 * what it loaded under the version it saw before loading, so a stale value lands on a key no
 * one reads again. Shared by every gateway replica. With Redis down or stalled it caches nothing
 * and readers load from Postgres: after one command timeout at most, then at once until Redis
 * answers again (RedisService.run).
 */
export class VersionedCache<T> {
  private readonly logger: Logger;
  /** Ids whose invalidation could not reach Redis; sent as soon as it answers again. */
  private readonly unsentInvalidations = new Set<string>();

  constructor(
    private readonly redis: RedisService,
    private readonly namespace: string,
    private readonly ttlSeconds: number,
    private readonly revive: (json: unknown) => T = (json) => json as T,
  ) {
    this.logger = new Logger(`VersionedCache:${namespace}`);
    // An entry cached before the outage must not be served once Redis is back if its record
    // changed meanwhile (a new password, say): those invalidations go out before any read.
    redis.onBack(async (client) => {
      for (const id of [...this.unsentInvalidations]) {
        await this.bump(client, id);
        this.unsentInvalidations.delete(id);
      }
    });
  }

  async read(id: string): Promise<CacheRead<T>> {
    try {
      const [version, entry] = (await this.redis.run((client) =>
        client.eval(READ, 1, this.versionKey(id), this.entryPrefix(id)),
      )) as [string, string | null];
      return { value: entry ? this.revive(JSON.parse(entry)) : null, version };
    } catch {
      return { value: null, version: null };
    }
  }

  async write(id: string, version: string | null, value: T): Promise<void> {
    if (version === null) return;
    await this.attempt((client) =>
      client.set(this.entryPrefix(id) + version, JSON.stringify(value), 'EX', this.ttlSeconds),
    );
  }

  /** Call after the change is committed: every cached copy of `id` stops being served. */
  async invalidate(id: string): Promise<void> {
    try {
      await this.redis.run((client) => this.bump(client, id));
    } catch (error) {
      this.unsentInvalidations.add(id);
      this.logger.warn(`Invalidation held until Redis answers: ${(error as Error).message}`);
    }
  }

  private async bump(client: Redis, id: string): Promise<void> {
    await client
      .multi()
      .incr(this.versionKey(id))
      .expire(this.versionKey(id), VERSION_TTL_SECONDS)
      .exec();
  }

  private versionKey(id: string): string {
    return `agentloom:${this.namespace}:${id}:version`;
  }

  private entryPrefix(id: string): string {
    return `agentloom:${this.namespace}:${id}:v`;
  }

  private async attempt(operation: (client: Redis) => Promise<unknown>): Promise<void> {
    try {
      await this.redis.run(operation);
    } catch (error) {
      this.logger.warn(`Cache unavailable: ${(error as Error).message}`);
    }
  }
}
