import {
  booleanFlag,
  commaList,
  ConfigError,
  DATA_SOURCE_SETTINGS,
  defaultDataDir,
  generateJwtSecret,
  loadOrCreateDevSecret,
  MASTER_KEY_HINT,
  parseEnvironment,
  resolveMasterKey,
  SHARED_SETTINGS,
  ZRandomSecret,
  ZMetricsEnv,
} from '@agentloom/server-kit';
import { LLM_PROVIDER_CATALOG, type TLlmBaseUrlEnv } from '@agentloom/contracts';
import path from 'node:path';
import { z } from 'zod';
import { parseTrustedProxy } from '../common/client-address';

/**
 * Provider endpoints, overridable (proxies, self-hosted gateways, the tests' local server): one
 * optional URL setting per catalogue provider (OPENAI_BASE_URL, …), named by its descriptor.
 */
const PROVIDER_BASE_URL_SETTINGS = Object.fromEntries(
  Object.values(LLM_PROVIDER_CATALOG).map((spec) => [spec.baseUrlEnv, z.url().optional()]),
) as Record<TLlmBaseUrlEnv, z.ZodOptional<z.ZodURL>>;

/** TRUSTED_PROXIES: each entry must parse (the gateway refuses to start otherwise). */
const proxyList = commaList.superRefine((entries, context) => {
  for (const entry of entries) {
    try {
      parseTrustedProxy(entry);
    } catch (error) {
      context.addIssue({ code: 'custom', message: (error as Error).message });
    }
  }
});

/**
 * Every setting the gateway reads. `.env.example` documents each one; keep them in step.
 * Values are validated once at boot and the process stops naming the first bad setting.
 */
