import { ConfigError, parseEnvironment } from '@agentloom/server-kit';
import { z } from 'zod';

const concurrencyError = 'must be a whole number from 1 to 32';

/**
 * Every setting the builder-worker reads. Values are validated once at boot and the process
 * stops naming the first bad setting, so a typo never turns into a half-working worker.
 */
export const ZWorkerEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' })
    .default('postgresql://postgres@127.0.0.1:5432/agentloom'),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' })
    .default('redis://127.0.0.1:6379'),
  /** Builds this process runs at the same time. */
  WORKER_CONCURRENCY: z.coerce
    .number({ error: concurrencyError })
    .int({ error: concurrencyError })
    .min(1, { error: concurrencyError })
    .max(32, { error: concurrencyError })
    .default(2),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type WorkerConfig = z.infer<typeof ZWorkerEnv>;

export const WORKER_CONFIG = Symbol('WORKER_CONFIG');

/**
 * The localhost defaults are for a checkout; in production they would silently point the worker
 * at the wrong (or no) database and queue, so these must be given explicitly.
 */
const REQUIRED_IN_PRODUCTION = ['DATABASE_URL', 'REDIS_URL'] as const;

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const config = parseEnvironment(ZWorkerEnv, env);
  if (config.NODE_ENV === 'production') {
    const missing = REQUIRED_IN_PRODUCTION.find((name) => !env[name]);
    if (missing) throw new ConfigError(`Missing setting ${missing}: required in production.`);
  }
  return config;
}
