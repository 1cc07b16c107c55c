/**
 * The signal a preview's agent runs under. It aborts when the page goes away (`stop`) — so an
 * abandoned question stops costing the owner tokens — or when the provider falls silent: no
 * `alive()` for `silenceMs`, whether before its first words or mid-answer.
 */
export class ProviderWatchdog {
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  private silent = false;
  private ended = false;

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

  /** Something arrived: the silence starts over (the same timer, restarted: one per answer). */
  alive(): void {
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.silent = true;
      this.controller.abort();
    }, this.silenceMs);
  }

  /**
   * The agent's events ended by themselves: nothing is left to abort, and a later `stop()` (the
   * response closing after it was sent) does nothing. Aborting a finished answer cost a
   * DOMException and the stream errors its listeners made, about 2% of a question's CPU.
   */
  finish(): void {
    clearTimeout(this.timer);
    this.ended = true;
  }

  /** The page went away or the agent failed: its provider call is aborted. */
  stop(): void {
    clearTimeout(this.timer);
    if (!this.ended) this.controller.abort();
    this.ended = true;
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
  let failed = false;
  try {
    for await (const event of events) {
      if (watchdog.signal.aborted) break;
      watchdog.alive();
      send(event);
    }
  } catch (error) {
    failed = true;
    if (!watchdog.signal.aborted) {
      send({ type: 'error', detail: `The agent failed: ${(error as Error).message}` });
    }
  }
  if (watchdog.timedOut) send({ type: 'error', detail: silenceDetail(silenceMs) });
  if (failed) watchdog.stop();
  else watchdog.finish();
}
