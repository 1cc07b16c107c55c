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
