import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './environment';
import { isPredictableSecret } from './secret-strength';

export const MASTER_KEY_HINT =
  "Generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"";

export class MasterKeyError extends Error {
  override name = 'MasterKeyError';
}

/**
 * Decodes VAULT_MASTER_KEY (32 bytes as base64), refusing bytes that are not random: the same
 * byte 32 times, a word or a sequence repeated (the check of the other secrets, on the bytes).
 */
export function parseMasterKey(value: string): Buffer {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== 32) {
    throw new MasterKeyError(
      `VAULT_MASTER_KEY must be 32 random bytes encoded as base64 (got ${key.length} bytes). ${MASTER_KEY_HINT}`,
    );
  }
  if (isPredictableSecret(key.toString('latin1'))) {
    throw new MasterKeyError(
      `VAULT_MASTER_KEY is too predictable: it must be 32 random bytes, not a repeated byte, word or sequence. ${MASTER_KEY_HINT}`,
    );
  }
  return key;
}

/**
 * Reads a development secret from `<dataDir>/<fileName>`, creating it once with `generate()`.
 * Only for development and tests: production must set the secret explicitly, because a secret
 * that silently changes makes every stored ciphertext (or issued token) unusable.
 */
export function loadOrCreateDevSecret(
  dataDir: string,
  fileName: string,
  generate: () => string,
  warn: (message: string) => void,
  consequence = 'losing it makes what it protects unusable',
): string {
  const file = path.join(dataDir, fileName);
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = generate();
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process (gateway and worker start together) wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return readFileSync(file, 'utf8').trim();
    throw error;
  }
  warn(
    `Generated a development secret in ${file}. Keep this file: ${consequence}. Set the variable explicitly in production.`,
  );
  return secret;
}

export const generateMasterKey = (): string => randomBytes(32).toString('base64');
export const generateJwtSecret = (): string => randomBytes(48).toString('base64url');

/**
 * The vault master key the gateway and the builder-worker both run with: VAULT_MASTER_KEY when
 * set, otherwise (development only — callers refuse production first) the key generated once
 * in the shared data folder. A malformed key stops the process with a ConfigError.
 */
export function resolveMasterKey(
  value: string | undefined,
  dataDir: string,
  warn: (message: string) => void,
): Buffer {
  const text =
    value ??
    loadOrCreateDevSecret(
      dataDir,
      'vault-master.key',
      generateMasterKey,
      warn,
      'losing it makes every stored API key and database password unreadable',
    );
  try {
    return parseMasterKey(text);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}
