import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';

export const RATE_LIMITED = (limit: number) =>
  `Too many requests: this allows ${limit} a minute. Wait a minute and try again.`;

/** The window's key lives a little longer than its minute. */
const WINDOW_TTL_MS = 61_000;
const COUNT_IN_WINDOW = `
  local count = redis.call('INCR', KEYS[1])
  if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  return count`;

/**
 * Requests counted per minute in Redis, so every gateway replica counts against one limit. A
 * fixed window is enough here: it caps a caller at twice the limit in the worst minute, and costs
 * one command per request (a script: INCR, and the window's expiry when it opens).
 */
@Injectable()
export class RateLimiter {
  constructor(private readonly redis: RedisService) {}

  /** Counts one request of `subject`; throws 429 with a detail once it is over `perMinute`. */
  async take(subject: string, perMinute: number): Promise<void> {
    const window = Math.floor(Date.now() / 60_000);
    const key = `agentloom:published-rate:${subject}:${window}`;
    const count = (await this.redis.run((client) =>
      client.eval(COUNT_IN_WINDOW, 1, key, WINDOW_TTL_MS),
    )) as number;
    if (count > perMinute) {
      throw new HttpException(RATE_LIMITED(perMinute), HttpStatus.TOO_MANY_REQUESTS);
    }
  }
}
