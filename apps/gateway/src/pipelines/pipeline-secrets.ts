import { PipelineSecretField, pipelineSecretContext, Vault } from '@agentloom/vault';
import { Injectable } from '@nestjs/common';

export type { PipelineSecretField };

export interface PipelineOwner {
  id: string;
  userId: string;
}

/** What a database source form sends back and what the pipeline holds of its connection. */
interface SavedConnection {
  owner: PipelineOwner & { sourceUriEncrypted: string | null };
  saved: { type: string; uri: string } | undefined | null;
  type: string;
  uri: string;
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

  /**
   * The wizard shows the saved connection URI with its password masked: that text, sent back
   * unchanged, means the saved connection (its real password), so changing only the table or
   * listing the tables needs no password typed again. Any other URI is taken as it is.
   */
  connectionUri({ owner, saved, type, uri }: SavedConnection): string {
    return saved && saved.type === type && saved.uri === uri && owner.sourceUriEncrypted
      ? this.decrypt(owner, 'source_uri', owner.sourceUriEncrypted)
      : uri;
  }
}
