import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from './env';

describe('gateway configuration', () => {
  const dir = () => mkdtempSync(path.join(tmpdir(), 'gw-config-'));
  const quiet = () => undefined;

  it('has working defaults for development and generates the secrets once', () => {
    const dataDir = dir();
    const config = loadConfig({ DATA_DIR: dataDir }, quiet);
    expect(config).toMatchObject({
      PORT: 8000,
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/agentloom',
      REDIS_URL: 'redis://127.0.0.1:6379',
      CORS_ORIGINS: ['http://localhost:5173'],
      RESET_TOKEN_TTL_MINUTES: 30,
    });
    expect(config.VAULT_MASTER_KEY).toHaveLength(32);
    expect(readFileSync(path.join(dataDir, 'vault-master.key'), 'utf8').trim()).toBe(
      config.VAULT_MASTER_KEY.toString('base64'),
    );
    expect(loadConfig({ DATA_DIR: dataDir }, quiet).JWT_SECRET).toBe(config.JWT_SECRET);
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid setting PORT: /],
    [
      { DATABASE_URL: 'mysql://x@y/z' },
      /^Invalid setting DATABASE_URL: must be a postgresql:\/\/ URL$/,
    ],
    [{ REDIS_URL: 'http://localhost' }, /^Invalid setting REDIS_URL: must be a redis:\/\/ URL$/],
    [{ JWT_SECRET: 'short' }, /^Invalid setting JWT_SECRET: must be at least 32 characters$/],
    [{ VAULT_MASTER_KEY: 'c2hvcnQ=' }, /VAULT_MASTER_KEY must be 32 random bytes/],
    [{ SMTP_SECURE: 'maybe' }, /^Invalid setting SMTP_SECURE: /],
  ])('names the bad setting (%o)', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dir(), ...env }, quiet)).toThrow(message);
  });

  it('requires explicit secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir() }, quiet)).toThrow(
      /^Missing setting JWT_SECRET/,
    );
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dir(), JWT_SECRET: 'x'.repeat(48) }, quiet),
    ).toThrow(/^Missing setting VAULT_MASTER_KEY/);
  });
});
