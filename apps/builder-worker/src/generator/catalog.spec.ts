import { LLM_MODEL_CATALOGUE, LLM_MODELS, LLM_PROVIDERS, modelApiId } from '@agentloom/contracts';
import { providerModelId } from './catalog';

describe('providerModelId', () => {
  it('maps every catalogue model through the catalogue the preview uses', () => {
    for (const provider of LLM_PROVIDERS) {
      for (const model of LLM_MODELS[provider]) {
        // languageModel (agent-runtime, the preview) sends modelApiId too.
        expect(providerModelId(provider, model)).toBe(modelApiId(provider, model));
        expect(providerModelId(provider, model)).toBe(LLM_MODEL_CATALOGUE[model].apiId);
      }
    }
    expect(providerModelId('claude', 'claude-3.7-sonnet-20250219')).toBe(
      'claude-3-7-sonnet-20250219',
    );
    expect(providerModelId('gemini', 'gemini-2.0-flash')).toBe('gemini-2.0-flash');
    expect(() => providerModelId('groq', 'gpt-4o')).toThrow();
  });
});
