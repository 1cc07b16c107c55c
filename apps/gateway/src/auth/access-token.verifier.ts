import { Injectable } from '@nestjs/common';
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
}
