import type { WorkerConfig } from '../config/env';
import { AppProcess, assertBuilt } from './app-process';

/** The environment that makes the built worker run with `config`, as main.ts reads it. */
export function workerEnvironment(config: WorkerConfig): Record<string, string> {
  return {
    NODE_ENV: config.NODE_ENV,
    DATABASE_URL: config.DATABASE_URL,
    REDIS_URL: config.REDIS_URL,
    QUEUE_PREFIX: config.QUEUE_PREFIX,
    WORKER_CONCURRENCY: String(config.WORKER_CONCURRENCY),
    WORKER_LOCK_DURATION_MS: String(config.WORKER_LOCK_DURATION_MS),
    WORKER_STALLED_INTERVAL_MS: String(config.WORKER_STALLED_INTERVAL_MS),
    DATA_DIR: config.DATA_DIR,
    WORKER_HEALTH_FILE: config.WORKER_HEALTH_FILE,
    WORKER_HEALTH_INTERVAL_MS: String(config.WORKER_HEALTH_INTERVAL_MS),
    VAULT_MASTER_KEY: config.VAULT_MASTER_KEY.toString('base64'),
    MODEL_CACHE_DIR: config.MODEL_CACHE_DIR,
    ...(config.OPENAI_BASE_URL && { OPENAI_BASE_URL: config.OPENAI_BASE_URL }),
    // Tests wait for log lines (consuming, Redis errors, stopping): keep them.
    LOG_LEVEL: 'info',
  };
}

/** `node apps/builder-worker/dist/main.js` with `config`, once it consumes the builds queue. */
export function startWorkerProcess(config: WorkerConfig, timeoutMs: number): Promise<AppProcess> {
  return AppProcess.start({
    name: 'builder-worker',
    main: assertBuilt('builder-worker'),
    env: workerEnvironment(config),
    ready: /Consuming the .*queue/,
    timeoutMs,
  });
}
