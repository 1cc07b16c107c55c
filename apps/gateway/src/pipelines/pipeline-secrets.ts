import { PipelineSecretField, pipelineSecretContext, Vault } from '@agentloom/vault';
import { Injectable } from '@nestjs/common';

export type { PipelineSecretField };

export interface PipelineOwner {
  id: string;
  userId: string;
}

/**
 * Encrypts a pipeline's secrets with the owner, the pipeline and the field as authenticated
 * data: a ciphertext copied to another column, pipeline or user does not decrypt.
 */
@Injectable()
export class PipelineSecrets {
  constructor(private readonly vault: Vault) {}

  encrypt(owner: PipelineOwner, field: PipelineSecretField, plain: string): string {
    return this.vault.encrypt(plain, pipelineSecretContext(owner, field));
  }

  decrypt(owner: PipelineOwner, field: PipelineSecretField, envelope: string): string {
    return this.vault.decrypt(envelope, pipelineSecretContext(owner, field));
  }
}
