import { ConfigError } from '@agentloom/server-kit';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadWorkerConfig } from './env';

const MASTER_KEY = '3341hUaYZYzZCm1rSAM5JsRb9cYPbWD6YKEbwP6cZsc=';

describe('loadWorkerConfig', () => {
  it('runs a local checkout with no settings but a data folder', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'worker-config-'));
    const warnings: string[] = [];
    const config = loadWorkerConfig({ DATA_DIR: dataDir }, (message) => warnings.push(message));
    expect(config).toEqual({
      NODE_ENV: 'development',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/agentloom',
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: 'agentloom',
      WORKER_CONCURRENCY: 2,
      WORKER_LOCK_DURATION_MS: 30_000,
      WORKER_STALLED_INTERVAL_MS: 30_000,
      WORKER_HEALTH_FILE: '/tmp/agentloom-worker-health.json',
      WORKER_HEALTH_INTERVAL_MS: 10_000,
      XLSX_MAX_UNCOMPRESSED_BYTES: 200 * 1024 * 1024,
      LOG_LEVEL: 'info',
      // No metrics server unless METRICS_PORT is set; this address once it is.
      METRICS_HOST: '0.0.0.0',
      DATA_DIR: dataDir,
      // Local embedding models' weights, for the hosted indexes builds make.
      MODEL_CACHE_DIR: path.join(dataDir, 'models'),
      // Uploads and zips in DATA_DIR, as the gateway keeps them by default.
      STORAGE_DRIVER: 'local',
      S3_REGION: 'us-east-1',
      VAULT_MASTER_KEY: expect.any(Buffer),
      // Table sources are read through the data-sources guard, as the gateway reads them.
      DATA_SOURCE_STRICT: false,
      DATA_SOURCE_ALLOWED_HOSTS: [],
      DATA_SOURCE_TIMEOUT_MS: 5000,
      SQLITE_PREVIEW_DIR: undefined,
    });
    // The development key is generated once and then shared with the gateway through the folder.
    expect(config.VAULT_MASTER_KEY).toHaveLength(32);
    expect(loadWorkerConfig({ DATA_DIR: dataDir }, () => undefined).VAULT_MASTER_KEY).toEqual(
      config.VAULT_MASTER_KEY,
    );
    expect(warnings).toHaveLength(1);
  });

  it('requires the vault master key in production', () => {
    expect(() =>
      loadWorkerConfig({
        NODE_ENV: 'production',
        DATABASE_URL: 'postgresql://db:5432/agentloom',
        REDIS_URL: 'redis://redis:6379',
      }),
    ).toThrow(/^Missing setting VAULT_MASTER_KEY: required in production/);
  });

  it('reads the concurrency from its text form', () => {
    expect(
      loadWorkerConfig({ WORKER_CONCURRENCY: '8', VAULT_MASTER_KEY: MASTER_KEY })
        .WORKER_CONCURRENCY,
    ).toBe(8);
  });

  it('accepts TLS Redis URLs', () => {
    expect(
      loadWorkerConfig({ REDIS_URL: 'rediss://cache.internal:6380', VAULT_MASTER_KEY: MASTER_KEY })
        .REDIS_URL,
    ).toBe('rediss://cache.internal:6380');
  });

  it('names REDIS_URL when it is not a Redis URL', () => {
    expect(() => loadWorkerConfig({ REDIS_URL: 'http://x' })).toThrow(
      new ConfigError('Invalid setting REDIS_URL: must be a redis:// URL'),
    );
  });

  it.each(['0', '33', '1.5', 'two'])('refuses WORKER_CONCURRENCY=%s', (value) => {
    expect(() => loadWorkerConfig({ WORKER_CONCURRENCY: value })).toThrow(
      new ConfigError('Invalid setting WORKER_CONCURRENCY: must be a whole number from 1 to 32'),
    );
  });

  it('reads the stalled-build settings from their text form', () => {
    const config = loadWorkerConfig({
      WORKER_LOCK_DURATION_MS: '2000',
      WORKER_STALLED_INTERVAL_MS: '1000',
      VAULT_MASTER_KEY: MASTER_KEY,
    });
    expect(config).toMatchObject({
      WORKER_LOCK_DURATION_MS: 2000,
      WORKER_STALLED_INTERVAL_MS: 1000,
    });
  });

  it.each([
    ['WORKER_LOCK_DURATION_MS', '100'],
    ['WORKER_LOCK_DURATION_MS', '2.5s'],
    ['WORKER_STALLED_INTERVAL_MS', '0'],
    ['WORKER_STALLED_INTERVAL_MS', '3600000'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadWorkerConfig({ [name]: value })).toThrow(
      new ConfigError(
        `Invalid setting ${name}: must be a whole number of milliseconds from 500 to 600000`,
      ),
    );
  });

  it('requires DATABASE_URL to be set explicitly in production', () => {
    expect(() =>
      loadWorkerConfig({ NODE_ENV: 'production', REDIS_URL: 'redis://redis:6379' }),
    ).toThrow(new ConfigError('Missing setting DATABASE_URL: required in production.'));
  });

  it('requires REDIS_URL to be set explicitly in production', () => {
    expect(() =>
      loadWorkerConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgresql://db:5432/agentloom' }),
    ).toThrow(new ConfigError('Missing setting REDIS_URL: required in production.'));
  });

  it('starts in production once both connections are given', () => {
    const config = loadWorkerConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://agentloom:secret@db:5432/agentloom',
      REDIS_URL: 'redis://redis:6379',
      VAULT_MASTER_KEY: MASTER_KEY,
      DATA_DIR: '/var/lib/agentloom',
    });
    expect(config.DATABASE_URL).toBe('postgresql://agentloom:secret@db:5432/agentloom');
    expect(config.REDIS_URL).toBe('redis://redis:6379');
  });

  it('takes the production settings from files too (Swarm and Kubernetes secrets)', () => {
    const secrets = mkdtempSync(path.join(tmpdir(), 'worker-secrets-'));
    writeFileSync(
      path.join(secrets, 'database_url'),
      'postgresql://agentloom:s3cret@db:5432/agentloom\n',
    );
    writeFileSync(path.join(secrets, 'vault_master_key'), MASTER_KEY);
    const config = loadWorkerConfig({
      NODE_ENV: 'production',
      DATABASE_URL_FILE: path.join(secrets, 'database_url'),
      REDIS_URL: 'redis://redis:6379',
      VAULT_MASTER_KEY_FILE: path.join(secrets, 'vault_master_key'),
      DATA_DIR: '/var/lib/agentloom',
    });
    expect(config.DATABASE_URL).toBe('postgresql://agentloom:s3cret@db:5432/agentloom');
    expect(config.VAULT_MASTER_KEY).toEqual(Buffer.from(MASTER_KEY, 'base64'));
  });
});
