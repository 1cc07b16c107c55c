import type { TRefusedOrigin } from '@agentloom/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';

/** How many refused sites an agent remembers, and for how long (seconds). */
const KEEP = 10;
const TTL_SECONDS = 7 * 24 * 3600;
const ORIGIN = /^https?:\/\/[a-z0-9.-]+(:\d{1,5})?$/;

/**
 * The sites that tried to show an agent's widget and were refused, newest first: the owner sees
 * them in the publish panel ("rosebakery.com tried to show this chat") instead of a widget that
 * fails silently. Redis is enough: a hint for the owner, not a record.
 */
@Injectable()
export class RefusedOrigins {
  private readonly logger = new Logger(RefusedOrigins.name);

  constructor(private readonly redis: RedisService) {}

  private key = (pipelineId: string) => `agentloom:widget-refused:${pipelineId}`;

  /** Remembers a refusal; never fails the refusal itself (a hint lost is only a hint). */
  async record(pipelineId: string, origin: string): Promise<void> {
    if (!ORIGIN.test(origin)) return;
    try {
      await this.redis.client
        .multi()
        .zadd(this.key(pipelineId), Date.now(), origin)
        .zremrangebyrank(this.key(pipelineId), 0, -(KEEP + 1))
        .expire(this.key(pipelineId), TTL_SECONDS)
        .exec();
    } catch (error) {
      this.logger.warn(`Could not remember a refused widget site: ${(error as Error).message}`);
    }
  }

  /** The refused sites not allowed since, newest first. */
  async recent(pipelineId: string, allowed: readonly string[]): Promise<TRefusedOrigin[]> {
    let flat: string[];
    try {
      flat = await this.redis.client.zrevrange(this.key(pipelineId), 0, KEEP - 1, 'WITHSCORES');
    } catch {
      return [];
    }
    const refused: TRefusedOrigin[] = [];
    for (let index = 0; index + 1 < flat.length; index += 2) {
      const origin = flat[index]!;
      if (allowed.includes(origin)) continue;
      refused.push({ origin, last_seen: new Date(Number(flat[index + 1])).toISOString() });
    }
    return refused;
  }
}
