import type { AgentEvent, ChatTurn } from '@agentloom/agent-runtime';
import type { AgentAccessKey, Publication } from '@agentloom/db';
import type { LocalAnswers } from '../agents/local-answers';
import type { RedisService } from '../redis/redis.service';
import { fakeOf, OWNER, refusal, STRANGER, unitConfig } from '../testing/unit-rows';
import { AccessKeyUses } from './access-key-uses';
import type { ConversationsRepository } from './conversations.repository';
import {
  AGENT_NOT_FOUND,
  boundedMemory,
  CONVERSATION_NOT_FOUND,
  INVALID_ACCESS_KEY,
  MEMORY_CHARACTERS_PER_TURN,
  PublishedAgentsService,
  splitOpenAiMessages,
  type ChatEvent,
} from './published-agents.service';
import type { PublishedRepository } from './published.repository';
import { hashAccessKey } from './publications.service';
import { RateLimiter } from './rate-limiter';
import type { RuntimeReplicas } from './runtime-replicas';

const AGENT = '33333333-3333-4333-8333-333333333333';
const OTHER_AGENT = '44444444-4444-4444-8444-444444444444';
const SECRET = 'al_0123456789abcdefghijklmnopqrstuv';
const MEMORY_TURNS = 2;

const live: Publication = {
  pipelineId: AGENT,
  userId: OWNER,
  buildId: '55555555-5555-4555-8555-555555555555',
  shareEnabled: false,
  allowedOrigins: [],
  showSources: true,
  followKnowledge: true,
  publishedAt: new Date('2026-01-03T00:00:00Z'),
  updatedAt: new Date('2026-01-03T00:00:00Z'),
};

function accessKey(overrides: Partial<AgentAccessKey> = {}): AgentAccessKey {
  return {
    id: '66666666-6666-4666-8666-666666666666',
    pipelineId: AGENT,
    userId: OWNER,
    name: 'website',
    keyHash: hashAccessKey(SECRET),
    lastFour: SECRET.slice(-4),
    rateLimitPerMinute: 2,
    requestCount: 0,
    lastUsedAt: null,
    revokedAt: null,
    createdAt: new Date('2026-01-03T00:00:00Z'),
    ...overrides,
  };
}

async function* eventsOf(events: AgentEvent[]): AsyncGenerator<AgentEvent> {
  for (const event of events) yield await Promise.resolve(event);
}

async function collect(stream: AsyncGenerator<ChatEvent>): Promise<ChatEvent[]> {
  const seen: ChatEvent[] = [];
  for await (const event of stream) seen.push(event);
  return seen;
}

function setUp() {
  // Redis as the rate limiter's script sees it: one counter per window key.
  const counters = new Map<string, number>();
  const client = {
    eval: (_script: string, _keys: number, key: string) => {
      counters.set(key, (counters.get(key) ?? 0) + 1);
      return Promise.resolve(counters.get(key));
    },
  };
  const redis = { run: (operation: (c: typeof client) => Promise<unknown>) => operation(client) };
  const published = {
    findKeyWithPublication: jest.fn(),
    countUses: jest.fn().mockResolvedValue(undefined),
    findNamed: jest.fn().mockResolvedValue(null),
  };
  const conversations = {
    findOfCallerWithMemory: jest.fn().mockResolvedValue(null),
    addExchange: jest.fn().mockResolvedValue({ id: 'message-1' }),
    create: jest.fn().mockResolvedValue({}),
    findOfCaller: jest.fn().mockResolvedValue(null),
    setFeedback: jest.fn().mockResolvedValue(false),
  };
  const local = { open: jest.fn() };
  const replicas = { enabled: false, open: jest.fn() };
  const keyUses = new AccessKeyUses(fakeOf<PublishedRepository>(published));
  const service = new PublishedAgentsService(
    unitConfig({ PUBLISHED_MEMORY_TURNS: MEMORY_TURNS }),
    fakeOf<PublishedRepository>(published),
    fakeOf<ConversationsRepository>(conversations),
    fakeOf<LocalAnswers>(local),
    fakeOf<RuntimeReplicas>(replicas),
    new RateLimiter(fakeOf<RedisService>(redis)),
    keyUses,
  );
  return { service, published, conversations, local, replicas, keyUses };
}

