import {
  PASSWORDS_DO_NOT_MATCH,
  TLoginRequest,
  TLoginResponse,
  TPublicUser,
  TResetPasswordRequest,
  TSignupRequest,
} from '@agentloom/contracts';
import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createHash, randomBytes } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/env';
import { MailService } from '../mail/mail.service';
import { UsersRepository } from '../users/users.repository';
import { LoginThrottleService, ThrottleKeys } from './login-throttle.service';
import { PasswordHasher } from './password-hasher';
import { PrincipalCache } from './principal-cache';
import { PasswordResetRepository } from './password-reset.repository';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const INVALID_RESET_TOKEN = 'This reset link is invalid or has expired. Request a new one.';

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly resets: PasswordResetRepository,
    private readonly hasher: PasswordHasher,
    private readonly jwt: JwtService,
    private readonly throttle: LoginThrottleService,
    private readonly mail: MailService,
    private readonly principals: PrincipalCache,
  ) {}

  async signup(request: TSignupRequest, address: string): Promise<TPublicUser> {
    if (request.password !== request.confirm_password) {
      throw new BadRequestException(PASSWORDS_DO_NOT_MATCH);
    }
    // Before any lookup: the answers below say whether a name or an e-mail is taken.
    await this.throttle.consumeSignup({ address, email: request.email });
    if (await this.users.usernameTaken(request.username)) {
      throw new ConflictException('This username is already taken.');
    }
    if (await this.users.emailTaken(request.email)) {
      throw new ConflictException('An account with this email already exists.');
    }
    const passwordHash = await this.hasher.hash(request.password);
    const user = await this.users.create({
      username: request.username,
      email: request.email,
      passwordHash,
    });
    return { id: user.id, username: user.username, email: user.email };
  }

  /**
   * Wrong password and unknown e-mail get the same status, body and (through the decoy hash)
   * the same work, so the answer says nothing about which accounts exist.
   */
  async login(request: TLoginRequest, address: string): Promise<TLoginResponse> {
    const keys: ThrottleKeys = { address, email: request.email };
    await this.throttle.assertLoginAllowed(keys);
    const user = await this.users.findByEmailWithPassword(request.email);
    const valid = await this.hasher.verify(user?.passwordHash ?? null, request.password);
    if (!user || !valid) {
      await this.throttle.recordLoginFailure(keys);
      throw new UnauthorizedException(INVALID_CREDENTIALS);
    }
    await this.throttle.clearAccount(request.email);
    // `iat` has one-second resolution; `iat_ms` lets a password change made later in the same
    // second still sign this token out (see JwtStrategy).
    const access_token = await this.jwt.signAsync({ sub: user.id, iat_ms: Date.now() });
    return {
      access_token,
      token_type: 'bearer',
      user: { id: user.id, username: user.username, email: user.email },
    };
  }

  /**
   * Answers identically whether or not the account exists: after the rate limit, which counts
   * every request alike, the lookup, the token and the e-mail all happen after the answer, so
   * neither the body nor the response time tells whether the account exists.
   */
  async requestPasswordReset(email: string, address: string): Promise<void> {
    await this.throttle.consumeResetRequest({ address, email });
    void this.issueResetLink(email).catch((error: Error) =>
      this.logger.error(`Could not issue a password reset: ${error.message}`),
    );
  }

  private async issueResetLink(email: string): Promise<void> {
    const user = await this.users.findByEmailWithPassword(email);
    if (!user) return;
    const token = randomBytes(32).toString('base64url');
    const ttlMinutes = this.config.RESET_TOKEN_TTL_MINUTES;
    await this.resets.replaceToken(
      user.id,
      hashToken(token),
      new Date(Date.now() + ttlMinutes * 60_000),
    );
    const link = new URL('/reset-password', this.config.PUBLIC_URL);
    link.searchParams.set('token', token);
    await this.mail.sendPasswordReset(user.email, link.toString(), ttlMinutes);
  }

  async resetPassword(request: TResetPasswordRequest, address: string): Promise<void> {
    await this.throttle.consumeResetRequest({ address });
    if (!request.token) throw new BadRequestException(INVALID_RESET_TOKEN);
    if (request.new_password !== request.confirm_password) {
      throw new BadRequestException(PASSWORDS_DO_NOT_MATCH);
    }
    const passwordHash = await this.hasher.hash(request.new_password);
    const userId = await this.resets.consumeAndSetPassword(
      hashToken(request.token),
      passwordHash,
      new Date(),
    );
    if (!userId) throw new BadRequestException(INVALID_RESET_TOKEN);
    // Tokens issued before now must stop working on every replica at once.
    await this.principals.invalidate(userId);
  }
}
