import { Injectable } from '@nestjs/common';
import { RedisService } from '../redis/redis.service';
import { VersionedCache } from '../redis/versioned-cache';
import type { AuthenticatedUser } from './authenticated-user';

/**
 * The user row behind an access token, cached in Redis so an authenticated request costs no
 * Postgres round trip (bench:api: /users/me went from 15% to 71% of a trivial route). Every
 * change to the row (profile update, password reset) invalidates it after committing.
 */
@Injectable()
export class PrincipalCache extends VersionedCache<AuthenticatedUser> {
  constructor(redis: RedisService) {
    super(redis, 'principal', 30, (json) => {
      const user = json as AuthenticatedUser &
        Record<'passwordChangedAt' | 'createdAt' | 'updatedAt', string>;
      return {
        ...user,
        passwordChangedAt: new Date(user.passwordChangedAt),
        createdAt: new Date(user.createdAt),
        updatedAt: new Date(user.updatedAt),
      };
    });
  }
}
