import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/env';
import type { LoadedAgent } from './agent-loader';

interface Entry {
  agent: Promise<LoadedAgent>;
  /** Set once loading succeeded: what its memory is counted from. */
  loaded?: LoadedAgent;
  userId: string;
  lastUsed: number;
}

/**
 * The agents loaded in this process — previews by their link's token, published agents by their
 * build — each loaded once per key and process (opening its index, its SQL engine) and then kept
 * while it is used. At most PREVIEW_MAX_LOADED stay loaded — the least recently used is unloaded
 * first — and one idle for PREVIEW_IDLE_MINUTES is unloaded too. An unloaded agent simply loads
 * again on its next question, on whichever replica gets it.
 *
 * The slots are shared by every user, so they are budgeted: one user holds at most
 * PREVIEW_MAX_PER_USER of them (their own least recently used makes room, never someone else's),
 * and together the loaded agents hold at most PREVIEW_MAX_MEMORY_MB (each agent reports what it
 * may hold; the least recently used others are unloaded after a load goes over).
 */
@Injectable()
export class LoadedAgents implements OnModuleDestroy {
  private readonly logger = new Logger(LoadedAgents.name);
  /** Insertion order is recency order: a use moves the entry to the end. */
  private readonly entries = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.sweeper = setInterval(() => this.unloadIdle(), 60_000);
    this.sweeper.unref();
  }

  /**
   * The agent loaded under `key` (a preview token, or a published build), loaded by `load` when
   * it is not; a failed load is not kept. Published agents share these slots and budgets with
   * previews: one runtime, one memory limit per process.
   */
  agent(key: string, userId: string, load: () => Promise<LoadedAgent>): Promise<LoadedAgent> {
    const existing = this.entries.get(key);
    if (existing) {
      this.entries.delete(key);
      this.entries.set(key, { ...existing, lastUsed: Date.now() });
      return existing.agent;
    }
    const agent = load();
    const entry: Entry = { agent, userId, lastUsed: Date.now() };
    this.entries.set(key, entry);
    agent.then(
      (loaded) => {
        entry.loaded = loaded;
        this.evictOverMemory(key);
      },
      () => this.entries.delete(key),
    );
    this.evictOverUserLimit(userId);
    this.evictOverLimit();
    return agent;
  }

  /** Unloads the agent under `key` now (an unpublished agent stops holding memory). */
  drop(key: string): Promise<void> {
    return this.unload(key);
  }

  /** Bytes the loaded agents may hold together (for the budget, the bench and tests). */
  memoryBytes(): number {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.loaded?.memoryBytes() ?? 0;
    return total;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.entries.keys()].map((token) => this.unload(token)));
  }

  private evictOverLimit(): void {
    for (const token of this.entries.keys()) {
      if (this.entries.size <= this.config.PREVIEW_MAX_LOADED) return;
      void this.unload(token);
    }
  }

  private evictOverUserLimit(userId: string): void {
    const own = [...this.entries].filter(([, entry]) => entry.userId === userId);
    const excess = own.length - this.config.PREVIEW_MAX_PER_USER;
    for (const [token] of own.slice(0, Math.max(0, excess))) void this.unload(token);
  }

  private evictOverMemory(keep: string): void {
    const budget = this.config.PREVIEW_MAX_MEMORY_MB * 1024 * 1024;
    for (const token of [...this.entries.keys()]) {
      if (this.memoryBytes() <= budget) return;
      if (token !== keep) void this.unload(token);
    }
  }

  private unloadIdle(): void {
    const cutoff = Date.now() - this.config.PREVIEW_IDLE_MINUTES * 60_000;
    for (const [token, entry] of this.entries) {
      if (entry.lastUsed < cutoff) void this.unload(token);
    }
  }

  private async unload(token: string): Promise<void> {
    const entry = this.entries.get(token);
    if (!entry) return;
    this.entries.delete(token);
    try {
      await (await entry.agent).close();
    } catch (error) {
      this.logger.debug(`Unloading an agent: ${(error as Error).message}`);
    }
  }
}
