import {
  apiKeySecretContext,
  pipelineSecretContext,
  Vault,
  VaultDecryptError,
} from '@agentloom/vault';
import type { Pipeline } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { BuildError } from './build-error';
import { BuildsRepository } from './builds.repository';

interface SealedSecret {
  encrypted: string;
  context: string;
}

/**
 * The secrets a build may open: the agent's provider key (typed in the wizard or from the owner's
 * vault), its vector store key and its database connection. Plain values live only as long as
 * the call that needs them; none is logged, stored or put in the project.
 */
@Injectable()
export class BuildSecrets {
  constructor(
    private readonly builds: BuildsRepository,
    private readonly vault: Vault,
  ) {}

  /** Every secret the agent needs must decrypt; the plain values are dropped right away. */
  async checkAll(pipeline: Pipeline): Promise<void> {
    const sealed = [await this.llmKeySealed(pipeline)];
    if (pipeline.vectorDbApiKeyEncrypted) {
      sealed.push({
        encrypted: pipeline.vectorDbApiKeyEncrypted,
        context: pipelineSecretContext(pipeline, 'vector_db_api_key'),
      });
    }
    if (pipeline.sourceUriEncrypted) {
      sealed.push({
        encrypted: pipeline.sourceUriEncrypted,
        context: pipelineSecretContext(pipeline, 'source_uri'),
      });
    }
    for (const secret of sealed) if (secret) this.open(secret);
  }

  /** The provider key in plain text, for the embeddings a build makes with it. */
  async llmKey(pipeline: Pipeline): Promise<string> {
    const sealed = await this.llmKeySealed(pipeline);
    if (!sealed)
      throw new BuildError('The agent has no API key for its provider; add one in the LLM step.');
    return this.open(sealed);
  }

  private async llmKeySealed(pipeline: Pipeline): Promise<SealedSecret | null> {
    if (pipeline.llmApiKeyEncrypted) {
      return {
        encrypted: pipeline.llmApiKeyEncrypted,
        context: pipelineSecretContext(pipeline, 'llm_api_key'),
      };
    }
    if (!pipeline.llmApiKeyId) return null;
    const key = await this.builds.findOwnedApiKey(pipeline.userId, pipeline.llmApiKeyId);
    if (!key)
      throw new BuildError('The saved API key this agent uses was deleted; choose another key.');
    return { encrypted: key.encryptedKey, context: apiKeySecretContext(key.userId, key.id) };
  }

  private open({ encrypted, context }: SealedSecret): string {
    try {
      return this.vault.decrypt(encrypted, context);
    } catch (error) {
      if (error instanceof VaultDecryptError) {
        throw new BuildError(
          'A stored key can no longer be decrypted; enter it again in the wizard.',
        );
      }
      throw error;
    }
  }
}
