import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RedisService } from '../redis/redis.service';

/**
 * The version of an agent's curated answers, made when none is there. One script, so two
 * processes meeting a missing version at once both get the one that was set.
 */
const CURRENT = `
local version = redis.call('GET', KEYS[1])
if version then return version end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return ARGV[1]
`;

/** A version that expires only costs each process one more read of the answers. */
const VERSION_TTL_SECONDS = 7 * 86_400;

/**
 * Which version of each agent's curated answers is current, in Redis, shared by every gateway
 * and runtime replica: the loaded agents keep their curated answers in memory with the version
 * they were read at, and read them again from Postgres only when it has moved on (the owner
 * added, changed or deleted one), not on every question.
 *
 * A version is a random token, never a counter: a key that expired or a Redis that lost its data
 * starts again from a new token, so no process can see a version it read before a change come
 * back. With Redis away there is no version: the answers are read from Postgres each time.
 */
@Injectable()
export class CuratedVersions {
  private readonly logger = new Logger(CuratedVersions.name);
  /** Agents whose change could not reach Redis; sent as soon as it answers again. */
  private readonly unsent = new Set<string>();

  constructor(private readonly redis: RedisService) {
    // A process that kept answers from before the outage must not reuse them once Redis is back.
    redis.onBack(async (client) => {
      for (const pipelineId of [...this.unsent]) {
        await this.bump(client, pipelineId);
        this.unsent.delete(pipelineId);
      }
    });
  }

  /** The agent's current version, or null while Redis does not answer. */
  async current(pipelineId: string): Promise<string | null> {
    try {
      return (await this.redis.run((client) =>
        client.eval(CURRENT, 1, key(pipelineId), randomUUID(), VERSION_TTL_SECONDS),
      )) as string;
    } catch {
      return null;
    }
  }

  /** Call after a change is committed: every process reads the agent's answers again. */
  async changed(pipelineId: string): Promise<void> {
    try {
      await this.redis.run((client) => this.bump(client, pipelineId));
    } catch (error) {
      this.unsent.add(pipelineId);
      this.logger.warn(`Curated answers' version held until Redis answers: ${String(error)}`);
    }
  }

  private async bump(client: Redis, pipelineId: string): Promise<void> {
    await client.set(key(pipelineId), randomUUID(), 'EX', VERSION_TTL_SECONDS);
  }
}

const key = (pipelineId: string) => `agentloom:curated:${pipelineId}:version`;
