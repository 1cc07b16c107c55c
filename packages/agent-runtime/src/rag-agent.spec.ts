import { env } from '@huggingface/transformers';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { answerOf, closedPort, collect, TEAM } from './fixtures.spec-helper';
import { languageModel } from './providers';
import { RELEVANCE_THRESHOLDS } from '@agentloom/contracts';
import { DONT_KNOW_INSTRUCTIONS, isRelevant, RAG_INSTRUCTIONS, RagAgent } from './rag-agent';
import { hostedIndexFor } from './hosted-index.spec-helper';
import { startLlmTestServer, type LlmTestServer } from './testing';

const QUESTION = 'Which city is the Zephyr project run from?';
const SYSTEM_PROMPT = 'You are the team directory. Be brief.';

let server: LlmTestServer;
let cacheDir: string;

beforeAll(async () => {
  server = await startLlmTestServer();
  cacheDir = await mkdtemp(path.join(tmpdir(), 'agent-runtime-models-'));
  env.remoteHost = `http://127.0.0.1:${await closedPort()}/`; // no test reaches huggingface.co
});

afterAll(async () => {
  await server.close();
  await rm(cacheDir, { recursive: true, force: true });
});

beforeEach(() => {
  server.requests.length = 0;
});

function openAiModel(apiKey = 'sk-rag-test') {
  return languageModel({
    provider: 'openai',
    model: 'gpt-4o-mini',
    apiKey,
    baseUrls: server.baseUrls,
  });
}

