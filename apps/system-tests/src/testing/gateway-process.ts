import { buildPaths } from '@agentloom/contracts';
import { createHmac, randomBytes } from 'node:crypto';
import type { AppProcess, WorkerConfig } from './builder-worker';
import { startGatewayReplica } from './gateway-replica';

export interface GatewayProcess {
  app: AppProcess;
  /** An access token for `userId`, signed as the gateway signs them. */
  token(userId: string): string;
  /** POST buildPaths.start('rag') as the build screen sends it. */
  buildRag(
    token: string,
    sessionId: string,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
}

/**
 * `node apps/gateway/dist/main.js` sharing the worker's Postgres, Redis, queue prefix, data
 * folder and vault key, on a free port: the producer side of the builds queue, for real. It
 * signs tokens with a secret of its own, which `token()` uses to sign in without an account.
 */
export async function startGatewayProcess(
  config: WorkerConfig,
  timeoutMs: number,
): Promise<GatewayProcess> {
  const jwtSecret = randomBytes(48).toString('base64url');
  const { app, url: base } = await startGatewayReplica(config, {
    name: 'gateway',
    jwtSecret,
    env: { DATABASE_POOL_SIZE: '2' },
    timeoutMs,
  });
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    app,
    token(userId) {
      const issuedMs = Date.now();
      const now = Math.floor(issuedMs / 1000);
      // iat_ms as the gateway writes it: without it, a token issued in the second the user was
      // created counts as older than the password and is refused.
      const claims = { sub: userId, iat: now, iat_ms: issuedMs, exp: now + 3600 };
      const unsigned = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
      return `${unsigned}.${createHmac('sha256', jwtSecret).update(unsigned).digest('base64url')}`;
    },
    async buildRag(token, sessionId) {
      const response = await fetch(`${base}${buildPaths.start('rag')}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ session_id: sessionId }).toString(),
      });
      return {
        status: response.status,
        body: (await response.json()) as Record<string, unknown>,
      };
    },
  };
}
