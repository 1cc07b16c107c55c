import { ZJwtClaims } from '@agentloom/contracts';
import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { createSecretKey } from 'node:crypto';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, AppConfig } from '../config/env';
import { UsersRepository } from '../users/users.repository';
import type { AuthenticatedUser } from './authenticated-user';
import { PrincipalCache } from './principal-cache';

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: UsersRepository,
    private readonly principals: PrincipalCache,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject, not the string: given a string, jsonwebtoken first tries (and fails) to
      // parse it as a public key on every verification, which was 17% of the CPU per request.
      // passport-jwt hands the key to jsonwebtoken unchanged, which accepts a KeyObject; only
      // the @types package narrows it to string | Buffer.
      secretOrKey: createSecretKey(Buffer.from(config.JWT_SECRET, 'utf8')) as unknown as Buffer,
      // Pinning the algorithm is what refuses `alg: none` and algorithm-confusion tokens.
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** A signature is not enough: the account must still exist and the password be unchanged. */
  async validate(payload: unknown): Promise<AuthenticatedUser> {
    const claims = ZJwtClaims.safeParse(payload);
    if (!claims.success) throw new UnauthorizedException();
    const user = await this.findUser(claims.data.sub);
    if (!user) throw new UnauthorizedException();
    // A token without iat_ms is only known to the second: one issued in the very second of the
    // change may predate it, so it is refused too.
    const { iat, iat_ms: issuedMs } = claims.data;
    const changedMs = user.passwordChangedAt.getTime();
    const predatesChange =
      issuedMs !== undefined ? issuedMs < changedMs : iat <= Math.floor(changedMs / 1000);
    if (predatesChange) throw new UnauthorizedException();
    return user;
  }

  private async findUser(id: string): Promise<AuthenticatedUser | null> {
    const cached = await this.principals.read(id);
    if (cached.value) return cached.value;
    const user = await this.users.findById(id);
    if (user) await this.principals.write(id, cached.version, user);
    return user;
  }
}
