import {
  LLM_MODEL_CATALOGUE,
  LLM_MODELS,
  LLM_PROVIDERS,
  modelApiId,
  type TLlmProvider,
} from '@agentloom/contracts';
import { generateText, streamText } from 'ai';
import { closedPort } from './fixtures.spec-helper';
import { describeProviderError } from './provider-errors';
import { languageModel } from './providers';
import { startLlmTestServer, type LlmTestServer } from './testing';

let server: LlmTestServer;

beforeAll(async () => {
  server = await startLlmTestServer();
});

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
});

const PROVIDERS: {
  provider: TLlmProvider;
  model: string;
  key: string;
  path: string;
  header: (headers: Record<string, unknown>) => unknown;
}[] = [
  {
    provider: 'openai',
    model: 'gpt-4o-mini',
    key: 'sk-openai-test',
    path: '/v1/chat/completions',
    header: (headers) => headers.authorization,
  },
  {
    provider: 'groq',
    model: 'llama-3.1-8b-instant',
    key: 'gsk_groq-test',
    path: '/v1/chat/completions',
    header: (headers) => headers.authorization,
  },
  {
    provider: 'deepseek',
    model: 'deepseek-chat',
    key: 'sk-deepseek-test',
    path: '/v1/chat/completions',
    header: (headers) => headers.authorization,
  },
  {
    provider: 'claude',
    model: 'claude-3.5-haiku-20241022',
    key: 'sk-ant-claude-test',
    path: '/anthropic/v1/messages',
    header: (headers) => headers['x-api-key'],
  },
  {
    provider: 'gemini',
    model: 'gemini-2.0-flash',
    key: 'AIza-gemini-test',
    path: '/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
    header: (headers) => headers['x-goog-api-key'],
  },
];

describe.each(PROVIDERS)('languageModel($provider)', ({ provider, model, key, path, header }) => {
  const chat = () => languageModel({ provider, model, apiKey: key, baseUrls: server.baseUrls });

  it('streams the answer in pieces through its own protocol, with its key', async () => {
    const result = streamText({ model: chat(), prompt: 'tell me about the weather in Oslo today' });
    const pieces: string[] = [];
    for await (const piece of result.textStream) pieces.push(piece);

    expect(pieces.join('')).toBe('You said: tell me about the weather in Oslo today');
    expect(pieces.length).toBeGreaterThan(1);
    expect(await result.usage).toMatchObject({ outputTokens: 10 }); // the server counts words
    const [request] = server.requests;
    expect(request?.path).toBe(path);
    const expected = provider === 'claude' || provider === 'gemini' ? key : `Bearer ${key}`;
    expect(header(request!.headers)).toBe(expected);
    // Gemini names the model in the path, the others in the body.
    expect(request!.path + JSON.stringify(request!.body)).toContain(modelApiId(provider, model));
  });

  it('answers without streaming too', async () => {
    const { text } = await generateText({ model: chat(), prompt: 'hello there' });
    expect(text).toBe('You said: hello there');
  });

  it('turns a rejected key into a human message without the key', async () => {
    server.failNext(401, `Incorrect API key provided: ${key}. You can find your key online.`);
    const error: unknown = await generateText({ model: chat(), prompt: 'hello' }).catch(
      (caught: unknown) => caught,
    );
    const detail = describeProviderError(error);
    expect(detail).toBe('The provider rejected the API key (401).');
    expect(detail).not.toContain(key);
  });
});

