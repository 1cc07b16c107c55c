import { z } from 'zod';
import { ZObjectStoreEnv } from './object-store/settings';

/**
 * The settings both the gateway and the builder-worker read, in one place: they must agree on
 * them (the same database, Redis, queue namespace, vault key, data folder and object store), so they are
 * parsed by one definition. Each app spreads these into its own schema:
 * `z.object({ ...SHARED_SETTINGS, PORT: … })`.
 */
/** `true`/`false` (or 1/0) in an environment variable. */
export const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1');

/** A comma-separated list, blanks dropped. */
export const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/**
 * How the processes that reach users' databases (the gateway for the wizard and previews, the
 * builder worker when it reads a table into an agent's index) do it: through one network guard,
 * with the same rules, so a source refused by one is refused by the other.
 */
export const DATA_SOURCE_SETTINGS = {
  /**
   * Refuse data sources on loopback, private and link-local addresses. Unset: on in production
   * (a hosted server must not reach the services beside it), off in development and tests.
   */
  DATA_SOURCE_STRICT: booleanFlag.optional(),
  /**
   * Hosts (names as written in the URI, IP addresses or CIDR ranges, comma-separated) a data
   * source may use even in strict mode: an on-premises database on a private network.
   */
  DATA_SOURCE_ALLOWED_HOSTS: commaList.default([]),
  /** How long a user's database may take to answer one step (connect, sign in, a query), in ms. */
  DATA_SOURCE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /**
   * A folder of SQLite files this server may open (previews, and the builder reading a SQLite
   * table into an agent's index). Unset (the default): the file lives where the agent runs.
   */
  SQLITE_PREVIEW_DIR: z.string().optional(),
};

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
