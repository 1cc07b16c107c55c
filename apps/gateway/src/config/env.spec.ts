import { randomBytes } from 'node:crypto';
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

  it('answers in the gateway by default; runtime replicas need the shared secret', () => {
    const dataDir = dir();
    expect(loadConfig({ DATA_DIR: dataDir }, quiet)).toMatchObject({
      PUBLISHED_RUNTIME_URLS: [],
      RUNTIME_PORT: 8100,
    });
    const urls = 'http://runtime-a:8100, http://runtime-b:8100';
    expect(() => loadConfig({ DATA_DIR: dataDir, PUBLISHED_RUNTIME_URLS: urls }, quiet)).toThrow(
      /^Missing setting RUNTIME_SHARED_SECRET: required with PUBLISHED_RUNTIME_URLS/,
    );
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, PUBLISHED_RUNTIME_URLS: 'runtime-a:8100' }, quiet),
    ).toThrow(/^Invalid setting PUBLISHED_RUNTIME_URLS/);
    expect(() => loadConfig({ DATA_DIR: dataDir, RUNTIME_SHARED_SECRET: 'short' }, quiet)).toThrow(
      /^Invalid setting RUNTIME_SHARED_SECRET: must be at least 32 characters/,
    );
    const secret = randomBytes(32).toString('base64url');
    const config = loadConfig(
      { DATA_DIR: dataDir, PUBLISHED_RUNTIME_URLS: urls, RUNTIME_SHARED_SECRET: secret },
      quiet,
    );
    expect(config.PUBLISHED_RUNTIME_URLS).toEqual([
      'http://runtime-a:8100',
      'http://runtime-b:8100',
    ]);
  });

  it('requires explicit secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir() }, quiet)).toThrow(
      /^Missing setting JWT_SECRET/,
    );
    expect(() =>
      loadConfig(
        {
          NODE_ENV: 'production',
          DATA_DIR: dir(),
          JWT_SECRET: randomBytes(48).toString('base64url'),
        },
        quiet,
      ),
    ).toThrow(/^Missing setting VAULT_MASTER_KEY/);
  });

  const production = () => ({
    NODE_ENV: 'production',
    DATA_DIR: dir(),
    JWT_SECRET: randomBytes(48).toString('base64url'),
    VAULT_MASTER_KEY: 'CGcQ+iOwTFLXB49YaYNafpMTS1/vP3oxoxTz86V9Kv8=',
  });

  it('requires PUBLIC_URL in production, and defaults it to the web app of npm start elsewhere', () => {
    expect(() => loadConfig(production(), quiet)).toThrow(/^Missing setting PUBLIC_URL/);
    const dev = loadConfig({ DATA_DIR: dir(), PORT: '8123' }, quiet);
    expect(dev.PUBLIC_URL).toBe('http://localhost:5173');
    expect(dev.CORS_ORIGINS).toEqual(['http://localhost:5173']);
    const moved = loadConfig({ DATA_DIR: dir(), WEB_PORT: '5174' }, quiet);
    expect(moved.PUBLIC_URL).toBe('http://localhost:5174');
    expect(() => loadConfig({ DATA_DIR: dir(), WEB_PORT: 'web' }, quiet)).toThrow(
      /^Invalid setting WEB_PORT/,
    );
  });

  it("allows CORS for PUBLIC_URL's origin unless a list is configured", () => {
    const live = { ...production(), PUBLIC_URL: 'https://agents.example.com/' };
    expect(loadConfig(live, quiet).CORS_ORIGINS).toEqual(['https://agents.example.com']);
    const listed = { ...live, CORS_ORIGINS: 'https://a.example.com, https://b.example.com' };
    expect(loadConfig(listed, quiet).CORS_ORIGINS).toEqual([
      'https://a.example.com',
      'https://b.example.com',
    ]);
  });

  it('refuses private data sources by default in production only, unless told otherwise', () => {
    const live = { ...production(), PUBLIC_URL: 'https://agents.example.com' };
    expect(loadConfig(live, quiet).DATA_SOURCE_STRICT).toBe(true);
    expect(loadConfig({ ...live, DATA_SOURCE_STRICT: 'false' }, quiet).DATA_SOURCE_STRICT).toBe(
      false,
    );
    expect(loadConfig({ DATA_DIR: dir() }, quiet).DATA_SOURCE_STRICT).toBe(false);
    expect(
      loadConfig({ ...live, DATA_SOURCE_ALLOWED_HOSTS: 'db.internal, 10.0.0.0/8' }, quiet)
        .DATA_SOURCE_ALLOWED_HOSTS,
    ).toEqual(['db.internal', '10.0.0.0/8']);
  });

  // Issue 27, finding 9: 32 spaces passed the length rule and became the replicas' secret.
  it.each([
    ['RUNTIME_SHARED_SECRET', ' '.repeat(32)],
    ['RUNTIME_SHARED_SECRET', 'a'.repeat(64)],
    ['RUNTIME_SHARED_SECRET', 'abababababababababababababababab'],
    ['JWT_SECRET', 'x'.repeat(48)],
  ])('refuses a %s without real entropy (%j)', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dir(), [name]: value }, quiet)).toThrow(
      new RegExp(`^Invalid setting ${name}: is too predictable; use 32\\+ random characters`),
    );
  });

  // Issue 42, finding 8: repeated words and sequences passed the character-frequency estimate.
  it.each([
    ['JWT_SECRET', 'passwordpasswordpasswordpasswordpassword'],
    ['RUNTIME_SHARED_SECRET', 'passwordpasswordpasswordpasswordpassword'],
    ['JWT_SECRET', '0123456789abcdef'.repeat(3)],
    ['RUNTIME_SHARED_SECRET', '0123456789abcdef'.repeat(3)],
    ['JWT_SECRET', 'P@ssw0rd2024!'.repeat(3)],
    ['RUNTIME_SHARED_SECRET', 'abcdefghijklmnopqrstuvwxyz0123456789'],
    ['JWT_SECRET', 'changeme-changeme-changeme-changeme'],
  ])('refuses a %s made of a repeated word or a sequence (%j)', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dir(), [name]: value }, quiet)).toThrow(
      new RegExp(`^Invalid setting ${name}: is too predictable; use 32\\+ random characters`),
    );
  });

  it.each([
    Buffer.alloc(32, 1),
    Buffer.from('password'.repeat(4)),
    Buffer.from('0123456789abcdef'.repeat(2)),
    Buffer.from(Array.from({ length: 32 }, (_, index) => index)),
  ])('refuses a VAULT_MASTER_KEY whose bytes are a pattern (%#)', (key) => {
    expect(() =>
      loadConfig({ DATA_DIR: dir(), VAULT_MASTER_KEY: key.toString('base64') }, quiet),
    ).toThrow(/^VAULT_MASTER_KEY is too predictable: it must be 32 random bytes/);
  });

  it('accepts every random secret of the lengths the guides generate', () => {
    const forms = [
      () => randomBytes(16).toString('hex'),
      () => randomBytes(24).toString('base64'),
      () => randomBytes(32).toString('hex'),
      () => randomBytes(48).toString('base64url'),
    ];
    for (let round = 0; round < 50; round += 1) {
      for (const make of forms) {
        const secret = make();
        const key = randomBytes(32).toString('base64');
        const config = loadConfig(
          {
            DATA_DIR: dir(),
            JWT_SECRET: secret,
            RUNTIME_SHARED_SECRET: secret,
            VAULT_MASTER_KEY: key,
          },
          quiet,
        );
        expect(config.JWT_SECRET).toBe(secret);
      }
    }
  });

  it('accepts random secrets of 32 hex or base64 characters', () => {
    for (const secret of [randomBytes(16).toString('hex'), randomBytes(24).toString('base64')]) {
      expect(loadConfig({ DATA_DIR: dir(), RUNTIME_SHARED_SECRET: secret }, quiet)).toMatchObject({
        RUNTIME_SHARED_SECRET: secret,
      });
    }
  });

  // Issue 27, finding 1: npm start's web server is one hop away, on this machine.
  it('trusts one proxy hop from loopback by default, and refuses an unreadable proxy list', () => {
    expect(loadConfig({ DATA_DIR: dir() }, quiet)).toMatchObject({
      TRUST_PROXY_HOPS: 1,
      TRUSTED_PROXIES: ['loopback'],
    });
    expect(() => loadConfig({ DATA_DIR: dir(), TRUSTED_PROXIES: 'web-server' }, quiet)).toThrow(
      /^Invalid setting TRUSTED_PROXIES: "web-server" is not an IP address, a CIDR range/,
    );
  });
});
