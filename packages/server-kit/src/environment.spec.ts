import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { generateMasterKey, loadOrCreateDevSecret, parseMasterKey } from './dev-secrets';
import { ConfigError, findRepoRoot, parseEnvironment } from './environment';

describe('parseEnvironment', () => {
  const schema = z.object({ PORT: z.coerce.number().int().default(8000) });

  it('applies defaults and names the first bad setting', () => {
    expect(parseEnvironment(schema, {})).toEqual({ PORT: 8000 });
    expect(() => parseEnvironment(schema, { PORT: 'x' })).toThrow(ConfigError);
    expect(() => parseEnvironment(schema, { PORT: 'x' })).toThrow(/^Invalid setting PORT: /);
  });
});

describe('findRepoRoot', () => {
  it('finds the checkout from a nested folder and returns null outside one', () => {
    expect(findRepoRoot(__dirname)).toBe(path.resolve(__dirname, '../../..'));
    expect(findRepoRoot(mkdtempSync(path.join(tmpdir(), 'no-repo-')))).toBeNull();
  });
});

describe('development secrets', () => {
  it('accepts a 32-byte base64 master key and names the variable otherwise', () => {
    expect(parseMasterKey(generateMasterKey())).toHaveLength(32);
    expect(() => parseMasterKey('c2hvcnQ=')).toThrow(/VAULT_MASTER_KEY must be 32 random bytes/);
  });

  it('creates a secret once, readable by its owner only, and reuses it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'secrets-'));
    const warnings: string[] = [];
    const first = loadOrCreateDevSecret(dir, 'k', generateMasterKey, (m) => warnings.push(m));
    const second = loadOrCreateDevSecret(dir, 'k', generateMasterKey, (m) => warnings.push(m));
    expect(second).toBe(first);
    expect(warnings).toHaveLength(1);
    expect(readFileSync(path.join(dir, 'k'), 'utf8').trim()).toBe(first);
    expect(statSync(path.join(dir, 'k')).mode & 0o777).toBe(0o600);
  });
});