describe('describeProviderError', () => {
  it('quotes a refused request with key-shaped text masked', async () => {
    server.failNext(400, 'Model gpt-5-nano does not exist for key sk-proj-abcdefgh12345678.');
    const model = languageModel({
      provider: 'openai',
      model: 'gpt-5-nano',
      apiKey: 'sk-proj-abcdefgh12345678',
      baseUrls: server.baseUrls,
    });
    const error: unknown = await generateText({ model, prompt: 'hi' }).catch(
      (caught: unknown) => caught,
    );
    expect(describeProviderError(error)).toBe(
      'The provider refused the request (400): Model gpt-5-nano does not exist for key ****',
    );
  });

  it('names an unreachable provider', async () => {
    const port = await closedPort();
    const model = languageModel({
      provider: 'groq',
      model: 'llama-3.1-8b-instant',
      apiKey: 'gsk_unreachable',
      baseUrls: { groq: `http://127.0.0.1:${port}/openai/v1` },
    });
    const error: unknown = await generateText({ model, prompt: 'hi', maxRetries: 0 }).catch(
      (caught: unknown) => caught,
    );
    expect(describeProviderError(error)).toBe(
      `The provider could not be reached: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('reports the last attempt after the SDK has retried a server error', async () => {
    server.failNext(503, 'overloaded');
    server.failNext(503, 'still overloaded');
    const model = languageModel({
      provider: 'claude',
      model: 'claude-3.5-haiku-20241022',
      apiKey: 'sk-ant-x',
      baseUrls: server.baseUrls,
    });
    // One retry (after the SDK's 2 s backoff) keeps the test short; the default is two.
    const error: unknown = await generateText({ model, prompt: 'hi', maxRetries: 1 }).catch(
      (caught: unknown) => caught,
    );
    expect(describeProviderError(error)).toBe('The provider failed (503). Try again in a moment.');
    expect(server.requests).toHaveLength(2);
  });
});

describe('the model catalogue', () => {
  it('maps every catalogue model to exactly one API id of its provider', () => {
    const seen = new Map<string, TLlmProvider>();
    for (const provider of LLM_PROVIDERS) {
      for (const model of LLM_MODELS[provider]) {
        const apiId = modelApiId(provider, model);
        expect(apiId).toBe(LLM_MODEL_CATALOGUE[model].apiId);
        expect(apiId).toMatch(/^[a-z0-9][\w.:-]*$/);
        // An id never belongs to two providers.
        expect(seen.get(apiId) ?? provider).toBe(provider);
        seen.set(apiId, provider);
      }
    }
    // The wizard's Claude names have a dot in the version; Anthropic's API knows them with a
    // hyphen.
    expect(modelApiId('claude', 'claude-3.5-haiku-20241022')).toBe('claude-3-5-haiku-20241022');
  });

  it('sends each catalogue model to its provider under the catalogue id', async () => {
    for (const provider of LLM_PROVIDERS) {
      for (const model of LLM_MODELS[provider]) {
        server.requests.length = 0;
        const chat = languageModel({
          provider,
          model,
          apiKey: 'k-test',
          baseUrls: server.baseUrls,
        });
        await generateText({ model: chat, prompt: 'hi', maxOutputTokens: 64 });
        const [request] = server.requests;
        const sent =
          provider === 'gemini'
            ? /^\/v1beta\/models\/([^:]+):/.exec(request!.path)?.[1]
            : (request!.body as { model?: string }).model;
        expect(sent).toBe(LLM_MODEL_CATALOGUE[model].apiId);
      }
    }
  });

  it('passes a model the provider listed through unchanged, but not another provider’s', () => {
    expect(modelApiId('openai', 'gpt-4o-2024-08-06')).toBe('gpt-4o-2024-08-06');
    expect(modelApiId('groq', 'meta-llama/llama-4-scout-17b-16e-instruct')).toBe(
      'meta-llama/llama-4-scout-17b-16e-instruct',
    );
    expect(() => modelApiId('groq', 'gpt-4o')).toThrow();
    expect(() => modelApiId('openai', 'gpt 4o; rm -rf')).toThrow();
  });
});

describe('languageModel', () => {
  it('refuses an empty key rather than fall back to the server environment', () => {
    expect(() => languageModel({ provider: 'openai', model: 'gpt-4o', apiKey: ' ' })).toThrow(
      'The agent has no API key for openai.',
    );
  });
});
