import { randomBytes } from 'node:crypto';
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