export const ZGatewayEnv = z.object({
  ...SHARED_SETTINGS,
  /** Prometheus metrics: their own port, its address, and the token that reads them. */
  ...ZMetricsEnv.shape,
  PORT: z.coerce.number().int().min(1).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** How long a request waits for a free database connection before answering 503. */
  DATABASE_POOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3_000),
  /** Longest a database statement may run before it is cancelled (the request answers 503). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  /**
   * How long one Redis command may take. Past it the command fails, the caller falls back
   * (caches read Postgres) and Redis is treated as away until a background ping answers again.
   */
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(20).max(10_000).default(500),
  /** /health gives each dependency this long to answer before reporting it down. */
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(1_000),
  /** A dependency answering /health slower than this is reported slow (still ready). */
  HEALTH_SLOW_MS: z.coerce.number().int().min(1).max(10_000).default(250),
  /** HMAC secret for access tokens; at least 32 characters. */
  JWT_SECRET: ZRandomSecret.optional(),
  /** Access-token lifetime in seconds. */
  JWT_EXPIRES_IN_SECONDS: z.coerce.number().int().min(60).default(86_400),
  /**
   * Browser origins allowed by CORS (comma-separated), for a web app served from another origin
   * than PUBLIC_URL's (the app's own origin needs no CORS: it reaches the API through its web
   * server). Defaults to PUBLIC_URL's origin.
   */
  CORS_ORIGINS: commaList.optional(),
  SMTP_HOST: z.string().default('127.0.0.1'),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
  /** true: TLS from the first byte (port 465). false: plain, upgraded with STARTTLS when offered. */
  SMTP_SECURE: booleanFlag.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  MAIL_FROM: z.string().default('Agentloom <no-reply@agentloom.local>'),
  RESET_TOKEN_TTL_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  /** Failed logins allowed per account before 429, within the window. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  /**
   * The same, per client address. Unset: ten times LOGIN_MAX_FAILURES. Well above the account's
   * limit, because an office or a school behind one address would otherwise lock every colleague
   * out after a few strangers' typos; guessing at one account still stops at that account's limit.
   */
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).optional(),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /** Forgot-password and reset-password requests allowed per e-mail, per window. */
  RESET_MAX_REQUESTS: z.coerce.number().int().min(1).default(5),
  /**
   * The same, per address: higher, because an office or a school shares one address and five
   * requests an hour among all its people is a dead end; a single e-mail keeps its own limit.
   */
  RESET_MAX_REQUESTS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  RESET_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** Sign-up attempts allowed per address and per e-mail within the window, before 429. */
  SIGNUP_MAX_REQUESTS: z.coerce.number().int().min(1).default(10),
  SIGNUP_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
  /**
   * Proxy hops in front of the gateway whose X-Forwarded-For is believed (0 = the socket address).
   * One: the product's own web server (`vite preview` under npm start, nginx in compose).
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(1),
  /**
   * Where those proxies connect from (IP addresses, CIDR ranges, or loopback, linklocal,
   * uniquelocal): a request from any other peer is taken at its socket address, whatever
   * X-Forwarded-For it sends. Loopback: `npm start`'s web server runs beside the gateway.
   */
  TRUSTED_PROXIES: proxyList.default(['loopback']),
  /** Largest data-source upload accepted by the wizards, in bytes (default 50 MB). */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(50 * 1024 * 1024),
  /** Zip-bomb guard: an .xlsx whose entries expand beyond this many bytes is refused. */
  XLSX_MAX_UNCOMPRESSED_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(0xffffffff, { error: "must be at most 4 GiB (the zip format's 32-bit sizes)" })
    .default(200 * 1024 * 1024),
  /**
   * PDFs and workbooks parsed at once in this process, each in a worker thread with its own heap;
   * the others wait their turn. The bound is on memory as much as on cores.
   */
  PARSE_MAX_CONCURRENT: z.coerce.number().int().min(1).max(64).default(2),
  /** PDFs and workbooks one user may have parsed at once; another answers 429 until one ends. */
  PARSE_MAX_PER_USER: z.coerce.number().int().min(1).max(64).default(2),
  /** Heap of one workbook's parse, in MB: a workbook whose shared strings need more is refused. */
  XLSX_PARSE_MAX_HEAP_MB: z.coerce.number().int().min(32).max(16_384).default(512),
  ...DATA_SOURCE_SETTINGS,
  /**
   * How long a preview waits for the model provider: for its first words, and between two parts
   * of the answer. Past it the question ends with an error and the call is cancelled.
   */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  /**
   * The one origin browsers reach Agentloom at: the web app, whose web server forwards the API,
   * Socket.IO and the /p/ preview pages to the gateway. Every absolute link the gateway writes
   * (reset mail, preview and image-agent pages) starts with it. Required in production: a link is
   * never built from a request's Host header, which the client chooses. Elsewhere
   * http://localhost:<WEB_PORT>, the web app under `npm start`.
   */
  PUBLIC_URL: z.url().optional(),
  /** The web app's port under `npm start` (its web server reads it too): PUBLIC_URL's default. */
  WEB_PORT: z.coerce.number().int().min(1).max(65535).default(5173),
  /** How long a preview link works after it was started. */
  PREVIEW_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(120),
  /**
   * Agents (previews and published) held loaded at once, least recently used unloaded first. A
   * loaded agent holds its model client and, for small agents, its vectors (at most 4 MB);
   * reloading one opens its hosted index again and embeds nothing.
   */
  PREVIEW_MAX_LOADED: z.coerce.number().int().min(1).max(10_000).default(1000),
  /** Builds one user may have running at once; another answers 429 until one finishes. */
  MAX_CONCURRENT_BUILDS_PER_USER: z.coerce.number().int().min(1).max(100).default(3),
  /** Agents (pipelines) one user may keep; another answers 429 until one is deleted. */
  MAX_PIPELINES_PER_USER: z.coerce.number().int().min(1).default(100),
  /** Bytes of uploaded source files one user's agents may keep together (default 1 GiB); 413 beyond. */
  MAX_STORED_BYTES_PER_USER: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024 * 1024),
  /** Agents one user may hold loaded at once; their least recently used makes room. */
  PREVIEW_MAX_PER_USER: z.coerce.number().int().min(1).max(1000).default(50),
  /** Memory all loaded previews may hold together, in MB (least recently used unloaded first). */
  PREVIEW_MAX_MEMORY_MB: z.coerce.number().int().min(16).default(1024),
  /** A preview nobody asked anything for this long is unloaded (reloaded on its next question). */
  PREVIEW_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  /** Requests a minute a new access key of a published agent may make (its owner can change it). */
  PUBLISHED_KEY_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(60),
  /** Messages a minute one visitor (address) may send to a published agent's widget or page. */
  PUBLISHED_VISITOR_RATE_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  /** Earlier turns (question and answer pairs) of a conversation the model is given. */
  PUBLISHED_MEMORY_TURNS: z.coerce.number().int().min(0).max(50).default(6),
  /**
   * Runtime replicas (`npm run start:runtime`) that answer for published agents, e.g.
   * `http://agent-runtime:8100`. Unset: the gateway answers in its own process.
   */
  PUBLISHED_RUNTIME_URLS: commaList
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'must be http(s) URLs, comma-separated' })))
    .default([]),
  /** The secret the gateway and the runtime replicas share for their internal requests. */
  RUNTIME_SHARED_SECRET: ZRandomSecret.optional(),
  /** Port of a runtime replica (never published outside the internal network). */
  RUNTIME_PORT: z.coerce.number().int().min(1).max(65535).default(8100),
  /** Where the preview's local embedding models are downloaded on first use (mount it). */
  MODEL_CACHE_DIR: z.string().optional(),
  /**
   * Memory for the hosted indexes' HNSW graphs and file metadata that LanceDB keeps between
   * questions, shared by every agent this process answers for (least recently used out first).
   */
  HOSTED_INDEX_CACHE_MB: z.coerce.number().int().min(16).max(65536).default(512),
  ...PROVIDER_BASE_URL_SETTINGS,
});

