import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/**
 * Where the Prometheus metrics of a process are served and who may read them, the same for the
 * gateway, the runtime replicas and the builder worker (docs/operating.md, "Metrics").
 */
export const ZMetricsEnv = z.object({
  /**
   * A port of the metrics' own. The builder worker serves metrics only there (unset: none); the
   * gateway and a runtime replica serve them there instead of on their API port.
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** The address the metrics port listens on. */
  METRICS_HOST: z.string().min(1).default('0.0.0.0'),
  /** When set, /metrics answers only `Authorization: Bearer <this>`. */
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
});
export type MetricsEnv = z.infer<typeof ZMetricsEnv>;

/** What a metrics registry (prom-client's) offers for scraping. */
export interface MetricsSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

export const METRICS_PATH = '/metrics';
export const METRICS_TOKEN_REFUSED =
  'These metrics need the METRICS_TOKEN setting as "Authorization: Bearer <token>".';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when no token is set, or when the Authorization header carries it (constant time). */
export function metricsAccess(token: string | undefined, authorization: string | undefined) {
  if (!token) return true;
  const sent = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
}

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the one given for port 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * A small HTTP server that serves only GET /metrics: the builder worker has no other, and the
 * gateway starts one when its metrics get a port of their own (METRICS_PORT).
 */
export async function startMetricsServer(o: {
  host: string;
  port: number;
  token?: string;
  source: MetricsSource;
}): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const answer = (status: number, detail: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify({ detail }));
    };
    const path = (request.url ?? '').split('?', 1)[0];
    if (path !== METRICS_PATH) return answer(404, 'Only /metrics is served on this port.');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return answer(405, 'Metrics are read with GET.', { allow: 'GET, HEAD' });
    }
    if (!metricsAccess(o.token, request.headers.authorization)) {
      return answer(401, METRICS_TOKEN_REFUSED, { 'www-authenticate': 'Bearer' });
    }
    o.source.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': o.source.contentType });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: Error) => answer(500, `The metrics could not be collected: ${error.message}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
