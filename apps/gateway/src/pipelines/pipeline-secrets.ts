import { Vault } from '@agentloom/vault';
import { Injectable } from '@nestjs/common';

/** The secrets a pipeline holds, each in its own encrypted column. */
export type PipelineSecretField = 'source_uri' | 'llm_api_key' | 'vector_db_api_key';

/**
 * Encrypts a pipeline's secrets with the owner, the pipeline and the field as authenticated
 * data: a ciphertext copied to another column, pipeline or user does not decrypt.
 */
@Injectable()
export class PipelineSecrets {
  constructor(private readonly vault: Vault) {}

  encrypt(owner: PipelineOwner, field: PipelineSecretField, plain: string): string {
    return this.vault.encrypt(plain, context(owner, field));
  }

  decrypt(owner: PipelineOwner, field: PipelineSecretField, envelope: string): string {
    return this.vault.decrypt(envelope, context(owner, field));
  }
}

export interface PipelineOwner {
  id: string;
  userId: string;
}

const context = (owner: PipelineOwner, field: PipelineSecretField) =>
  `pipeline:${owner.userId}:${owner.id}:${field}`;
