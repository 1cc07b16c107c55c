/**
 * The one LLM provider catalogue: everything the platform knows about a provider, written once,
 * for every process and language that talks to it — the web app (labels, key placeholders, key
 * pages), the gateway (which base-URL settings it reads), the agent runtime (where it lists
 * models, which API it speaks) and the generator (the downloaded agent's key variable and Python
 * SDK). Adding a provider means one entry here and its models in llm-models.ts; the Python
 * template (templates/common/agent/llm.py), docker-compose.yml and .env.example are held to this
 * table by the builder worker's and the contracts' parity tests.
 */

/** The wire protocol a provider serves chat and its model list with. */
export type LlmApi = 'openai' | 'anthropic' | 'gemini';

/** The Python SDK the downloaded agent talks to the provider with (pinned by the generator). */
export type LlmPythonPackage = 'openai' | 'anthropic' | 'google-genai';

export interface LlmProviderSpec {
  /**
   * What the web app shows: the wizard's dropdown, the keys page, summaries and messages. These are
   * the product's own words (docs/product.md), so DeepSeek is written 'Deepseek' there.
   */
  readonly label: string;
  /** The provider's own spelling, for the prose of the downloaded project (README, .env). */
  readonly name: string;
  /** What a key starts with: the key field's placeholder, and what error messages mask. */
  readonly keyPrefix: string;
  /** Where an owner makes a key (linked beside the wizard's key field). */
  readonly keyPage: string;
  /** The variable the downloaded agent reads the key from. */
  readonly apiKeyEnv: string;
  /** The gateway's setting that replaces the provider's address (a proxy, the tests' server). */
  readonly baseUrlEnv: string;
  /** The provider's public API address, with the version path its SDKs append routes to. */
  readonly defaultBaseUrl: string;
  readonly api: LlmApi;
  readonly pythonPackage: LlmPythonPackage;
  /**
   * The models the wizard offers, as it names them (each one's API id, context and retirement:
   * llm-models.ts). The product's Claude list once ended with a `{token}` placeholder, which is
   * not a model and is deliberately absent.
   */
  readonly models: readonly string[];
}

export const LLM_PROVIDER_CATALOG = {
  openai: {
    label: 'OpenAI',
    name: 'OpenAI',
    keyPrefix: 'sk-',
    keyPage: 'https://platform.openai.com/api-keys',
    apiKeyEnv: 'OPENAI_API_KEY',
    baseUrlEnv: 'OPENAI_BASE_URL',
    defaultBaseUrl: 'https://api.openai.com/v1',
    api: 'openai',
    pythonPackage: 'openai',
    models: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini'],
  },
  claude: {
    label: 'Claude',
    name: 'Claude',
    keyPrefix: 'sk-ant-',
    keyPage: 'https://console.anthropic.com/settings/keys',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    baseUrlEnv: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    api: 'anthropic',
    pythonPackage: 'anthropic',
    models: ['claude-3.5-haiku-20241022', 'claude-3.7-sonnet-20250219', 'claude-4-opus-20250522'],
  },
  groq: {
    label: 'Groq',
    name: 'Groq',
    keyPrefix: 'gsk_',
    keyPage: 'https://console.groq.com/keys',
    apiKeyEnv: 'GROQ_API_KEY',
    baseUrlEnv: 'GROQ_BASE_URL',
    defaultBaseUrl: 'https://api.groq.com/openai/v1',
    api: 'openai',
    pythonPackage: 'openai',
    models: [
      'llama3-70b-8192',
      'llama3-8b-8192',
      'llama-3.1-8b-instant',
      'llama-3.3-70b-versatile',
    ],
  },
  gemini: {
    label: 'Gemini',
    name: 'Gemini',
    keyPrefix: 'AIza',
    keyPage: 'https://aistudio.google.com/app/apikey',
    apiKeyEnv: 'GEMINI_API_KEY',
    baseUrlEnv: 'GEMINI_BASE_URL',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    api: 'gemini',
    pythonPackage: 'google-genai',
    models: [
      'gemini-1.5-flash',
      'gemini-1.5-flash-001',
      'gemini-1.5-flash-001-tuning',
      'gemini-1.5-flash-002',
      'gemini-1.5-flash-8b',
      'gemini-1.5-flash-8b-001',
      'gemini-2.0-flash',
      'gemini-2.0-flash-001',
      'gemini-2.0-flash-lite',
      'gemini-2.0-flash-lite-001',
    ],
  },
  deepseek: {
    label: 'Deepseek',
    name: 'DeepSeek',
    keyPrefix: 'sk-',
    keyPage: 'https://platform.deepseek.com/api_keys',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    baseUrlEnv: 'DEEPSEEK_BASE_URL',
    defaultBaseUrl: 'https://api.deepseek.com',
    api: 'openai',
    pythonPackage: 'openai',
    models: ['deepseek-chat', 'deepseek-coder-v2', 'deepseek-reasoner', 'deepseek-v2.5-chat'],
  },
} as const satisfies Record<string, LlmProviderSpec>;

type Catalog = typeof LLM_PROVIDER_CATALOG;
type ProviderId = keyof Catalog;

/** Each provider's base-URL setting's name, as a type: the gateway's settings are typed by it. */
export type TLlmBaseUrlEnv = Catalog[ProviderId]['baseUrlEnv'];

/** The catalogue's ids in its order, as the non-empty tuple z.enum takes. */
export const LLM_PROVIDER_IDS = Object.keys(LLM_PROVIDER_CATALOG) as unknown as readonly [
  ProviderId,
  ...ProviderId[],
];

function mapProviders<T>(pick: (spec: LlmProviderSpec) => T): Record<ProviderId, T> {
  return Object.fromEntries(
    LLM_PROVIDER_IDS.map((id) => [id, pick(LLM_PROVIDER_CATALOG[id])]),
  ) as Record<ProviderId, T>;
}

export const LLM_PROVIDER_LABELS = mapProviders((spec) => spec.label);

export const LLM_PROVIDER_KEY_PAGES = mapProviders((spec) => spec.keyPage);

/** Placeholders of the masked API key field: what a key of each provider starts with. */
export const LLM_API_KEY_PLACEHOLDERS = mapProviders((spec) => `${spec.keyPrefix}...`);

/** The public endpoints, used where no base URL is set (what the providers' SDKs default to). */
export const LLM_DEFAULT_BASE_URLS = mapProviders((spec) => spec.defaultBaseUrl);

/** Models offered per provider, each list as literal as the catalogue writes it. */
export const LLM_MODELS = mapProviders((spec) => spec.models) as {
  readonly [P in ProviderId]: Catalog[P]['models'];
};

/**
 * The labels as a sentence's list, "OpenAI, Claude, Groq, Gemini or Deepseek", for texts that
 * name every provider: a new provider appears in them without anyone editing the sentence.
 */
export function llmProviderLabelList(conjunction: 'and' | 'or'): string {
  const labels = Object.values(LLM_PROVIDER_LABELS);
  return `${labels.slice(0, -1).join(', ')} ${conjunction} ${labels.at(-1)}`;
}
