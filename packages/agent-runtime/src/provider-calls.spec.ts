import { generateText, streamText } from 'ai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { embedderFor } from './embedders';
import { observeProviderCalls, type ProviderCall } from './provider-calls';
import { languageModel } from './providers';
import { startLlmTestServer, type LlmTestServer } from './testing';

let server: LlmTestServer;
let calls: ProviderCall[];

beforeAll(async () => {
  server = await startLlmTestServer();
});

afterAll(() => server.close());

beforeEach(() => {
  calls = [];
  observeProviderCalls((call) => calls.push(call));
});

afterEach(() => observeProviderCalls(undefined));

const chat = (provider: 'openai' | 'claude' = 'openai') =>
  languageModel({
    provider,
    model: provider === 'openai' ? 'gpt-4o-mini' : 'claude-3.5-haiku-20241022',
    apiKey: 'sk-observed-test',
    baseUrls: server.baseUrls,
  });

const embedder = () =>
  embedderFor('text-embedding-3-small', {
    openai: { apiKey: 'sk-observed-test', baseUrl: server.baseUrls.openai },
    cacheDir: mkdtempSync(path.join(tmpdir(), 'agentloom-observed-')),
  });

describe('observeProviderCalls', () => {
  it('tells each streamed answer once it has ended, with its provider and time', async () => {
    const result = streamText({ model: chat('claude'), prompt: 'how tall is the tower' });
    await result.consumeStream();
    expect(calls).toEqual([
      { kind: 'chat', provider: 'claude', outcome: 'ok', seconds: expect.any(Number) },
    ]);
    expect(calls[0]!.seconds).toBeGreaterThan(0);
  });

  it('tells a refused key by its reason, and a generated answer too', async () => {
    server.failNext(401, 'Incorrect API key provided');
    await expect(generateText({ model: chat(), prompt: 'hello', maxRetries: 0 })).rejects.toThrow();
    await generateText({ model: chat(), prompt: 'hello again' });
    expect(calls.map(({ kind, outcome }) => `${kind} ${outcome}`)).toEqual(['chat key', 'chat ok']);
  });

  it('tells each attempt the AI SDK retries, and a refused stream', async () => {
    server.failNext(503, 'overloaded');
    await generateText({ model: chat(), prompt: 'retried once', maxRetries: 1 });
    server.failNext(429, 'slow down');
    const refused = streamText({
      model: chat(),
      prompt: 'refused',
      maxRetries: 0,
      onError: () => undefined,
    });
    await refused.consumeStream();
    expect(calls.map((call) => call.outcome)).toEqual(['unavailable', 'ok', 'rate']);
  });

  it('tells an answer its reader stopped as stopped', async () => {
    const stop = new AbortController();
    const result = streamText({
      model: chat(),
      prompt: 'a question asked and then abandoned',
      abortSignal: stop.signal,
    });
    for await (const piece of result.textStream) {
      if (piece) break; // the reader leaves after the first words
    }
    stop.abort();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.map((call) => call.outcome)).toEqual(['stopped']);
  });

  it('tells every embeddings request, queries and passages alike', async () => {
    const embeddings = await embedder();
    await embeddings.embedQuery('where is the lantern');
    await embeddings.embedPassages(['one passage', 'another passage']);
    server.failNext(401, 'Incorrect API key provided');
    await expect(embeddings.embedQuery('refused')).rejects.toThrow();
    expect(calls.map(({ kind, provider, outcome }) => `${kind} ${provider} ${outcome}`)).toEqual([
      'embeddings openai ok',
      'embeddings openai ok',
      'embeddings openai key',
    ]);
  });

  it('keeps answering when the observer throws, and tells nothing without one', async () => {
    observeProviderCalls(() => {
      throw new Error('a broken metrics library');
    });
    const answer = await generateText({ model: chat(), prompt: 'still here' });
    expect(answer.text).toBe('You said: still here');
    observeProviderCalls(undefined);
    await generateText({ model: chat(), prompt: 'nobody listens' });
    expect(calls).toEqual([]);
  });
});
