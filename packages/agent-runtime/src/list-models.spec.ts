import { LLM_PROVIDERS, type TLlmProvider } from '@agentloom/contracts';
import { generateText } from 'ai';
import { closedPort } from './fixtures.spec-helper';
import { checkProviderKey, describeKeyCheck } from './list-models';
import { describeProviderError, providerErrorReason } from './provider-errors';
import { languageModel } from './providers';
import { startLlmTestServer, type LlmTestServer } from './testing';

let server: LlmTestServer;

beforeAll(async () => {
  server = await startLlmTestServer({ rejectedKeys: ['sk-revoked-key-0000'] });
});

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
});

/** Where each provider's list-models call goes and how it carries the key. */
const CALLS: Record<
  TLlmProvider,
  { path: string; header: string; value: (key: string) => string }
> = {
  openai: { path: '/v1/models', header: 'authorization', value: (key) => `Bearer ${key}` },
  groq: { path: '/v1/models', header: 'authorization', value: (key) => `Bearer ${key}` },
  deepseek: { path: '/v1/models', header: 'authorization', value: (key) => `Bearer ${key}` },
  claude: { path: '/anthropic/v1/models?limit=1000', header: 'x-api-key', value: (key) => key },
  gemini: { path: '/v1beta/models?pageSize=1000', header: 'x-goog-api-key', value: (key) => key },
};

describe.each(LLM_PROVIDERS)('checkProviderKey(%s)', (provider) => {
  it('lists the chat models the provider serves for a good key', async () => {
    const check = await checkProviderKey({
      provider,
      apiKey: 'good-key-1234567890',
      baseUrls: server.baseUrls,
    });

    expect(check.ok).toBe(true);
    const models = check.ok ? check.models : [];
    expect(models.length).toBeGreaterThan(2);
    // Embedding and speech models cannot chat; Gemini's "models/" prefix is dropped.
    expect(models.some((id) => /embedding|whisper|^models\//.test(id))).toBe(false);
    expect(describeKeyCheck(provider, check)).toBe(`Connected — ${models.length} models available`);
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.path).toBe(CALLS[provider].path);
    expect(request?.headers[CALLS[provider].header]).toBe(
      CALLS[provider].value('good-key-1234567890'),
    );
    if (provider === 'claude') expect(request?.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('reports a key the provider refuses, in its name', async () => {
    const check = await checkProviderKey({
      provider,
      apiKey: 'sk-revoked-key-0000',
      baseUrls: server.baseUrls,
    });

    expect(check).toMatchObject({ ok: false, reason: 'rejected' });
    expect(describeKeyCheck(provider, check)).toMatch(
      /^(OpenAI|Claude|Groq|Gemini|Deepseek) rejected this key\./,
    );
  });
});

it('says in plain words when the provider cannot be reached', async () => {
  const port = await closedPort();
  const check = await checkProviderKey({
    provider: 'openai',
    apiKey: 'sk-anything-123456',
    baseUrls: { openai: `http://127.0.0.1:${port}/v1` },
  });
  expect(check).toEqual({ ok: false, reason: 'unreachable' });
  expect(describeKeyCheck('openai', check)).toBe(
    'OpenAI could not be reached. Check your internet connection and try again.',
  );
});

it('tells a provider failure from a refused key', async () => {
  server.failNext(503, 'overloaded');
  const check = await checkProviderKey({
    provider: 'claude',
    apiKey: 'k-1234567890123456',
    baseUrls: server.baseUrls,
  });
  expect(check).toEqual({ ok: false, reason: 'failed', status: 503 });
});

it('refuses a revoked key on chat calls too, as the real APIs do', async () => {
  const chat = languageModel({
    provider: 'openai',
    model: 'gpt-4o',
    apiKey: 'sk-revoked-key-0000',
    baseUrls: server.baseUrls,
  });
  const error: unknown = await generateText({ model: chat, prompt: 'hi' }).catch(
    (caught: unknown) => caught,
  );
  expect(describeProviderError(error)).toBe('The provider rejected the API key (401).');
  expect(providerErrorReason(error)).toBe('key');
});

it('knows Gemini refuses a key with 400 API_KEY_INVALID, as Google does', async () => {
  const chat = languageModel({
    provider: 'gemini',
    model: 'gemini-2.0-flash',
    apiKey: 'sk-revoked-key-0000',
    baseUrls: server.baseUrls,
  });
  const error: unknown = await generateText({ model: chat, prompt: 'hi' }).catch(
    (caught: unknown) => caught,
  );
  expect(describeProviderError(error)).toBe('The provider rejected the API key (400).');
  expect(providerErrorReason(error)).toBe('key');
});