export type GatewayEnv = z.infer<typeof ZGatewayEnv>;

/** The validated configuration the application runs with; secrets resolved. */
export interface AppConfig extends Omit<
  GatewayEnv,
  | 'JWT_SECRET'
  | 'VAULT_MASTER_KEY'
  | 'CORS_ORIGINS'
  | 'DATA_DIR'
  | 'MODEL_CACHE_DIR'
  | 'SQLITE_PREVIEW_DIR'
  | 'PUBLIC_URL'
  | 'DATA_SOURCE_STRICT'
  | 'LOGIN_MAX_FAILURES_PER_ADDRESS'
> {
  PUBLIC_URL: string;
  DATA_SOURCE_STRICT: boolean;
  LOGIN_MAX_FAILURES_PER_ADDRESS: number;
  JWT_SECRET: string;
  VAULT_MASTER_KEY: Buffer;
  CORS_ORIGINS: string[];
  DATA_DIR: string;
  MODEL_CACHE_DIR: string;
  SQLITE_PREVIEW_DIR?: string;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export function loadConfig(
  source: NodeJS.ProcessEnv = process.env,
  warn: (message: string) => void = (message) => console.warn(`[config] ${message}`),
): AppConfig {
  const env = parseEnvironment(ZGatewayEnv, source);
  const dataDir = path.resolve(env.DATA_DIR ?? defaultDataDir());
  const production = env.NODE_ENV === 'production';

  if (production && !env.JWT_SECRET) {
    throw new ConfigError(
      'Missing setting JWT_SECRET: required in production (48+ random characters).',
    );
  }
  if (production && !env.VAULT_MASTER_KEY) {
    throw new ConfigError(
      `Missing setting VAULT_MASTER_KEY: required in production. ${MASTER_KEY_HINT}`,
    );
  }
  if (production && !env.PUBLIC_URL) {
    throw new ConfigError(
      'Missing setting PUBLIC_URL: required in production (the address browsers open Agentloom at, e.g. https://agents.example.com).',
    );
  }
  if (env.PUBLISHED_RUNTIME_URLS.length > 0 && !env.RUNTIME_SHARED_SECRET) {
    throw new ConfigError(
      'Missing setting RUNTIME_SHARED_SECRET: required with PUBLISHED_RUNTIME_URLS (32+ random characters, the same on the gateway and the runtime replicas).',
    );
  }
  const jwtSecret =
    env.JWT_SECRET ??
    loadOrCreateDevSecret(
      dataDir,
      'dev-jwt-secret',
      generateJwtSecret,
      warn,
      'replacing it signs everyone out',
    );
  const masterKey = resolveMasterKey(env.VAULT_MASTER_KEY, dataDir, warn);
  // The web app under `npm start` (vite preview), which forwards the API to this gateway.
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${env.WEB_PORT}`;

  return {
    ...env,
    JWT_SECRET: jwtSecret,
    VAULT_MASTER_KEY: masterKey,
    CORS_ORIGINS: env.CORS_ORIGINS ?? [new URL(publicUrl).origin],
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    DATA_SOURCE_STRICT: env.DATA_SOURCE_STRICT ?? production,
    LOGIN_MAX_FAILURES_PER_ADDRESS:
      env.LOGIN_MAX_FAILURES_PER_ADDRESS ?? 10 * env.LOGIN_MAX_FAILURES,
    MODEL_CACHE_DIR: path.resolve(env.MODEL_CACHE_DIR ?? path.join(dataDir, 'models')),
    SQLITE_PREVIEW_DIR: env.SQLITE_PREVIEW_DIR ? path.resolve(env.SQLITE_PREVIEW_DIR) : undefined,
  };
}
