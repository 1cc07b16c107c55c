import { createAnthropic } from '@ai-sdk/anthropic';
import { createDeepSeek } from '@ai-sdk/deepseek';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createGroq } from '@ai-sdk/groq';
import { createOpenAI } from '@ai-sdk/openai';
import { modelApiId, type TLlmProvider } from '@agentloom/contracts';
import type { LanguageModel } from 'ai';
import { observedLanguageModel } from './provider-calls';

/**
 * Base URLs that replace each provider's public endpoint (a proxy, a self-hosted gateway, the
 * tests' local server). Each is what the provider's AI SDK package appends its paths to, e.g.
 * `http://127.0.0.1:1234/v1` for OpenAI-compatible servers.
 */
export type ProviderBaseUrls = Partial<Record<TLlmProvider, string>>;

export interface LanguageModelOptions {
  provider: TLlmProvider;
  /**
   * As the wizard stored it: a catalogue name (translated by the model catalogue) or a provider id.
   */
  model: string;
  apiKey: string;
  baseUrls?: ProviderBaseUrls;
}

/** The agent's chat model, through the AI SDK package of its provider; its calls are observed. */
export function languageModel(o: LanguageModelOptions): LanguageModel {
  return observedLanguageModel(providerModel(o), o.provider);
}

function providerModel(o: LanguageModelOptions) {
  // The AI SDK falls back to the server's environment (OPENAI_API_KEY, …) only when no key is
  // passed; an empty key is refused here so a user's agent can never run on the operator's key.
  if (!o.apiKey.trim()) throw new Error(`The agent has no API key for ${o.provider}.`);
  const settings = (baseURL: string | undefined) => ({ apiKey: o.apiKey, baseURL });
  // The same catalogue the generator writes agent.json's model_id from.
  const model = modelApiId(o.provider, o.model);
  switch (o.provider) {
    case 'openai':
      // Chat Completions rather than the Responses API: every OpenAI-compatible server speaks it.
      return createOpenAI(settings(o.baseUrls?.openai)).chat(model);
    case 'claude':
      return createAnthropic(settings(o.baseUrls?.claude))(model);
    case 'groq':
      return createGroq(settings(o.baseUrls?.groq))(model);
    case 'gemini':
      return createGoogleGenerativeAI(settings(o.baseUrls?.gemini))(model);
    case 'deepseek':
      return createDeepSeek(settings(o.baseUrls?.deepseek))(model);
  }
}
