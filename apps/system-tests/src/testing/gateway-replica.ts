import { AppProcess, assertBuilt, freePort, type WorkerConfig } from './builder-worker';

export interface GatewayReplica {
  app: AppProcess;
  /** http://127.0.0.1:<port> */
  url: string;
}

/**
 * One replica of the built gateway (`node apps/gateway/dist/main.js`) on a free port. Replicas
 * started with the same `config` and `jwtSecret` share everything a deployment shares: Postgres,
 * Redis, queue prefix, data folder, vault key and token secret — and nothing else. The token
 * secret is the caller's, so a token from one replica works on the next.
 */
export async function startGatewayReplica(
  config: WorkerConfig,
  options: { name: string; jwtSecret: string; env?: Record<string, string>; timeoutMs: number },
): Promise<GatewayReplica> {
  const port = await freePort();
  const app = await AppProcess.start({
    name: options.name,
    main: assertBuilt('gateway'),
    env: {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: config.DATABASE_URL,
      DATABASE_POOL_SIZE: '4',
      REDIS_URL: config.REDIS_URL,
      QUEUE_PREFIX: config.QUEUE_PREFIX,
      DATA_DIR: config.DATA_DIR,
      VAULT_MASTER_KEY: config.VAULT_MASTER_KEY.toString('base64'),
      JWT_SECRET: options.jwtSecret,
      // Every run signs accounts up from 127.0.0.1, and the counts live in the shared Redis.
      SIGNUP_MAX_REQUESTS: '100000',
      // The ready line is logged at info.
      LOG_LEVEL: 'info',
      ...options.env,
    },
    ready: /Gateway listening on/,
    timeoutMs: options.timeoutMs,
  });
  return { app, url: `http://127.0.0.1:${port}` };
}
