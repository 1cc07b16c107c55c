import type { ProviderBaseUrls } from '@agentloom/agent-runtime';
import type { AppConfig } from './env';

/** The providers' endpoints the settings replace (a proxy, the tests' local server), if any. */
export function providerBaseUrls(config: AppConfig): ProviderBaseUrls {
  return {
    openai: config.OPENAI_BASE_URL,
    claude: config.ANTHROPIC_BASE_URL,
    groq: config.GROQ_BASE_URL,
    gemini: config.GEMINI_BASE_URL,
    deepseek: config.DEEPSEEK_BASE_URL,
  };
}
