import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PublishedRepository } from './published.repository';

/** How often the counts gathered in this process are written. */
const FLUSH_EVERY_MS = 1_000;

/**
 * Counts each access key's requests (and its last use) in memory and writes them once a second
 * in one statement, instead of one UPDATE on every question's path. The owner's key list flushes
 * first, so it shows this process's uses at once; another gateway's show within a second. A
 * count lost to a crash is at most a second's worth, and never refuses a question.
 */
@Injectable()
export class AccessKeyUses implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AccessKeyUses.name);
  private pending = new Map<string, { uses: number; lastUsedAt: Date }>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly published: PublishedRepository) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  count(keyId: string): void {
    const entry = this.pending.get(keyId);
    if (entry) {
      entry.uses += 1;
      entry.lastUsedAt = new Date();
    } else this.pending.set(keyId, { uses: 1, lastUsedAt: new Date() });
  }

  /** Writes the counts gathered so far; resolves once they (and any write under way) landed. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.published.countUses(
        [...batch].map(([id, { uses, lastUsedAt }]) => ({ id, uses, lastUsedAt })),
      );
    } catch (error) {
      this.logger.warn(
        `Counting ${batch.size} access keys' uses: ${(error as Error).message}; dropped`,
      );
    }
  }
}