describe('RagAgent', () => {
  it('sends the earlier turns of a conversation before the question, and retrieves by the question', async () => {
    const index = await hostedIndexFor(TEAM, {
      embeddingModel: 'text-embedding-ada-002',
      openai: { apiKey: 'sk-rag-test', baseUrl: server.baseUrls.openai },
      cacheDir,
    });
    const agent = new RagAgent({ model: openAiModel(), systemPrompt: SYSTEM_PROMPT, index });
    const history = [
      { role: 'user' as const, content: 'Who runs Zephyr?' },
      { role: 'assistant' as const, content: 'Dan does.' },
    ];
    const events = await collect(agent.ask(QUESTION, undefined, history));
    expect(answerOf(events)).toMatch(/Oslo/);
    const chat = server.requests.find((r) => r.path.startsWith('/v1/chat/completions'));
    const messages = (chat?.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(JSON.stringify(messages[1]?.content)).toContain('Who runs Zephyr?');
    expect(JSON.stringify(messages[3]?.content)).toContain(`Question: ${QUESTION}`);
  });

  it('retrieves with OpenAI embeddings, then streams an answer citing the right row', async () => {
    const index = await hostedIndexFor(TEAM, {
      embeddingModel: 'text-embedding-ada-002',
      openai: { apiKey: 'sk-rag-test', baseUrl: server.baseUrls.openai },
      cacheDir,
    });
    const agent = new RagAgent({ model: openAiModel(), systemPrompt: SYSTEM_PROMPT, index });
    const events = await collect(agent.ask(QUESTION));

    const [retrieval, ...rest] = events;
    if (retrieval?.type !== 'retrieval') throw new Error('the retrieval event comes first');
    expect(retrieval.mode).toBe('embeddings');
    expect(retrieval.note).toBeUndefined();
    expect(retrieval.sources).toHaveLength(4);
    expect(retrieval.sources[0]).toMatchObject({ id: 'row-4', citation: 'team.csv, row 5' });
    expect(retrieval.sources[0]?.snippet).toBe(
      'name: Dan project: Zephyr city: Oslo colour: crimson',
    );
    expect(rest.filter((event) => event.type === 'token').length).toBeGreaterThan(1);
    expect(rest.at(-1)).toEqual({ type: 'done' });
    expect(answerOf(events)).toContain('According to [1]: name: Dan\nproject: Zephyr\ncity: Oslo');

    const chat = server.requests.find((request) => request.path === '/v1/chat/completions');
    const messages = (chat?.body as { messages: { role: string; content: string }[] }).messages;
    expect(messages[0]).toEqual({
      role: 'system',
      content: `${SYSTEM_PROMPT}\n\n${RAG_INSTRUCTIONS}`,
    });
    expect(messages[1]?.content).toMatch(
      /^Context:\n\[1\] \(team\.csv, row 5\) name: Dan\nproject: Zephyr\ncity: Oslo\ncolour: crimson\n\[2\] \(team\.csv, row \d\) /,
    );
    expect(messages[1]?.content.endsWith(`\n\nQuestion: ${QUESTION}`)).toBe(true);
    expect(chat?.headers.authorization).toBe('Bearer sk-rag-test');
  });

  it('answers with full-text search and its note when the local embedding model cannot be loaded', async () => {
    const index = await hostedIndexFor(TEAM, { embeddingModel: 'all-MiniLM-L6-v2', cacheDir });
    const agent = new RagAgent({ model: openAiModel(), systemPrompt: '', index, topK: 2 });
    const events = await collect(agent.ask(QUESTION));

    expect(events[0]).toMatchObject({
      type: 'retrieval',
      mode: 'keyword',
      note: 'The embedding model all-MiniLM-L6-v2 could not be loaded (fetch failed), so this agent answers with keyword (full-text) search.',
    });
    if (events[0]?.type !== 'retrieval') throw new Error('the retrieval event comes first');
    expect(events[0].sources.map((source) => source.citation)[0]).toBe('team.csv, row 5');
    expect(events[0].sources.length).toBeLessThanOrEqual(2);
    expect(answerOf(events)).toContain('city: Oslo');
    expect(events.at(-1)).toEqual({ type: 'done' });
  });

  it('ends with one human error when the provider rejects the key, never the key itself', async () => {
    const index = await hostedIndexFor(TEAM, {
      embeddingModel: 'text-embedding-ada-002',
      cacheDir,
    });
    const agent = new RagAgent({
      model: openAiModel('sk-revoked-key-1234'),
      systemPrompt: '',
      index,
    });
    server.failNext(401, 'Incorrect API key provided: sk-revoked-key-1234.');
    const events = await collect(agent.ask(QUESTION));

    expect(events.map((event) => event.type)).toEqual(['retrieval', 'error']);
    expect(events[1]).toEqual({
      type: 'error',
      detail: 'The provider rejected the API key (401).',
      reason: 'key',
    });
    expect(JSON.stringify(events)).not.toContain('sk-revoked');
  });

  it('reports a failed question embedding before any retrieval event', async () => {
    const index = await hostedIndexFor(TEAM, {
      embeddingModel: 'text-embedding-ada-002',
      openai: { apiKey: 'sk-rag-test', baseUrl: server.baseUrls.openai },
      cacheDir,
    });
    const agent = new RagAgent({ model: openAiModel(), systemPrompt: '', index });
    server.failNext(401, 'Incorrect API key provided.');
    expect(await collect(agent.ask(QUESTION))).toEqual([
      { type: 'error', detail: 'The provider rejected the API key (401).', reason: 'key' },
    ]);
  });

  it('stops quietly when the question is aborted', async () => {
    const index = await hostedIndexFor(TEAM, {
      embeddingModel: 'text-embedding-ada-002',
      cacheDir,
    });
    const agent = new RagAgent({ model: openAiModel(), systemPrompt: '', index });
    const stop = new AbortController();
    const events = [];
    for await (const event of agent.ask(QUESTION, stop.signal)) {
      events.push(event);
      stop.abort(); // the page closed right after the sources arrived
    }
    expect(events.map((event) => event.type)).toEqual(['retrieval']);
  });
});

describe('RagAgent answering only from its sources', () => {
  async function strictAgent() {
    const index = await hostedIndexFor(TEAM, {
      embeddingModel: 'text-embedding-3-small',
      openai: { apiKey: 'sk-rag-test', baseUrl: server.baseUrls.openai },
      cacheDir,
    });
    return new RagAgent({
      model: openAiModel(),
      systemPrompt: SYSTEM_PROMPT,
      index,
      answerOnlyFromSources: true,
      relevanceThreshold: RELEVANCE_THRESHOLDS['text-embedding-3-small'],
    });
  }

  const chatRequest = () =>
    JSON.stringify(server.requests.find((r) => r.path.startsWith('/v1/chat/completions'))?.body);

  it('says it does not know, shows the model no passage and flags the question, when none is relevant', async () => {
    const agent = await strictAgent();
    const events = await collect(agent.ask('What is the boiling point of mercury?'));
    expect(events[0]).toMatchObject({ type: 'retrieval', sources: [], unanswered: true });
    expect(answerOf(events)).toMatch(/do not know/i);
    expect(chatRequest()).toContain(DONT_KNOW_INSTRUCTIONS);
    expect(chatRequest()).not.toContain('Context:');
  });

  it('answers from a passage that clears the threshold, or that names what the question names', async () => {
    const agent = await strictAgent();
    const events = await collect(agent.ask(QUESTION));
    expect(events[0]).toMatchObject({ type: 'retrieval' });
    expect(events[0]).not.toHaveProperty('unanswered');
    expect(answerOf(events)).toMatch(/Oslo/);
    // "Paris" is the only word the question shares with Bob's row: too little for its meaning,
    // enough as a name.
    server.requests.length = 0;
    const byName = await collect(agent.ask('Who works in Paris?'));
    expect(byName[0]).not.toHaveProperty('unanswered');
    expect(answerOf(byName)).toMatch(/Bob/);
  });
});

describe('isRelevant', () => {
  const chunk = { id: 'c', text: 'Order 7: Sprocket Max ×40, shipped to Lisbon.', source: 'o.csv' };

  it('judges a passage found by meaning by its similarity, unless it names what the question names', () => {
    expect(
      isRelevant({ chunk, score: 1, found: 'meaning', similarity: 0.5 }, 'anything', 0.3),
    ).toBe(true);
    expect(
      isRelevant({ chunk, score: 1, found: 'meaning', similarity: 0.1 }, 'Where is it?', 0.3),
    ).toBe(false);
    expect(
      isRelevant(
        { chunk, score: 1, found: 'both', similarity: 0.1 },
        'Who ordered Sprocket Max?',
        0.3,
      ),
    ).toBe(true);
    expect(
      isRelevant(
        { chunk, score: 1, found: 'meaning', similarity: 0.1 },
        'What is in order 7?',
        0.3,
      ),
    ).toBe(true);
  });

  it('judges a passage found by words alone by the question’s content words', () => {
    const words = (question: string) =>
      isRelevant({ chunk, score: 3, found: 'words', wordScore: 3 }, question, 0.3);
    expect(words('which order was shipped to lisbon?')).toBe(true);
    expect(words('which order was returned by the customer?')).toBe(false);
  });
});