describe('PublishedAgentsService.authorize (a program calling with an access key)', () => {
  it('401 without a bearer access key, before anything is looked up', async () => {
    const { service, published } = setUp();
    for (const header of [undefined, '', SECRET, 'Bearer sk-not-an-access-key', 'Basic al_x']) {
      expect(await refusal(service.authorize(header, AGENT))).toEqual({
        status: 401,
        detail: INVALID_ACCESS_KEY,
      });
    }
    expect(published.findKeyWithPublication).not.toHaveBeenCalled();
  });

  it('looks the key up by its hash (the secret is never stored), and 401 when unknown', async () => {
    const { service, published } = setUp();
    published.findKeyWithPublication.mockResolvedValue(null);
    expect((await refusal(service.authorize(`Bearer ${SECRET}`, AGENT))).status).toBe(401);
    expect(published.findKeyWithPublication).toHaveBeenCalledWith(hashAccessKey(SECRET));
  });

  it('401 for a revoked key, even of the right agent', async () => {
    const { service, published } = setUp();
    const revoked = accessKey({ revokedAt: new Date() });
    published.findKeyWithPublication.mockResolvedValue({ key: revoked, live });
    expect((await refusal(service.authorize(`Bearer ${SECRET}`, AGENT))).status).toBe(401);
  });

  it("the same 404 for another agent's key, an unpublished agent and a changed owner", async () => {
    const { service, published } = setUp();
    const cases = [
      { key: accessKey({ pipelineId: OTHER_AGENT }), live },
      { key: accessKey(), live: null },
      { key: accessKey(), live: { ...live, userId: STRANGER } },
    ];
    for (const found of cases) {
      published.findKeyWithPublication.mockResolvedValue(found);
      expect(await refusal(service.authorize(`Bearer ${SECRET}`, AGENT))).toEqual({
        status: 404,
        detail: AGENT_NOT_FOUND,
      });
    }
  });

  it("answers within the key's limit, counts each use, and 429 past it", async () => {
    const { service, published } = setUp();
    const key = accessKey({ rateLimitPerMinute: 2 });
    published.findKeyWithPublication.mockResolvedValue({ key, live });
    expect(await service.authorize(`bearer ${SECRET}`, AGENT)).toEqual({ key, live });
    await service.authorize(`Bearer ${SECRET}`, AGENT);
    expect(await refusal(service.authorize(`Bearer ${SECRET}`, AGENT))).toEqual({
      status: 429,
      detail: 'Too many requests: this allows 2 a minute. Wait a minute and try again.',
    });
  });

  it('counts only the calls let through', async () => {
    const { service, published, keyUses } = setUp();
    const key = accessKey({ rateLimitPerMinute: 1 });
    published.findKeyWithPublication.mockResolvedValue({ key, live });
    await service.authorize(`Bearer ${SECRET}`, AGENT);
    await refusal(service.authorize(`Bearer ${SECRET}`, AGENT));
    await keyUses.flush();
    expect(published.countUses).toHaveBeenCalledWith([
      { id: key.id, uses: 1, lastUsedAt: expect.any(Date) as Date },
    ]);
  });
});

