import { LLM_PROVIDER_CATALOG, LLM_PROVIDERS, type LlmPythonPackage } from '@agentloom/contracts';
import { pythonTables } from '../testing/python-tables';
import { PROVIDERS } from './catalog';
import { PINS } from './requirements';

/** The chat class of llm.py that speaks each SDK. */
const CHAT_CLASSES: Record<LlmPythonPackage, string> = {
  openai: 'OpenAIChat',
  anthropic: 'AnthropicChat',
  'google-genai': 'GeminiChat',
};

describe('the generated agent’s llm.py follows the contracts’ provider catalogue', () => {
  const tables = pythonTables('common/agent/llm.py');

  it('has a chat client for every provider, speaking the provider’s SDK', () => {
    const expected = Object.fromEntries(
      LLM_PROVIDERS.map((p) => [p, CHAT_CLASSES[LLM_PROVIDER_CATALOG[p].pythonPackage]]),
    );
    expect(tables.CLIENTS).toEqual(expected);
  });

  it('sends each OpenAI-compatible provider to the catalogue’s address', () => {
    const compatible = LLM_PROVIDERS.filter(
      (p) => LLM_PROVIDER_CATALOG[p].pythonPackage === 'openai',
    );
    // OpenAI's SDK defaults to the catalogue's address itself; llm.py leaves it unset (None) so
    // the SDK's own OPENAI_BASE_URL still applies.
    const expected = Object.fromEntries(
      compatible.map((p) => [p, p === 'openai' ? null : LLM_PROVIDER_CATALOG[p].defaultBaseUrl]),
    );
    expect(tables.OPENAI_COMPATIBLE_URLS).toEqual(expected);
  });

  it('pins each provider’s Python package', () => {
    const pins = Object.values(PINS) as string[];
    for (const provider of LLM_PROVIDERS) {
      expect(pins).toContainEqual(expect.stringMatching(`^${PROVIDERS[provider].sdk}==`));
    }
  });
});
