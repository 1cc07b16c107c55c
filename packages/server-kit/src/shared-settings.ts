import { z } from 'zod';
import { ZObjectStoreEnv } from './object-store/settings';

/**
 * The settings both the gateway and the builder-worker read, in one place: they must agree on
 * them (the same database, Redis, queue namespace, vault key, data folder and object store), so they are
 * parsed by one definition. Each app spreads these into its own schema:
 * `z.object({ ...SHARED_SETTINGS, PORT: … })`.
 */
export const SHARED_SETTINGS = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z
    .url({ protocol: /^postgres(ql)?$/, error: 'must be a postgresql:// URL' })
    .default('postgresql://postgres@127.0.0.1:5432/agentloom'),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' })
    .default('redis://127.0.0.1:6379'),
  /** Namespace of the BullMQ queues in Redis; the gateway and the worker must agree. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_-]+$/, { error: 'letters, digits, : _ - only' })
    .default('agentloom'),
  /** 32 random bytes, base64; the worker decrypts what the gateway stored with it. */
  VAULT_MASTER_KEY: z.string().optional(),
  /** Folder for uploads, artifacts and other files (shared by every replica of both apps). */
  DATA_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** json: one JSON object a line. pretty: one readable line an event. Default: pretty in development. */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  /** Where uploads, profile pictures and build zips are kept: DATA_DIR or an S3 bucket. */
  ...ZObjectStoreEnv.shape,
};
