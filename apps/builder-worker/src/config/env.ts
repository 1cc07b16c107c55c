import {
  ConfigError,
  DATA_SOURCE_SETTINGS,
  defaultDataDir,
  MASTER_KEY_HINT,
  parseEnvironment,
  resolveMasterKey,
  SHARED_SETTINGS,
  ZMetricsEnv,
} from '@agentloom/server-kit';
import path from 'node:path';
import { z } from 'zod';

const concurrencyError = 'must be a whole number from 1 to 32';
const millisecondsError = 'must be a whole number of milliseconds from 500 to 600000';

const milliseconds = (fallback: number) =>
  z.coerce
    .number({ error: millisecondsError })
    .int({ error: millisecondsError })
    .min(500, { error: millisecondsError })
    .max(600_000, { error: millisecondsError })
    .default(fallback);

/**
 * Every setting the builder-worker reads. Values are validated once at boot and the process
 * stops naming the first bad setting, so a typo never turns into a half-working worker.
 */
export const ZWorkerEnv = z.object({
  ...SHARED_SETTINGS,
  // The builder reads table sources (and web pages) into agents' indexes through the same guard
  // as the gateway's wizard, with the same settings.
  ...DATA_SOURCE_SETTINGS,
  /** Prometheus metrics: the port of the worker's metrics server (unset: none) and its token. */
  ...ZMetricsEnv.shape,
  /** Builds this process runs at the same time. */
  WORKER_CONCURRENCY: z.coerce
    .number({ error: concurrencyError })
    .int({ error: concurrencyError })
    .min(1, { error: concurrencyError })
    .max(32, { error: concurrencyError })
    .default(2),
  /**
   * How long a running build's lock in Redis lasts unless renewed (the worker renews it at half
   * this). When a worker dies mid-build, its build runs again elsewhere once the lock expires.
   */
  WORKER_LOCK_DURATION_MS: milliseconds(30_000),
  /** How often the worker looks for builds whose lock expired (their worker died) to rerun them. */
  WORKER_STALLED_INTERVAL_MS: milliseconds(30_000),
  /**
   * The worker's health file: rewritten every WORKER_HEALTH_INTERVAL_MS after checking Postgres,
   * Redis and the queue consumer live; the container healthcheck (`dist/health-check.js`) reads it.
   */
  WORKER_HEALTH_FILE: z.string().default('/tmp/agentloom-worker-health.json'),
  WORKER_HEALTH_INTERVAL_MS: milliseconds(10_000),
  /** OpenAI's endpoint for the embeddings a build makes (a proxy, the tests' local stand-in). */
  OPENAI_BASE_URL: z.url().optional(),
  /** Where local embedding models' weights are downloaded once and read from afterwards. */
  MODEL_CACHE_DIR: z.string().optional(),
  /** Zip-bomb guard when an Excel source is read: the gateway's limit, which it was checked by. */
  XLSX_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(0xffffffff)
    .default(200 * 1024 * 1024),
});

export type WorkerEnv = z.infer<typeof ZWorkerEnv>;

/** The validated configuration the worker runs with; data folder and master key resolved. */
export interface WorkerConfig extends Omit<
  WorkerEnv,
  'DATA_DIR' | 'VAULT_MASTER_KEY' | 'MODEL_CACHE_DIR' | 'DATA_SOURCE_STRICT' | 'SQLITE_PREVIEW_DIR'
> {
  DATA_DIR: string;
  MODEL_CACHE_DIR: string;
  VAULT_MASTER_KEY: Buffer;
  DATA_SOURCE_STRICT: boolean;
  SQLITE_PREVIEW_DIR?: string;
}

export const WORKER_CONFIG = Symbol('WORKER_CONFIG');

/**
 * The localhost defaults are for a checkout; in production they would silently point the worker
 * at the wrong (or no) database and queue, so these must be given explicitly.
 */
const REQUIRED_IN_PRODUCTION = ['DATABASE_URL', 'REDIS_URL'] as const;

export function loadWorkerConfig(
  env: NodeJS.ProcessEnv = process.env,
  warn: (message: string) => void = (message) => console.warn(`[config] ${message}`),
): WorkerConfig {
  const config = parseEnvironment(ZWorkerEnv, env);
  if (config.NODE_ENV === 'production') {
    // Given as a value or as a file (<SETTING>_FILE, a mounted secret).
    const missing = REQUIRED_IN_PRODUCTION.find((name) => !env[name] && !env[`${name}_FILE`]);
    if (missing) throw new ConfigError(`Missing setting ${missing}: required in production.`);
    if (!config.VAULT_MASTER_KEY) {
      throw new ConfigError(
        `Missing setting VAULT_MASTER_KEY: required in production (the gateway's key). ${MASTER_KEY_HINT}`,
      );
    }
  }
  const dataDir = path.resolve(config.DATA_DIR ?? defaultDataDir());
  // In development the gateway and the worker share the generated key in the data folder.
  const masterKey = resolveMasterKey(config.VAULT_MASTER_KEY, dataDir, warn);
  return {
    ...config,
    DATA_DIR: dataDir,
    MODEL_CACHE_DIR: path.resolve(config.MODEL_CACHE_DIR ?? path.join(dataDir, 'models')),
    VAULT_MASTER_KEY: masterKey,
    DATA_SOURCE_STRICT: config.DATA_SOURCE_STRICT ?? config.NODE_ENV === 'production',
    SQLITE_PREVIEW_DIR: config.SQLITE_PREVIEW_DIR
      ? path.resolve(config.SQLITE_PREVIEW_DIR)
      : undefined,
  };
}
