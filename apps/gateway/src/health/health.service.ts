import { TDependencyState, THealth } from '@agentloom/contracts';
import { Inject, Injectable } from '@nestjs/common';
import { withDeadline } from '../common/deadline';
import { APP_CONFIG, AppConfig } from '../config/env';
import { MailService } from '../mail/mail.service';
import { PrismaService } from '../prisma/prisma.service';
import { RedisService } from '../redis/redis.service';

/**
 * Readiness as it is right now: every dependency is asked live (never a remembered flag), each
 * within HEALTH_TIMEOUT_MS, all at once — so /health answers within that deadline even when a
 * dependency hangs, and says which one.
 */
@Injectable()
export class HealthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly prisma: PrismaService,
    private readonly redis: RedisService,
    private readonly mail: MailService,
  ) {}

  async check(): Promise<{ ready: boolean; health: THealth }> {
    const [database, redis] = await Promise.all([
      this.probe(() => this.prisma.ping()),
      this.probe(() => this.redis.ping()),
    ]);
    const states = [database, redis];
    const mail = this.mail.deliveryState();
    return {
      ready: !states.includes('down'),
      health: {
        status: states.every((state) => state === 'up') && mail !== 'down' ? 'ok' : 'degraded',
        database,
        redis,
        mail,
      },
    };
  }

  private async probe(ping: () => Promise<void>): Promise<TDependencyState> {
    const started = performance.now();
    try {
      await withDeadline(ping(), this.config.HEALTH_TIMEOUT_MS, () => new Error('timeout'));
    } catch {
      return 'down';
    }
    return performance.now() - started > this.config.HEALTH_SLOW_MS ? 'slow' : 'up';
  }
}
