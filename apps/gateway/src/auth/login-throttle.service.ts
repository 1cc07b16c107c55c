import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';

/**
 * Counts failed logins per client address in Redis, so every gateway replica sees the same
 * count. While Redis is unreachable an in-process limiter stands in rather than letting
 * logins through unlimited.
 */
@Injectable()
export class LoginThrottleService {
  private readonly failures: RateLimiterRedis;

  constructor(@Inject(APP_CONFIG) config: AppConfig, redis: RedisService) {
    const limits = {
      points: config.LOGIN_MAX_FAILURES,
      duration: config.LOGIN_FAILURE_WINDOW_SECONDS,
    };
    this.failures = new RateLimiterRedis({
      ...limits,
      storeClient: redis.client,
      keyPrefix: 'agentloom:login-failures',
      insuranceLimiter: new RateLimiterMemory(limits),
    });
  }

  /** Throws 429 when this client has used up its failed attempts. */
  async assertAllowed(clientKey: string): Promise<void> {
    const state = await this.failures.get(clientKey);
    if (state && state.consumedPoints >= this.failures.points) throw this.tooMany(state);
  }

  async recordFailure(clientKey: string): Promise<void> {
    try {
      await this.failures.consume(clientKey);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return; // already over the limit; counted
      throw rejection;
    }
  }

  async reset(clientKey: string): Promise<void> {
    await this.failures.delete(clientKey);
  }

  private tooMany(state: RateLimiterRes): HttpException {
    const minutes = Math.max(1, Math.ceil(state.msBeforeNext / 60_000));
    return new HttpException(
      {
        detail: `Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}
