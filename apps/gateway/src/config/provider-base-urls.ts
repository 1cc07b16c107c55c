import { LLM_PROVIDERS, LLM_PROVIDER_CATALOG } from '@agentloom/contracts';
import type { ProviderBaseUrls } from '@agentloom/agent-runtime';
import type { AppConfig } from './env';

/** The providers' endpoints the settings replace (a proxy, the tests' local server), if any. */
export function providerBaseUrls(config: AppConfig): ProviderBaseUrls {
  return Object.fromEntries(
    LLM_PROVIDERS.map((provider) => [provider, config[LLM_PROVIDER_CATALOG[provider].baseUrlEnv]]),
  );
}