describe('PublishedAgentsService.chat (one message answered)', () => {
  const signal = new AbortController().signal;
  const answered: AgentEvent[] = [
    {
      type: 'retrieval',
      mode: 'embeddings',
      sources: [{ id: 'c1', citation: 'sales.csv, row 2', snippet: 'North: 12', score: 0.9 }],
    },
    { type: 'token', text: 'North ' },
    { type: 'token', text: 'sold 12.' },
    { type: 'done' },
  ];

  it("refuses a conversation id that is not this caller's, before the agent is asked", async () => {
    const { service, conversations, local } = setUp();
    const input = { message: 'Hi', channel: 'api' as const, conversationId: 'c-1' };
    expect(await refusal(collect(service.chat(live, input, signal)))).toEqual({
      status: 404,
      detail: CONVERSATION_NOT_FOUND,
    });
    expect(conversations.findOfCallerWithMemory).toHaveBeenCalledWith(
      'c-1',
      AGENT,
      { channel: 'api', accessKeyId: null, visitorHash: null },
      2 * MEMORY_TURNS,
    );
    expect(local.open).not.toHaveBeenCalled();
  });

  it('a new conversation: its id first, the answer, then saved with its sources, then done', async () => {
    const { service, conversations, local } = setUp();
    local.open.mockResolvedValue(eventsOf(answered));
    const key = accessKey();
    const events = await collect(
      service.chat(live, { message: 'North?', channel: 'api', accessKey: key }, signal),
    );
    expect(events.map((event) => event.type)).toEqual([
      'conversation',
      'retrieval',
      'token',
      'token',
      'saved',
      'done',
    ]);
    const [conversation, question, answer, sources] = conversations.addExchange.mock.calls[0]!;
    expect(conversation).toEqual({
      id: (events[0] as { conversation_id: string }).conversation_id,
      start: {
        pipelineId: AGENT,
        userId: OWNER,
        channel: 'api',
        accessKeyId: key.id,
        visitorHash: null,
      },
    });
    expect([question, answer]).toEqual(['North?', 'North sold 12.']);
    // The passage's id rides along: what its citation opens (docs/retrieval.md).
    expect(sources).toEqual([
      {
        id: 'c1',
        build_id: live.buildId,
        citation: 'sales.csv, row 2',
        snippet: 'North: 12',
        score: 0.9,
      },
    ]);
    expect(events[4]).toEqual({ type: 'saved', message_id: 'message-1', sources });
  });

  it("continues a stored conversation with its last turns as the agent's memory", async () => {
    const { service, conversations, local } = setUp();
    const stored: ChatTurn[] = [
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
    ];
    conversations.findOfCallerWithMemory.mockResolvedValue({ id: 'c-1', messages: stored });
    local.open.mockResolvedValue(eventsOf(answered));
    const input = {
      message: 'And South?',
      channel: 'widget' as const,
      conversationId: 'c-1',
      visitorHash: 'v',
      history: [{ role: 'user' as const, content: 'ignored: the stored turns win' }],
    };
    const events = await collect(service.chat(live, input, signal));
    expect(events[0]).toEqual({ type: 'conversation', conversation_id: 'c-1' });
    expect(local.open.mock.calls[0]![0]).toMatchObject({ message: 'And South?', history: stored });
    expect(conversations.addExchange.mock.calls[0]![0]).toEqual({ id: 'c-1' });
  });

  it('does not store a failed answer, but keeps the new conversation it named', async () => {
    const { service, conversations, local } = setUp();
    local.open.mockResolvedValue(
      eventsOf([
        { type: 'token', text: 'Half' },
        { type: 'error', detail: 'The provider stopped.' },
        { type: 'token', text: ' never sent' },
      ]),
    );
    const events = await collect(service.chat(live, { message: 'Q', channel: 'api' }, signal));
    expect(events.map((event) => event.type)).toEqual(['conversation', 'token', 'error']);
    expect(conversations.addExchange).not.toHaveBeenCalled();
    expect(conversations.create).toHaveBeenCalledWith(
      expect.objectContaining({
        id: (events[0] as { conversation_id: string }).conversation_id,
        pipelineId: AGENT,
      }),
    );
  });

  it('asks the runtime replicas instead of answering in the gateway when there are any', async () => {
    const { service, local, replicas } = setUp();
    replicas.enabled = true;
    replicas.open.mockResolvedValue(eventsOf([{ type: 'token', text: 'ok' }]));
    await collect(service.chat(live, { message: 'Q', channel: 'api' }, signal));
    expect(replicas.open).toHaveBeenCalledTimes(1);
    expect(local.open).not.toHaveBeenCalled();
  });

  it("feedback: 404 for a malformed answer id or another caller's conversation", async () => {
    const { service, conversations } = setUp();
    const caller = { channel: 'widget' as const, visitorHash: 'v' };
    const body = { conversation_id: 'c-1', rating: 'up' as const };
    const notFound = { status: 404, detail: 'This answer was not found in this conversation.' };
    expect(await refusal(service.feedback(AGENT, 'nope', body, caller))).toEqual(notFound);
    const message = '77777777-7777-4777-8777-777777777777';
    expect(await refusal(service.feedback(AGENT, message, body, caller))).toEqual(notFound);
    conversations.findOfCaller.mockResolvedValue({ id: 'c-1' });
    conversations.setFeedback.mockResolvedValue(true);
    await service.feedback(AGENT, message, body, caller);
    expect(conversations.setFeedback).toHaveBeenCalledWith(message, 'c-1', 1);
  });
});

describe('boundedMemory and splitOpenAiMessages (what a question remembers)', () => {
  const turn = (role: ChatTurn['role'], content: string): ChatTurn => ({ role, content });

  it('keeps the newest question-and-answer pairs, at most `turns` of them', () => {
    const history = ['q1', 'a1', 'q2', 'a2', 'q3', 'a3'].map((text, i) =>
      turn(i % 2 ? 'assistant' : 'user', text),
    );
    expect(boundedMemory(history, 2).map((t) => t.content)).toEqual(['q2', 'a2', 'q3', 'a3']);
    expect(boundedMemory(history, 0)).toEqual([]);
  });

  it('cuts to the character budget, keeping the end of the oldest turn that fits in part', () => {
    const budget = MEMORY_CHARACTERS_PER_TURN;
    const long = `${'x'.repeat(budget)}END`;
    const kept = boundedMemory([turn('user', long), turn('assistant', 'short')], 1);
    expect(kept[1]).toEqual(turn('assistant', 'short'));
    expect(kept[0]!.content).toHaveLength(budget - 'short'.length);
    expect(kept[0]!.content.endsWith('END')).toBe(true);
  });

  it('splits OpenAI-style messages: the last user message is the question, system turns dropped', () => {
    expect(
      splitOpenAiMessages([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: [{ type: 'text', text: 'reply' }] },
        { role: 'user', content: '  second  ' },
      ]),
    ).toEqual({ question: 'second', history: [turn('user', 'first'), turn('assistant', 'reply')] });
  });

  it('400 when the messages do not end with a user message that has text', () => {
    for (const messages of [
      [],
      [{ role: 'assistant', content: 'hi' }],
      [{ role: 'user', content: '   ' }],
    ]) {
      expect(() => splitOpenAiMessages(messages)).toThrow(
        'messages must end with a user message that has text.',
      );
    }
  });
});
