/**
 * The signal a preview's agent runs under. It aborts when the page goes away (`stop`) — so an
 * abandoned question stops costing the owner tokens — or when the provider falls silent: no
 * `alive()` for `silenceMs`, whether before its first words or mid-answer.
 */
export class ProviderWatchdog {
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  private silent = false;

  constructor(private readonly silenceMs: number) {
    this.alive();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the abort came from the provider's silence, not from the page. */
  get timedOut(): boolean {
    return this.silent;
  }

  /** Something arrived: the silence starts over. */
  alive(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.silent = true;
      this.controller.abort();
    }, this.silenceMs);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.controller.abort();
  }
}
