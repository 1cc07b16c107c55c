import { ZJwtClaims } from '@agentloom/contracts';
import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, AppConfig } from '../config/env';
import { UsersRepository } from '../users/users.repository';
import type { AuthenticatedUser } from './authenticated-user';

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: UsersRepository,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: config.JWT_SECRET,
      // Pinning the algorithm is what refuses `alg: none` and algorithm-confusion tokens.
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** A signature is not enough: the account must still exist and the password be unchanged. */
  async validate(payload: unknown): Promise<AuthenticatedUser> {
    const claims = ZJwtClaims.safeParse(payload);
    if (!claims.success) throw new UnauthorizedException();
    const user = await this.users.findById(claims.data.sub);
    if (!user) throw new UnauthorizedException();
    if (claims.data.iat < Math.floor(user.passwordChangedAt.getTime() / 1000)) {
      throw new UnauthorizedException();
    }
    return user;
  }
}
