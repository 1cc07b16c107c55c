import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { IS_PUBLIC } from '../common/public.decorator';
import { isDatabaseUnavailable } from '../prisma/database-errors';

export const NOT_AUTHENTICATED = 'Not authenticated. Please log in again.';

/** Global guard: every route needs a valid bearer token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    return isPublic ? true : super.canActivate(context);
  }

  override handleRequest<TUser>(error: unknown, user: TUser | false): TUser {
    // The account could not be looked up because Postgres is away: a 401 would sign the user
    // out of the web app for an outage; the 503 says to try again.
    if (isDatabaseUnavailable(error)) throw error;
    if (error || !user) throw new UnauthorizedException(NOT_AUTHENTICATED);
    return user;
  }
}
