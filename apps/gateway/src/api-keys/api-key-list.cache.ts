import type { TApiKey } from '@agentloom/contracts';
import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';
import { VersionedCache } from '../redis/versioned-cache';

/**
 * Each user's masked key list (never a secret: keys are already masked), so listing keys costs
 * no Postgres query and no decryption. Adding or deleting a key invalidates it.
 */
@Injectable()
export class ApiKeyListCache extends VersionedCache<TApiKey[]> {
  constructor(redis: RedisService) {
    super(redis, 'apikey-list', 30);
  }
}
