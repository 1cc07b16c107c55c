import {
  isStorableModel,
  llmKeyShapeProblem,
  LLM_PROVIDER_LABELS,
  maskApiKey,
  pickableSpecModels,
  specModelEntry,
  type TLlmProvider,
  type TPipelineConfig,
  type TStepAnswer,
  type ZLlmCredentialsSaved,
  type ZLlmKeySaved,
  type ZLlmModelSaved,
  type ZLlmProviderSaved,
} from '@agentloom/contracts';
import type { Pipeline } from '@agentloom/db';
import { BadRequestException, Injectable, UnprocessableEntityException } from '@nestjs/common';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { PipelineSecrets } from '../pipelines/pipeline-secrets';
import { PipelineChanges } from '../pipelines/pipelines.repository';
import { WizardCall, WizardSessions } from './wizard-sessions';

/** A typed LLM key, or the id of a key in the caller's vault. */
export interface LlmKeyChoice {
  api_key?: string;
  api_key_id?: string;
}

/** A key as a step shows it back: masked, and named by its vault id when it comes from the vault. */
interface ShownKey {
  api_key: string;
  api_key_id?: string;
}

/**
 * The LLM steps of both wizards (docs/product.md#the-wizard-language-model): the provider, then its
 * key and model. A new provider clears the model and key chosen for the previous one; a model of
 * another provider is refused.
 */
@Injectable()
export class LlmStepService {
  constructor(
    private readonly sessions: WizardSessions,
    private readonly secrets: PipelineSecrets,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async setProvider(
    call: WizardCall,
    provider: TLlmProvider,
  ): Promise<TStepAnswer<typeof ZLlmProviderSaved>> {
    const session = await this.sessions.open(call);
    const { config } = session;
    const changes: PipelineChanges = {};
    if (config.llm?.provider !== provider) {
      config.llm = { provider };
      changes.llmApiKeyEncrypted = null;
      changes.llmApiKeyId = null;
    }
    await this.sessions.save(session, changes);
    return this.sessions.answer(session.pipeline, `${LLM_PROVIDER_LABELS[provider]} selected.`, {
      provider,
    });
  }

  /** RAG: key and model in one call. */
  async setLlmCredentials(
    call: WizardCall,
    key: LlmKeyChoice,
    model: string,
  ): Promise<TStepAnswer<typeof ZLlmCredentialsSaved>> {
    const session = await this.sessions.open(call);
    const { pipeline, config } = session;
    const provider = requireProvider(config);
    requireModelOf(provider, model, config.llm?.model);
    const keyChanges = await this.keyChanges(call.userId, pipeline, provider, key);
    config.llm = { provider, model };
    await this.sessions.save(session, keyChanges.changes);
    return this.sessions.answer(pipeline, 'LLM settings saved.', {
      provider,
      model_name: model,
      ...keyChanges.shown,
    });
  }

  /** SQL: the key alone (the wizard then saves the model). */
  async setLlmKey(call: WizardCall, key: LlmKeyChoice): Promise<TStepAnswer<typeof ZLlmKeySaved>> {
    const session = await this.sessions.open(call);
    const provider = requireProvider(session.config);
    const keyChanges = await this.keyChanges(call.userId, session.pipeline, provider, key);
    await this.sessions.save(session, keyChanges.changes);
    return this.sessions.answer(session.pipeline, 'API key saved.', {
      provider,
      ...keyChanges.shown,
    });
  }

  async setModel(call: WizardCall, model: string): Promise<TStepAnswer<typeof ZLlmModelSaved>> {
    const session = await this.sessions.open(call);
    const { config } = session;
    const provider = requireProvider(config);
    requireModelOf(provider, model, config.llm?.model);
    config.llm = { provider, model };
    await this.sessions.save(session);
    return this.sessions.answer(session.pipeline, 'Model saved.', { provider, model });
  }

  /** The columns to write for a typed key or a vault key, and how to show it back (masked). */
  private async keyChanges(
    userId: string,
    pipeline: Pipeline,
    provider: TLlmProvider,
    key: LlmKeyChoice,
  ): Promise<{ changes: PipelineChanges; shown: ShownKey }> {
    if (key.api_key_id) {
      const stored = await this.apiKeys.findOwnedKey(userId, key.api_key_id);
      if (stored.provider !== provider) {
        throw new UnprocessableEntityException(
          `That saved key is for ${LLM_PROVIDER_LABELS[stored.provider]}, not ${LLM_PROVIDER_LABELS[provider]}.`,
        );
      }
      return {
        changes: { llmApiKeyId: stored.id, llmApiKeyEncrypted: null },
        shown: { api_key: stored.key, api_key_id: stored.id },
      };
    }
    const apiKey = key.api_key ?? '';
    const problem = llmKeyShapeProblem(apiKey);
    if (problem) throw new BadRequestException(problem);
    return {
      changes: {
        llmApiKeyEncrypted: this.secrets.encrypt(pipeline, 'llm_api_key', apiKey),
        llmApiKeyId: null,
      },
      shown: { api_key: maskApiKey(apiKey) },
    };
  }
}

function requireProvider(config: TPipelineConfig): TLlmProvider {
  const provider = config.llm?.provider;
  if (!provider) throw new UnprocessableEntityException('Choose an LLM provider first.');
  return provider;
}

/**
 * A catalogue model or one the provider lists; a retired catalogue model only where the agent
 * already uses it (it still loads and is saved again as it is), never as a new choice.
 */
function requireModelOf(provider: TLlmProvider, model: string, onRecord?: string): void {
  const label = LLM_PROVIDER_LABELS[provider];
  const choices = `Choose one of: ${pickableSpecModels(provider).join(', ')}.`;
  if (!isStorableModel(provider, model)) {
    throw new UnprocessableEntityException(`${model} is not a ${label} model. ${choices}`);
  }
  if (specModelEntry(provider, model)?.retired && model !== onRecord) {
    throw new UnprocessableEntityException(`${label} no longer offers ${model}. ${choices}`);
  }
}
