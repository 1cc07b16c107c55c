import {
  BUILD_EVENTS,
  BUILDS_NAMESPACE,
  type TBuildCompletedEvent,
  type TBuildFailedEvent,
  type TBuildSnapshot,
  type TBuildStageEvent,
  type TBuildSubscribeAck,
} from '@agentloom/contracts';
import { io, type Socket } from 'socket.io-client';

export type HeardEvent =
  | { event: typeof BUILD_EVENTS.snapshot; data: TBuildSnapshot }
  | { event: typeof BUILD_EVENTS.stage; data: TBuildStageEvent }
  | { event: typeof BUILD_EVENTS.completed; data: TBuildCompletedEvent }
  | { event: typeof BUILD_EVENTS.failed; data: TBuildFailedEvent };

/**
 * A browser's build screen in miniature: one Socket.IO connection to the `/builds` namespace of
 * a gateway, subscribed to some agents, recording every event per agent in arrival order.
 */
export class BuildFeed {
  private readonly heard = new Map<string, HeardEvent[]>();
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly socket: Socket) {
    const record = (event: HeardEvent['event']) => (data: { session_id: string }) => {
      const list = this.heard.get(data.session_id) ?? [];
      list.push({ event, data } as HeardEvent);
      this.heard.set(data.session_id, list);
      for (const waiter of this.waiters) waiter();
    };
    for (const event of Object.values(BUILD_EVENTS)) {
      if (event !== BUILD_EVENTS.subscribe) socket.on(event, record(event));
    }
  }

  static connect(base: string, token: string, timeoutMs: number): Promise<BuildFeed> {
    const socket = io(`${base}${BUILDS_NAMESPACE}`, {
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      timeout: timeoutMs,
    });
    return new Promise((resolve, reject) => {
      socket.once('connect', () => resolve(new BuildFeed(socket)));
      socket.once('connect_error', (error) => {
        socket.close();
        reject(error);
      });
    });
  }

  async subscribe(sessionId: string, timeoutMs: number): Promise<TBuildSubscribeAck> {
    return (await this.socket
      .timeout(timeoutMs)
      .emitWithAck(BUILD_EVENTS.subscribe, { sessionId })) as TBuildSubscribeAck;
  }

  /** Everything heard about one agent so far, in arrival order. */
  events(sessionId: string): HeardEvent[] {
    return [...(this.heard.get(sessionId) ?? [])];
  }

  /** Resolves once `done(events of sessionId)` holds; rejects after `timeoutMs`. */
  waitFor(
    sessionId: string,
    done: (events: HeardEvent[]) => boolean,
    timeoutMs: number,
    what: string,
  ): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done(this.events(sessionId))) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(
          new Error(
            `${what}: not heard within ${timeoutMs} ms. Heard: ${JSON.stringify(this.events(sessionId))}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  close(): void {
    this.socket.close();
  }
}
