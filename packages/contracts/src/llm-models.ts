import { z } from 'zod';
import { ZLlmProvider, type TLlmModel, type TLlmProvider } from './enums';
import { LLM_MODELS } from './llm-providers';
import { zText } from './text';

/**
 * The one model catalogue the preview, the generator and the web app share: each wizard model
 * name (what the wizard shows and stores) → the id the provider's API knows it by, whether the
 * provider has retired it, and its context window in tokens. The wizard's names stay as they are;
 * only this table translates them, so the preview and a built agent always call the same model.
 */
export interface LlmModelEntry {
  /** The model as the provider's API knows it, e.g. `claude-3-5-haiku-20241022`. */
  apiId: string;
  /**
   * The provider no longer serves it (or it is not a chat model): the wizard does not offer it
   * for new builds, but an agent already configured with it still loads.
   */
  retired: boolean;
  contextTokens: number;
}

export const LLM_MODEL_CATALOGUE = {
  'gpt-4o': { apiId: 'gpt-4o', retired: false, contextTokens: 128_000 },
  'gpt-4o-mini': { apiId: 'gpt-4o-mini', retired: false, contextTokens: 128_000 },
  'gpt-4.1': { apiId: 'gpt-4.1', retired: false, contextTokens: 1_047_576 },
  'gpt-4.1-mini': { apiId: 'gpt-4.1-mini', retired: false, contextTokens: 1_047_576 },
  // Anthropic writes versions with hyphens; Haiku 3.5 and Sonnet 3.7 were retired in 2026.
  'claude-3.5-haiku-20241022': {
    apiId: 'claude-3-5-haiku-20241022',
    retired: true,
    contextTokens: 200_000,
  },
  'claude-3.7-sonnet-20250219': {
    apiId: 'claude-3-7-sonnet-20250219',
    retired: true,
    contextTokens: 200_000,
  },
  // Claude Opus 4 was released on 2025-05-22 under the id claude-opus-4-20250514.
  'claude-4-opus-20250522': {
    apiId: 'claude-opus-4-20250514',
    retired: false,
    contextTokens: 200_000,
  },
  // Groq retired its llama3-*-8192 models for the Llama 3.1 / 3.3 ones below.
  'llama3-70b-8192': { apiId: 'llama3-70b-8192', retired: true, contextTokens: 8_192 },
  'llama3-8b-8192': { apiId: 'llama3-8b-8192', retired: true, contextTokens: 8_192 },
  'llama-3.1-8b-instant': {
    apiId: 'llama-3.1-8b-instant',
    retired: false,
    contextTokens: 131_072,
  },
  'llama-3.3-70b-versatile': {
    apiId: 'llama-3.3-70b-versatile',
    retired: false,
    contextTokens: 131_072,
  },
  // Google shut the Gemini 1.5 family down in 2025; the "-tuning" model was never a chat model.
  'gemini-1.5-flash': { apiId: 'gemini-1.5-flash', retired: true, contextTokens: 1_048_576 },
  'gemini-1.5-flash-001': {
    apiId: 'gemini-1.5-flash-001',
    retired: true,
    contextTokens: 1_048_576,
  },
  'gemini-1.5-flash-001-tuning': {
    apiId: 'gemini-1.5-flash-001-tuning',
    retired: true,
    contextTokens: 16_384,
  },
  'gemini-1.5-flash-002': {
    apiId: 'gemini-1.5-flash-002',
    retired: true,
    contextTokens: 1_048_576,
  },
  'gemini-1.5-flash-8b': { apiId: 'gemini-1.5-flash-8b', retired: true, contextTokens: 1_048_576 },
  'gemini-1.5-flash-8b-001': {
    apiId: 'gemini-1.5-flash-8b-001',
    retired: true,
    contextTokens: 1_048_576,
  },
  'gemini-2.0-flash': { apiId: 'gemini-2.0-flash', retired: false, contextTokens: 1_048_576 },
  'gemini-2.0-flash-001': {
    apiId: 'gemini-2.0-flash-001',
    retired: false,
    contextTokens: 1_048_576,
  },
  'gemini-2.0-flash-lite': {
    apiId: 'gemini-2.0-flash-lite',
    retired: false,
    contextTokens: 1_048_576,
  },
  'gemini-2.0-flash-lite-001': {
    apiId: 'gemini-2.0-flash-lite-001',
    retired: false,
    contextTokens: 1_048_576,
  },
  'deepseek-chat': { apiId: 'deepseek-chat', retired: false, contextTokens: 128_000 },
  'deepseek-reasoner': { apiId: 'deepseek-reasoner', retired: false, contextTokens: 128_000 },
  // DeepSeek folded its V2 coder and V2.5 chat models into deepseek-chat: old agents keep
  // working through it, new builds pick deepseek-chat itself.
  'deepseek-coder-v2': { apiId: 'deepseek-chat', retired: true, contextTokens: 128_000 },
  'deepseek-v2.5-chat': { apiId: 'deepseek-chat', retired: true, contextTokens: 128_000 },
} as const satisfies Record<TLlmModel, LlmModelEntry>;

