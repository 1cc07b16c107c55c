import path from 'node:path';
import { AppProcess, assertBuilt, freePort, type WorkerConfig } from './builder-worker';

export interface RuntimeReplica {
  app: AppProcess;
  /** http://127.0.0.1:<port> */
  url: string;
  /** GET /health: how many answers this replica started. */
  answers(): Promise<number>;
}

/**
 * One agent runtime replica (`node apps/gateway/dist/runtime-main.js`, `npm run start:runtime`)
 * on a free port, sharing Postgres, Redis, the data folder and the vault key with the gateway
 * and workers started from the same `config`, and the secret the gateway calls it with.
 */
export async function startRuntimeReplica(
  config: WorkerConfig,
  options: { name: string; secret: string; env?: Record<string, string>; timeoutMs: number },
): Promise<RuntimeReplica> {
  const port = await freePort();
  const app = await AppProcess.start({
    name: options.name,
    main: path.join(path.dirname(assertBuilt('gateway')), 'runtime-main.js'),
    env: {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      RUNTIME_PORT: String(port),
      RUNTIME_SHARED_SECRET: options.secret,
      DATABASE_URL: config.DATABASE_URL,
      DATABASE_POOL_SIZE: '2',
      REDIS_URL: config.REDIS_URL,
      DATA_DIR: config.DATA_DIR,
      VAULT_MASTER_KEY: config.VAULT_MASTER_KEY.toString('base64'),
      LOG_LEVEL: 'info',
      ...options.env,
    },
    ready: /Agent runtime listening on/,
    timeoutMs: options.timeoutMs,
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    url,
    async answers() {
      const health = (await (await fetch(`${url}/health`)).json()) as { answers: number };
      return health.answers;
    },
  };
}
