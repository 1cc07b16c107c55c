import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';

/** What a login or a password-reset request is counted against. */
export interface ThrottleKeys {
  /** The client's address (behind TRUST_PROXY_HOPS proxies). */
  address: string;
  /** The e-mail the request names, lower-cased; absent for a reset by token. */
  email?: string;
}

/**
 * Counts failed logins and password-reset requests in Redis, so every gateway replica sees the
 * same count. While Redis is unreachable an in-process limiter stands in rather than letting
 * requests through unlimited.
 *
 * Failed logins are counted per address and per account: guessing one victim's password from
 * many addresses hits the account's limit, and an attacker's own successful logins clear only
 * their own account's count — never the address's, never the victim's. The address's limit is
 * well above the account's (as for password resets), so strangers' failures behind one shared
 * address (an office, a school) do not lock a colleague out of their own account.
 */
@Injectable()
export class LoginThrottleService {
  private readonly byAddress: RateLimiterRedis;
  private readonly byAccount: RateLimiterRedis;
  private readonly resetsByAddress: RateLimiterRedis;
  private readonly resetsByEmail: RateLimiterRedis;
  private readonly signupsByAddress: RateLimiterRedis;
  private readonly signupsByEmail: RateLimiterRedis;

  constructor(@Inject(APP_CONFIG) config: AppConfig, redis: RedisService) {
    const limiter = (keyPrefix: string, points: number, duration: number) =>
      new RateLimiterRedis({
        points,
        duration,
        storeClient: redis.client,
        keyPrefix,
        insuranceLimiter: new RateLimiterMemory({ points, duration }),
      });
    const logins = [config.LOGIN_MAX_FAILURES, config.LOGIN_FAILURE_WINDOW_SECONDS] as const;
    const addressLogins = [
      config.LOGIN_MAX_FAILURES_PER_ADDRESS,
      config.LOGIN_FAILURE_WINDOW_SECONDS,
    ] as const;
    const resets = [config.RESET_MAX_REQUESTS, config.RESET_WINDOW_SECONDS] as const;
    const addressResets = [
      config.RESET_MAX_REQUESTS_PER_ADDRESS,
      config.RESET_WINDOW_SECONDS,
    ] as const;
    this.byAddress = limiter('agentloom:auth-throttle:login-address', ...addressLogins);
    this.byAccount = limiter('agentloom:auth-throttle:login-account', ...logins);
    this.resetsByAddress = limiter('agentloom:auth-throttle:reset-address', ...addressResets);
    this.resetsByEmail = limiter('agentloom:auth-throttle:reset-email', ...resets);
    const signups = [config.SIGNUP_MAX_REQUESTS, config.SIGNUP_WINDOW_SECONDS] as const;
    this.signupsByAddress = limiter('agentloom:auth-throttle:signup-address', ...signups);
    this.signupsByEmail = limiter('agentloom:auth-throttle:signup-email', ...signups);
  }

  /** Throws 429 when this address or this account has used up its failed attempts. */
  async assertLoginAllowed(keys: ThrottleKeys): Promise<void> {
    for (const [limiter, key] of this.loginCounters(keys)) {
      const state = await limiter.get(key);
      if (state && state.consumedPoints >= limiter.points) {
        throw this.tooMany(state, 'failed login attempts');
      }
    }
  }

  async recordLoginFailure(keys: ThrottleKeys): Promise<void> {
    for (const [limiter, key] of this.loginCounters(keys)) await this.count(limiter, key);
  }

  /** A correct password clears that account's count only (see the class comment). */
  async clearAccount(email: string): Promise<void> {
    await this.byAccount.delete(email.toLowerCase());
  }

  /**
   * Forgot-password and reset-password: each request counts, per address and per e-mail, so a
   * victim's reset link cannot be voided over and over and tokens cannot be guessed at speed.
   */
  async consumeResetRequest(keys: ThrottleKeys): Promise<void> {
    await this.consume(keys, [this.resetsByAddress, this.resetsByEmail], 'password reset requests');
  }

  /**
   * Signup must say when an e-mail is taken (the app logs the new user straight in, so a uniform
   * answer would still tell), so every attempt counts, per address and per e-mail: nobody can
   * walk a list of addresses through it.
   */
  async consumeSignup(keys: Required<ThrottleKeys>): Promise<void> {
    await this.consume(keys, [this.signupsByAddress, this.signupsByEmail], 'sign-up attempts');
  }

  private async consume(
    keys: ThrottleKeys,
    [byAddress, byEmail]: [RateLimiterRedis, RateLimiterRedis],
    what: string,
  ): Promise<void> {
    const counters: [RateLimiterRedis, string][] = [[byAddress, keys.address]];
    if (keys.email) counters.push([byEmail, keys.email.toLowerCase()]);
    for (const [limiter, key] of counters) {
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw this.tooMany(rejection, what);
        throw rejection;
      }
    }
  }

  private loginCounters(keys: ThrottleKeys): [RateLimiterRedis, string][] {
    const counters: [RateLimiterRedis, string][] = [[this.byAddress, keys.address]];
    if (keys.email) counters.push([this.byAccount, keys.email.toLowerCase()]);
    return counters;
  }

  private async count(limiter: RateLimiterRedis, key: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return; // already over the limit; counted
      throw rejection;
    }
  }

  private tooMany(state: RateLimiterRes, what: string): HttpException {
    const minutes = Math.max(1, Math.ceil(state.msBeforeNext / 60_000));
    return new HttpException(
      { detail: `Too many ${what}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.` },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}
