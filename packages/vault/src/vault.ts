import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = 'v1';

export class VaultDecryptError extends Error {
  constructor() {
    super('The secret could not be decrypted: it was tampered with or the master key changed.');
    this.name = 'VaultDecryptError';
  }
}

/**
 * Encrypts secrets with AES-256-GCM. Each secret is bound to a context string (for example
 * `apikey:<ownerId>`) used as additional authenticated data, so a ciphertext copied onto
 * another user's row does not decrypt.
 *
 * Envelope: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */
export class Vault {
  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('The vault master key must be 32 bytes.');
  }

  encrypt(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.masterKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  decrypt(envelope: string, context: string): string {
    const [version, iv, tag, ciphertext, ...rest] = envelope.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) {
      throw new VaultDecryptError();
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, this.masterKey, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new VaultDecryptError();
    }
  }
}

/** The secrets a pipeline holds, each in its own encrypted column. */
export type PipelineSecretField = 'source_uri' | 'llm_api_key' | 'vector_db_api_key';

/**
 * The context a pipeline secret is bound to: owner, pipeline and field. The gateway encrypts
 * with it and the builder-worker decrypts with it, so both must build it the same way.
 */
export function pipelineSecretContext(
  owner: { id: string; userId: string },
  field: PipelineSecretField,
): string {
  return `pipeline:${owner.userId}:${owner.id}:${field}`;
}

/**
 * The context a knowledge source's connection URI is bound to: owner, pipeline and source, so an
 * envelope copied to another source or agent does not open.
 */
export function knowledgeSourceSecretContext(
  owner: { id: string; userId: string },
  sourceId: string,
): string {
  return `pipeline:${owner.userId}:${owner.id}:knowledge-source:${sourceId}:uri`;
}

/** The context a key of the user's API-key vault is bound to: its owner and its id. */
export function apiKeySecretContext(userId: string, keyId: string): string {
  return `apikey:${userId}:${keyId}`;
}
