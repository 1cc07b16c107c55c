import {
  isUuid,
  maskApiKey,
  TApiKey,
  TApiKeySecret,
  TApiKeyUsage,
  TCreateApiKeyRequest,
} from '@agentloom/contracts';
import { ApiKey } from '@agentloom/db';
import { apiKeySecretContext as context, Vault, VaultDecryptError } from '@agentloom/vault';
import { Injectable, NotFoundException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiKeyListCache } from './api-key-list.cache';
import { ApiKeysRepository } from './api-keys.repository';

export const API_KEY_NOT_FOUND = 'API key not found.';

/**
 * The key vault. Keys are encrypted with the owner and key id as authenticated data, so a
 * ciphertext copied to another row or another user does not decrypt.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly vault: Vault,
    private readonly listCache: ApiKeyListCache,
  ) {}

  async list(userId: string): Promise<TApiKey[]> {
    const cached = await this.listCache.read(userId);
    if (cached.value) return cached.value;
    const view = (await this.keys.listByOwner(userId)).map((row) => this.toView(row));
    await this.listCache.write(userId, cached.version, view);
    return view;
  }

  async create(userId: string, request: TCreateApiKeyRequest): Promise<TApiKey> {
    const id = randomUUID();
    const row = await this.keys.create({
      id,
      userId,
      provider: request.provider,
      name: request.name ?? null,
      encryptedKey: this.vault.encrypt(request.key, context(userId, id)),
    });
    await this.listCache.invalidate(userId);
    return this.toView(row);
  }

  async reveal(userId: string, id: string): Promise<TApiKeySecret> {
    return { key: this.decrypt(await this.findOwned(userId, id)) };
  }

  /** A key of the caller's vault, masked, for another feature to refer to (404 when not theirs). */
  async findOwnedKey(userId: string, id: string): Promise<TApiKey> {
    return this.toView(await this.findOwned(userId, id));
  }

  async usage(userId: string, id: string): Promise<TApiKeyUsage> {
    await this.findOwned(userId, id);
    const agents = await this.keys.usedBy(id, userId);
    return {
      agents: agents.map((agent) => ({
        id: agent.id,
        name: agent.name,
        status: agent.status,
        published: agent.publication !== null,
      })),
    };
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.keys.deleteOwned(id, userId))) {
      throw new NotFoundException(API_KEY_NOT_FOUND);
    }
    await this.listCache.invalidate(userId);
  }

  /** Someone else's key and a key that does not exist get the same 404. */
  private async findOwned(userId: string, id: string): Promise<ApiKey> {
    const row = isUuid(id) ? await this.keys.findOwned(id, userId) : null;
    if (!row) throw new NotFoundException(API_KEY_NOT_FOUND);
    return row;
  }

  private decrypt(row: ApiKey): string {
    return this.vault.decrypt(row.encryptedKey, context(row.userId, row.id));
  }

  /** A key that no longer decrypts still lists (masked as `********`) so it can be deleted. */
  private toView(row: ApiKey): TApiKey {
    let plain: string | null = null;
    try {
      plain = this.decrypt(row);
    } catch (error) {
      if (!(error instanceof VaultDecryptError)) throw error;
    }
    return {
      id: row.id,
      provider: row.provider,
      name: row.name,
      key: maskApiKey(plain),
      created_at: row.createdAt.toISOString(),
    };
  }
}
