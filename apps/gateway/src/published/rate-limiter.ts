import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';

export const RATE_LIMITED = (limit: number) =>
  `Too many requests: this allows ${limit} a minute. Wait a minute and try again.`;

/**
 * Requests counted per minute in Redis, so every gateway replica counts against one limit. A
 * fixed window is enough here: it caps a caller at twice the limit in the worst minute, and costs
 * one INCR per request.
 */
@Injectable()
export class RateLimiter {
  constructor(private readonly redis: RedisService) {}

  /** Counts one request of `subject`; throws 429 with a detail once it is over `perMinute`. */
  async take(subject: string, perMinute: number): Promise<void> {
    const window = Math.floor(Date.now() / 60_000);
    const key = `agentloom:published-rate:${subject}:${window}`;
    const [[, count]] = (await this.redis.run((client) =>
      client.multi().incr(key).pexpire(key, 61_000).exec(),
    )) as [[Error | null, number]];
    if (count > perMinute) {
      throw new HttpException(RATE_LIMITED(perMinute), HttpStatus.TOO_MANY_REQUESTS);
    }
  }
}
