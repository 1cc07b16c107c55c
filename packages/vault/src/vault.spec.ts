import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateMasterKey, loadOrCreateDevSecret, parseMasterKey } from './dev-secrets';
import { Vault, VaultDecryptError } from './vault';

describe('Vault', () => {
  const vault = new Vault(randomBytes(32));

  it('round-trips a secret and never contains the plain text', () => {
    const secret = 'sk-test-1234567890abcdefghijklmnop';
    const envelope = vault.encrypt(secret, 'apikey:user-a');
    expect(envelope).not.toContain(secret);
    expect(envelope.startsWith('v1.')).toBe(true);
    expect(vault.decrypt(envelope, 'apikey:user-a')).toBe(secret);
  });

  it('uses a fresh IV for every encryption', () => {
    expect(vault.encrypt('same', 'ctx')).not.toBe(vault.encrypt('same', 'ctx'));
  });

  it('refuses tampered ciphertext', () => {
    const [v, iv, tag, ct] = vault.encrypt('sk-secret-value-123456', 'ctx').split('.');
    const flipped = Buffer.from(ct!, 'base64url');
    flipped[0] = flipped[0]! ^ 0xff;
    expect(() =>
      vault.decrypt([v, iv, tag, flipped.toString('base64url')].join('.'), 'ctx'),
    ).toThrow(VaultDecryptError);
    expect(() => vault.decrypt('not-an-envelope', 'ctx')).toThrow(VaultDecryptError);
  });

  it('refuses a ciphertext moved to another context (another owner)', () => {
    const envelope = vault.encrypt('sk-secret-value-123456', 'apikey:user-a');
    expect(() => vault.decrypt(envelope, 'apikey:user-b')).toThrow(VaultDecryptError);
  });

  it('refuses a different master key', () => {
    const envelope = vault.encrypt('sk-secret-value-123456', 'ctx');
    expect(() => new Vault(randomBytes(32)).decrypt(envelope, 'ctx')).toThrow(VaultDecryptError);
  });
});

describe('master key handling', () => {
  it('accepts 32 base64 bytes and names the variable otherwise', () => {
    expect(parseMasterKey(generateMasterKey())).toHaveLength(32);
    expect(() => parseMasterKey('c2hvcnQ=')).toThrow(/VAULT_MASTER_KEY must be 32 random bytes/);
  });

  it('creates a development secret once, private to the owner, and reuses it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vault-'));
    const warnings: string[] = [];
    const first = loadOrCreateDevSecret(dir, 'k', generateMasterKey, (m) => warnings.push(m));
    const second = loadOrCreateDevSecret(dir, 'k', generateMasterKey, (m) => warnings.push(m));
    expect(second).toBe(first);
    expect(warnings).toHaveLength(1);
    expect(readFileSync(path.join(dir, 'k'), 'utf8').trim()).toBe(first);
    expect(statSync(path.join(dir, 'k')).mode & 0o777).toBe(0o600);
  });
});
