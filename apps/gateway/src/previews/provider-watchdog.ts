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

/** What a person is told when the model provider fell silent. */
export function silenceDetail(silenceMs: number): string {
  return `The model provider did not answer within ${Math.round(silenceMs / 1000)} seconds. Please ask again.`;
}

export interface ErrorEvent {
  type: 'error';
  detail: string;
}

/**
 * Passes an agent's events to `send` while the provider keeps talking, then stops the watchdog.
 * An agent that throws is reported as an `error` event — unless the watchdog stopped it, since an
 * agent ends quietly when its signal aborts: the caller is gone, or the silence is reported after.
 */
export async function relayEvents<E>(
  events: AsyncIterable<E>,
  watchdog: ProviderWatchdog,
  silenceMs: number,
  send: (event: E | ErrorEvent) => void,
): Promise<void> {
  try {
    for await (const event of events) {
      if (watchdog.signal.aborted) break;
      watchdog.alive();
      send(event);
    }
  } catch (error) {
    if (!watchdog.signal.aborted) {
      send({ type: 'error', detail: `The agent failed: ${(error as Error).message}` });
    }
  }
  if (watchdog.timedOut) send({ type: 'error', detail: silenceDetail(silenceMs) });
  watchdog.stop();
}
