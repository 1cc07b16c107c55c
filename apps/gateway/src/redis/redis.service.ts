import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Redis, ReplyError } from 'ioredis';
import { APP_CONFIG, AppConfig } from '../config/env';

/** How often a Redis that stopped answering is pinged to see whether it is back. */
const PROBE_INTERVAL_MS = 500;

/** Thrown instead of waiting while Redis is away; answered 503 unless the caller falls back. */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
}

/**
 * The gateway's Redis connection (caches, preview links, login counts, the build queue).
 *
 * Redis is never worth waiting for: every command has a short timeout, and once one times out or
 * fails on the connection, Redis counts as away and `run` fails at once — callers fall back to
 * Postgres or answer 503 — until a background ping gets its answer again. So a stalled Redis
 * costs one request one timeout, not every request the stall's length, and it is back in use
 * within a probe interval of recovering, without a restart.
 */
@Injectable()
export class RedisService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RedisService.name);
  readonly client: Redis;
  private away = false;
  private probe?: NodeJS.Timeout;
  private readonly catchUps: ((client: Redis) => Promise<void>)[] = [];

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.client = new Redis(config.REDIS_URL, {
      // Fail commands quickly while Redis is away instead of queueing them forever;
      // the client keeps reconnecting in the background and recovers by itself.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      // A connected but stalled Redis (paused, swapping, a half-open connection) answers nothing;
      // without this a command would wait as long as the stall lasts.
      commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
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

  /** False from a failed or timed-out command until Redis answers a ping again. */
  get available(): boolean {
    return !this.away && this.client.status === 'ready';
  }

  /**
   * Runs one Redis operation, or throws RedisUnavailableError at once while Redis is away. A
   * failure of the connection (not an error Redis itself answered) marks Redis away.
   */
  async run<T>(operation: (client: Redis) => Promise<T>): Promise<T> {
    if (!this.available) throw new RedisUnavailableError('Redis is not answering.');
    try {
      return await operation(this.client);
    } catch (error) {
      if (error instanceof ReplyError) throw error;
      this.markAway(error as Error);
      throw new RedisUnavailableError(`Redis is not answering: ${(error as Error).message}`);
    }
  }

  /** One live round trip that ignores the away flag, for /health (which bounds the wait). */
  async ping(): Promise<void> {
    await this.client.ping();
  }

  /**
   * Work that must reach Redis before anyone reads it again after an outage (invalidations that
   * could not be sent). Runs once Redis answers, before `available` turns true; if it fails,
   * Redis stays away and it runs again on the next probe.
   */
  onBack(catchUp: (client: Redis) => Promise<void>): void {
    this.catchUps.push(catchUp);
  }

  private markAway(error: Error): void {
    if (this.away) return;
    this.away = true;
    this.logger.warn(`Redis is away (${error.message}); using fallbacks until it answers again.`);
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    this.probe = setTimeout(() => void this.checkBack(), PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  private async checkBack(): Promise<void> {
    try {
      if ((await this.client.ping()) === 'PONG') {
        for (const catchUp of this.catchUps) await catchUp(this.client);
        this.away = false;
        this.logger.log('Redis answers again.');
        return;
      }
    } catch {
      // still away (the command timeout bounds this wait)
    }
    this.scheduleProbe();
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.probe);
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
