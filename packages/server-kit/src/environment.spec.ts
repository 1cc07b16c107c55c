import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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

  it('reads a setting from the file <SETTING>_FILE names, as Swarm and Kubernetes mount secrets', () => {
    const secrets = mkdtempSync(path.join(tmpdir(), 'secrets-'));
    writeFileSync(path.join(secrets, 'port'), '9100\n');
    writeFileSync(path.join(secrets, 'bad'), 'x');
    const file = (name: string) => path.join(secrets, name);
    expect(parseEnvironment(schema, { PORT_FILE: file('port') })).toEqual({ PORT: 9100 });
    // Validated like any other value, and named by the setting it fills.
    expect(() => parseEnvironment(schema, { PORT_FILE: file('bad') })).toThrow(
      /^Invalid setting PORT: /,
    );
    expect(() => parseEnvironment(schema, { PORT_FILE: file('missing') })).toThrow(
      `Invalid setting PORT_FILE: cannot read ${file('missing')} (ENOENT)`,
    );
    expect(() => parseEnvironment(schema, { PORT: '1', PORT_FILE: file('port') })).toThrow(
      'Set PORT or PORT_FILE, not both.',
    );
  });

  it('leaves a setting whose own name ends in _FILE alone', () => {
    const own = z.object({ HEALTH: z.string().optional(), HEALTH_FILE: z.string().optional() });
    expect(parseEnvironment(own, { HEALTH_FILE: '/tmp/health.json' })).toEqual({
      HEALTH_FILE: '/tmp/health.json',
    });
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
