import net from 'node:net';

export interface TestTcpServer {
  port: number;
  close: () => Promise<void>;
}

/** A TCP server on an ephemeral local port that tracks its sockets, so close() is immediate. */
export async function listen(onSocket: (socket: net.Socket) => void): Promise<TestTcpServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    onSocket(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((socket) => socket.destroy());
        server.close(() => resolve());
      }),
  };
}

/**
 * A TCP forwarder to `targetPort`. The wizard refuses data sources at the platform's own
 * Postgres address, so tests reach the local Postgres through this stand-in for "another
 * Postgres server" — the same real server, at an address that is not the platform's.
 */
export function startTcpForwarder(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<TestTcpServer> {
  return listen((client) => {
    const upstream = net.connect(targetPort, targetHost);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
}

/** A forwarder whose link can be made slow, stalled or cut, for fault tests. */
export interface FaultProxy extends TestTcpServer {
  /** Holds every byte in both directions (connections stay open) until `heal`. */
  stall(): void;
  /** Delays every chunk in both directions by `ms` (order kept). */
  delay(ms: number): void;
  /** Drops every open connection; with `refuse`, new ones are closed at once until `heal`. */
  cut(options?: { refuse?: boolean }): void;
  /** Back to a clean link; held bytes are delivered in order. */
  heal(): void;
  /** Connections currently open through the proxy. */
  readonly connections: number;
}

/**
 * A TCP forwarder to a real server (Postgres, Redis) that injects the faults of a bad network or
 * a stalled server: the server itself is never touched, so others sharing it are unaffected.
 * Bytes are forwarded chunk by chunk in order, so a stall holds them and a heal releases them,
 * exactly as a paused server would answer late.
 */
export async function startFaultProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<FaultProxy> {
  let stalled = false;
  let refusing = false;
  let delayMs = 0;
  const links = new Set<{ flush: () => void; drop: () => void }>();

  const server = await listen((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const held: [net.Socket, Buffer][] = [];
    let queue = Promise.resolve();
    const forward = (to: net.Socket, chunk: Buffer) => {
      if (stalled) {
        held.push([to, chunk]);
        return;
      }
      if (delayMs === 0) {
        to.write(chunk);
        return;
      }
      const wait = delayMs;
      queue = queue.then(
        () =>
          new Promise<void>((resolve) =>
            setTimeout(() => {
              if (!to.destroyed) to.write(chunk);
              resolve();
            }, wait),
          ),
      );
    };
    const link = {
      flush: () => held.splice(0).forEach(([to, chunk]) => forward(to, chunk)),
      drop: () => {
        client.destroy();
        upstream.destroy();
      },
    };
    links.add(link);
    client.on('data', (chunk: Buffer) => forward(upstream, chunk));
    upstream.on('data', (chunk: Buffer) => forward(client, chunk));
    upstream.on('error', () => client.destroy());
    const close = () => {
      links.delete(link);
      link.drop();
    };
    client.on('close', close);
    upstream.on('close', close);
  });

  return {
    ...server,
    stall: () => {
      stalled = true;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    cut: ({ refuse = false } = {}) => {
      refusing = refuse;
      [...links].forEach((link) => link.drop());
    },
    heal: () => {
      stalled = false;
      refusing = false;
      delayMs = 0;
      [...links].forEach((link) => link.flush());
    },
    get connections() {
      return links.size;
    },
  };
}
