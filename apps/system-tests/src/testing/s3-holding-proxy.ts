import { createServer, request, type Server } from 'node:http';

/**
 * An HTTP proxy in front of the test's S3 server that can hold the reads of one pipeline's
 * upload (`GET /<bucket>/uploads/<pipelineId>/…`) until released: with no shared folder, that is
 * where a worker reads a build's source, so a test holds a build there for as long as it needs.
 * Every other request passes straight through.
 */
export class S3HoldingProxy {
  private readonly held = new Map<string, { released: Promise<void>; release: () => void }>();

  private readonly server: Server;
  endpoint = '';

  private constructor(target: string) {
    const upstream = new URL(target);
    this.server = createServer((incoming, outgoing) => {
      const hold = incoming.method === 'GET' ? this.holdFor(incoming.url ?? '') : undefined;
      void (hold ?? Promise.resolve()).then(() => {
        const forwarded = request(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: incoming.method,
            path: incoming.url,
            headers: incoming.headers,
          },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        forwarded.on('error', () => outgoing.destroy());
        incoming.pipe(forwarded);
      });
    });
  }

  static async start(target: string): Promise<S3HoldingProxy> {
    const proxy = new S3HoldingProxy(target);
    await new Promise<void>((listening) => proxy.server.listen(0, '127.0.0.1', listening));
    const { port } = proxy.server.address() as { port: number };
    proxy.endpoint = `http://127.0.0.1:${port}`;
    return proxy;
  }

  /** Reads of this pipeline's upload wait from now until `release`. */
  hold(pipelineId: string): { release: () => void } {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held.set(pipelineId, { released, release });
    return { release };
  }

  private holdFor(url: string): Promise<void> | undefined {
    const pipelineId = /^\/[^/]+\/uploads\/([^/]+)\//.exec(url)?.[1];
    return pipelineId ? this.held.get(pipelineId)?.released : undefined;
  }

  async stop(): Promise<void> {
    for (const { release } of this.held.values()) release();
    this.server.closeAllConnections();
    await new Promise((closed) => this.server.close(closed));
  }
}
