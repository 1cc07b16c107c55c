import { Injectable, UnauthorizedException } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { AuthenticatedUser } from './authenticated-user';
import { JwtStrategy } from './jwt.strategy';

/**
 * Checks a bearer token outside HTTP (the Socket.IO handshake) exactly as the HTTP guard does:
 * HS256 signature, expiry, and the account still existing with its password unchanged.
 */
@Injectable()
export class AccessTokenVerifier {
  constructor(
    private readonly jwt: JwtService,
    private readonly strategy: JwtStrategy,
  ) {}

  /** The user behind the token, or null when it is refused for any reason. */
  async verify(token: unknown): Promise<AuthenticatedUser | null> {
    if (typeof token !== 'string' || token === '') return null;
    try {
      const payload: unknown = await this.jwt.verifyAsync(token, { algorithms: ['HS256'] });
      return await this.strategy.validate(payload);
    } catch {
      return null;
    }
  }

  /**
   * Whether a token still holds, for a connection that was admitted with it: false when it is
   * refused (expired, password changed, account gone), null when the account could not be looked
   * up (its database or cache away), so a dependency's outage does not end live connections.
   */
  async holds(token: unknown): Promise<boolean | null> {
    if (typeof token !== 'string' || token === '') return false;
    let payload: unknown;
    try {
      payload = await this.jwt.verifyAsync(token, { algorithms: ['HS256'] });
    } catch {
      return false;
    }
    try {
      await this.strategy.validate(payload);
      return true;
    } catch (error) {
      return error instanceof UnauthorizedException ? false : null;
    }
  }
}