/**
 * A model id as providers write them (`gpt-4o-2024-08-06`, `meta-llama/llama-4-scout-17b`):
 * what the wizard accepts besides the catalogue's names, when the provider lists it for the key.
 * Safe to put into agent.json and the generated project's settings.
 */
/**
 * The model chosen for someone who does not know one from another, per provider, with the one
 * line that says why: current (never retired), quick and inexpensive unless the provider offers
 * only one current model.
 */
export const RECOMMENDED_LLM_MODELS: Record<TLlmProvider, { model: TLlmModel; why: string }> = {
  openai: {
    model: 'gpt-4o-mini',
    why: 'fast and inexpensive, and good at answering from your data',
  },
  claude: {
    model: 'claude-4-opus-20250522',
    why: 'the Claude model on this list Anthropic still offers',
  },
  groq: { model: 'llama-3.3-70b-versatile', why: 'the strongest current model Groq offers here' },
  gemini: { model: 'gemini-2.0-flash', why: 'fast and inexpensive, and current' },
  deepseek: { model: 'deepseek-chat', why: 'DeepSeek’s general model for questions and answers' },
};

export const PROVIDER_MODEL_ID = /^[A-Za-z0-9][\w.:/-]{0,127}$/;

export function isSpecModel(provider: TLlmProvider, model: string): model is TLlmModel {
  return (LLM_MODELS[provider] as readonly string[]).includes(model);
}

/**
 * A model the wizard may store for this provider: one of its catalogue names, or an id the provider
 * itself lists — never another provider's catalogue name (gpt-4o is not a Groq model).
 */
export function isStorableModel(provider: TLlmProvider, model: string): boolean {
  if (isSpecModel(provider, model)) return true;
  if (model in LLM_MODEL_CATALOGUE) return false;
  return PROVIDER_MODEL_ID.test(model);
}

/** The catalogue entry of a catalogue model of this provider, or undefined for any other name. */
export function specModelEntry(provider: TLlmProvider, model: string): LlmModelEntry | undefined {
  return isSpecModel(provider, model) ? LLM_MODEL_CATALOGUE[model] : undefined;
}

/**
 * The id to send to the provider for a model the wizard stored: the catalogue's for its own names,
 * the name itself for a model the provider listed (it is already the provider's id).
 */
export function modelApiId(provider: TLlmProvider, model: string): string {
  const entry = specModelEntry(provider, model);
  if (entry) return entry.apiId;
  if (!isStorableModel(provider, model)) throw new Error(`${model} is not a ${provider} model.`);
  return model;
}

/** The catalogue models of a provider that new builds may still choose. */
export function pickableSpecModels(provider: TLlmProvider): TLlmModel[] {
  return (LLM_MODELS[provider] as readonly TLlmModel[]).filter(
    (model) => !LLM_MODEL_CATALOGUE[model].retired,
  );
}

/** Providers list ids; Gemini's are "models/gemini-2.0-flash". The wizard stores the bare id. */
export function bareModelId(id: string): string {
  return id.startsWith('models/') ? id.slice('models/'.length) : id;
}

/** POST /llm/keys/check: a typed key or a vault key, tried against the provider's model list. */
export const ZKeyCheckRequest = z
  .object({
    provider: ZLlmProvider,
    api_key: zText().trim().max(512).optional(),
    api_key_id: z.uuid({ error: 'Choose a saved key.' }).optional(),
  })
  .refine((value) => Boolean(value.api_key) !== Boolean(value.api_key_id), {
    error: 'Enter an API key or choose a saved key.',
  });
export type TKeyCheckRequest = z.infer<typeof ZKeyCheckRequest>;

export const ZKeyCheckResult = z.object({
  /** The provider accepted the key. */
  ok: z.boolean(),
  /** The provider refused it (not merely unreachable): the wizard does not save such a key. */
  rejected: z.boolean(),
  /** Chat models the provider serves for this key, by API id, sorted; empty when not ok. */
  models: z.array(z.string()),
  /** One sentence for the person: "Connected — 23 models available" or why not. */
  detail: z.string(),
});
export type TKeyCheckResult = z.infer<typeof ZKeyCheckResult>;
