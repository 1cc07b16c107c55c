import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { csvChunks, markBuilt } from '../testing/built-agents';
import {
  configureRagAgent,
  signUpAndLogIn,
  type TestUser,
  serverSentEvents,
} from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

const HEADER = ['region', 'product', 'units'];
const ROWS = [
  ['Porto', 'Lantern kits', '1204'],
  ['Lisbon', 'Quokka umbrellas', '7342'],
  ['Braga', 'Tide clocks', '518'],
];
const CSV = [HEADER, ...ROWS].map((row) => row.join(',')).join('\n') + '\n';

/** The SSE events of a finished stream, parsed. */
const parseEvents = (text: string) => serverSentEvents(text);

describe('published agents', () => {
  let llm: LlmTestServer;
  let t: TestApp;
  let baseUrl: string;
  let alice: TestUser;
  let bob: TestUser;
  let fixtures: string;
  let csvPath: string;

  beforeAll(async () => {
    llm = await startLlmTestServer();
    fixtures = mkdtempSync(path.join(tmpdir(), 'published-'));
    csvPath = path.join(fixtures, 'sales.csv');
    writeFileSync(csvPath, CSV);
    t = await createTestApp({ OPENAI_BASE_URL: llm.baseUrls.openai ?? '' });
    baseUrl = t.url;
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await rm(fixtures, { recursive: true, force: true });
  });

  async function builtAgent(user: TestUser): Promise<string> {
    const id = await configureRagAgent(t.url, user, { file: csvPath });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id, userId: user.id, type: 'rag' },
      csvChunks('sales.csv', HEADER, ROWS),
      t.config,
    );
    return id;
  }

  async function publishedAgentWithKey(user: TestUser, rateLimit?: number) {
    const id = await builtAgent(user);
    await t.http.put(`/agents/${id}/publication`).set(user.auth).expect(200);
    const key = await t.http
      .post(`/agents/${id}/keys`)
      .set(user.auth)
      .send({ name: 'tests', rate_limit_per_minute: rateLimit })
      .expect(201);
    return { id, key: key.body.secret as string, keyId: key.body.id as string };
  }

  const client = (apiKey: string) =>
    new OpenAI({ apiKey, baseURL: `${baseUrl}/v1`, maxRetries: 0 });

  it('documents the API in the OpenAPI document', async () => {
    const { body } = await t.http.get('/docs-json').expect(200);
    const chat = body.paths['/agents/{id}/chat'].post;
    expect(chat.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/AgentChatRequestDto',
    );
    expect(chat.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/AgentChatAnswerDto',
    );
    expect(body.paths['/v1/chat/completions'].post.summary).toMatch(/OpenAI-compatible/);
    expect(body.paths['/agents/{id}/keys'].post).toBeDefined();
  });

  describe('publishing', () => {
    it('publishes only a Built agent, and only its owner can', async () => {
      const draft = await t.http
        .post('/pipelines')
        .set(alice.auth)
        .send({ name: `Draft ${Math.random()}`, agent_type: 'rag' })
        .expect(201);
      const refused = await t.http
        .put(`/agents/${draft.body.session_id}/publication`)
        .set(alice.auth)
        .expect(422);
      expect(refused.body.detail).toMatch(/Build the agent first/);

      const id = await builtAgent(alice);
      const missing = await t.http.put(`/agents/${id}/publication`).set(bob.auth).expect(404);
      const unknown = await t.http
        .put('/agents/00000000-0000-4000-8000-000000000000/publication')
        .set(bob.auth)
        .expect(404);
      expect(missing.body).toEqual(unknown.body);
      expect(await t.prisma.publication.count({ where: { pipelineId: id } })).toBe(0);

      const published = await t.http.put(`/agents/${id}/publication`).set(alice.auth).expect(200);
      const build = await t.prisma.build.findFirstOrThrow({ where: { pipelineId: id } });
      expect(published.body).toMatchObject({
        published: true,
        build_id: build.id,
        share_enabled: false,
        allowed_origins: [],
      });
      expect(published.body.api_url).toMatch(new RegExp(`/agents/${id}/chat$`));

      await t.http.delete(`/agents/${id}/publication`).set(bob.auth).expect(404);
      await t.http.delete(`/agents/${id}/publication`).set(alice.auth).expect(200);
      const after = await t.http.get(`/agents/${id}/publication`).set(alice.auth).expect(200);
      expect(after.body.published).toBe(false);
    });

    it('stores only a hash of an access key, shows it once and lists it masked', async () => {
      const { id, key, keyId } = await publishedAgentWithKey(alice);
      expect(key).toMatch(/^al_[A-Za-z0-9_-]{43}$/);
      const row = await t.prisma.agentAccessKey.findUniqueOrThrow({ where: { id: keyId } });
      expect(JSON.stringify(row)).not.toContain(key);
      const listed = await t.http.get(`/agents/${id}/keys`).set(alice.auth).expect(200);
      expect(listed.body).toEqual([
        expect.objectContaining({ id: keyId, key: `al_…${key.slice(-4)}`, revoked_at: null }),
      ]);
      expect(JSON.stringify(listed.body)).not.toContain(key);
      await t.http.get(`/agents/${id}/keys`).set(bob.auth).expect(404);
      await t.http.delete(`/agents/${id}/keys/${keyId}`).set(bob.auth).expect(404);
    });
  });

  describe('the API through the official openai client', () => {
    it('answers from the data, without streaming and streaming, with sources', async () => {
      const { id, key } = await publishedAgentWithKey(alice);
      const openai = client(key);
      const completion = await openai.chat.completions.create({
        model: id,
        messages: [{ role: 'user', content: 'How many Quokka umbrellas were sold in Lisbon?' }],
      });
      expect(completion.choices[0]?.message.content).toMatch(/Quokka umbrellas/);
      expect(completion.choices[0]?.message.content).toMatch(/7342/);
      const extra = completion as unknown as { sources: { citation: string }[] };
      expect(extra.sources[0]?.citation).toMatch(/sales\.csv/);

      const stream = await openai.chat.completions.create({
        model: id,
        stream: true,
        messages: [{ role: 'user', content: 'Which product sold in Porto?' }],
      });
      let text = '';
      let chunks = 0;
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        chunks += 1;
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expect(text).toMatch(/Lantern kits/);
      expect(chunks).toBeGreaterThan(2);
      expect(finish).toBe('stop');

      // The provider key never left the server; the key count went up by two.
      expect(JSON.stringify(completion)).not.toContain('sk-proj');
      // Counted beside the answer, not before it: wait for the second count to land.
      const countOf = async () =>
        (
          (await t.http.get(`/agents/${id}/keys`).set(alice.auth)).body as {
            request_count: number;
          }[]
        )[0]?.request_count;
      for (let tries = 0; tries < 50 && (await countOf()) !== 2; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await countOf()).toBe(2);
    });

    it("refuses a revoked key (401), another user's agent (404) and keys of an unpublished one (401)", async () => {
      const mine = await publishedAgentWithKey(alice);
      const theirs = await publishedAgentWithKey(bob);
      const ask = (key: string, model: string) =>
        client(key).chat.completions.create({
          model,
          messages: [{ role: 'user', content: 'Which product sold in Porto?' }],
        });

      await expect(ask(mine.key, theirs.id)).rejects.toMatchObject({ status: 404 });
      await expect(
        ask('al_madeUpKey0000000000000000000000000000000000', mine.id),
      ).rejects.toMatchObject({ status: 401 });

      await t.http.delete(`/agents/${mine.id}/keys/${mine.keyId}`).set(alice.auth).expect(200);
      const revoked = await ask(mine.key, mine.id).catch((error: unknown) => error);
      expect(revoked).toBeInstanceOf(OpenAI.AuthenticationError);

      // Unpublishing ends the agent's keys: published again, they stay refused (issue 27).
      await t.http.delete(`/agents/${theirs.id}/publication`).set(bob.auth).expect(200);
      const unpublished = await ask(theirs.key, theirs.id).catch((error: unknown) => error);
      expect(unpublished).toBeInstanceOf(OpenAI.AuthenticationError);
      await t.http.put(`/agents/${theirs.id}/publication`).set(bob.auth).expect(200);
      await expect(ask(theirs.key, theirs.id)).rejects.toMatchObject({ status: 401 });
    });

    it('answers 429 once a key is over its rate limit', async () => {
      const { id, key } = await publishedAgentWithKey(alice, 2);
      const ask = () =>
        client(key).chat.completions.create({
          model: id,
          messages: [{ role: 'user', content: 'Which product sold in Braga?' }],
        });
      await ask();
      await ask();
      const limited = await ask().catch((error: unknown) => error);
      expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
      expect((limited as Error).message).toMatch(/2 a minute/);
    });
  });

  describe('POST /agents/{id}/chat and conversations', () => {
    it('remembers the conversation, stores it with sources, and the owner can export and delete it', async () => {
      const { id, key } = await publishedAgentWithKey(alice);
      const auth = { Authorization: `Bearer ${key}` };
      const first = await t.http
        .post(`/agents/${id}/chat`)
        .set(auth)
        .send({ message: 'Which product sold in Lisbon?' })
        .expect(200);
      expect(first.body.answer).toMatch(/Quokka umbrellas/);
      expect(first.body.sources[0].citation).toMatch(/sales\.csv/);
      const conversationId = first.body.conversation_id as string;

      const before = llm.requests.length;
      const second = await t.http
        .post(`/agents/${id}/chat`)
        .set(auth)
        .send({ message: 'And in Braga?', conversation_id: conversationId, stream: true })
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (part: string) => (text += part));
          res.on('end', () => done(null, text));
        })
        .expect(200)
        .expect('Content-Type', /text\/event-stream/);
      const events = parseEvents(second.body as string);
      expect(events.map((event) => event.type)).toEqual(
        expect.arrayContaining(['conversation', 'retrieval', 'token', 'saved', 'done']),
      );
      expect(events.at(-1)?.type).toBe('done');
      // The model got the first turn before the new question.
      const sent = llm.requests
        .slice(before)
        .find((request) => request.path.startsWith('/v1/chat/completions'));
      const messages = (sent?.body as { messages: { role: string; content: unknown }[] }).messages;
      const contents = messages.map((message) => JSON.stringify(message.content));
      expect(contents.some((text) => text.includes('Which product sold in Lisbon?'))).toBe(true);
      expect(messages.filter((message) => message.role === 'assistant')).toHaveLength(1);

      const list = await t.http.get(`/agents/${id}/conversations`).set(alice.auth).expect(200);
      expect(list.body).toEqual([
        expect.objectContaining({ id: conversationId, channel: 'api', messages: 4 }),
      ]);
      await t.http.get(`/agents/${id}/conversations`).set(bob.auth).expect(404);
      const one = await t.http
        .get(`/agents/${id}/conversations/${conversationId}`)
        .set(alice.auth)
        .expect(200);
      expect(one.body.turns[1].sources[0].citation).toMatch(/sales\.csv/);

      const csv = await t.http
        .get(`/agents/${id}/conversations/export?format=csv`)
        .set(alice.auth)
        .expect(200)
        .expect('Content-Type', /text\/csv/)
        .expect('Content-Disposition', /attachment/);
      expect(csv.text.split('\r\n')[0]).toBe(
        'conversation_id,channel,message_id,role,content,sources,feedback,created_at',
      );
      expect(csv.text).toContain('And in Braga?');
      const json = await t.http
        .get(`/agents/${id}/conversations/export?format=json`)
        .set(alice.auth)
        .expect(200);
      expect(JSON.parse(json.text)[0].turns).toHaveLength(4);

      await t.http
        .delete(`/agents/${id}/conversations/${conversationId}`)
        .set(bob.auth)
        .expect(404);
      await t.http
        .delete(`/agents/${id}/conversations/${conversationId}`)
        .set(alice.auth)
        .expect(200);
      expect(await t.prisma.conversationMessage.count({ where: { conversationId } })).toBe(0);
      const gone = await t.http
        .post(`/agents/${id}/chat`)
        .set(auth)
        .send({ message: 'Still there?', conversation_id: conversationId })
        .expect(404);
      expect(gone.body.detail).toMatch(/conversation/);
    });

    it('keeps a conversation whose first answer failed, without the failed turn, so it can go on', async () => {
      const { id, key } = await publishedAgentWithKey(alice);
      const auth = { Authorization: `Bearer ${key}` };
      // The provider refuses the first question (a new conversation is stored with its first
      // answer, so this is the one path where it must be stored on its own).
      llm.failNext(401, 'Incorrect API key provided.');
      const failed = await t.http
        .post(`/agents/${id}/chat`)
        .set(auth)
        .send({ message: 'Which product sold in Porto?', stream: true })
        .buffer(true)
        .parse((res, done) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (part: string) => (text += part));
          res.on('end', () => done(null, text));
        })
        .expect(200);
      const events = parseEvents(failed.body as string);
      expect(events.map((event) => event.type)).toContain('error');
      expect(events.map((event) => event.type)).not.toContain('saved');
      const conversationId = (events[0] as { conversation_id?: string }).conversation_id!;
      expect(conversationId).toMatch(/^[0-9a-f-]{36}$/);

      const next = await t.http
        .post(`/agents/${id}/chat`)
        .set(auth)
        .send({ message: 'Which product sold in Braga?', conversation_id: conversationId })
        .expect(200);
      expect(next.body.answer).toMatch(/Tide clocks/);
      const stored = await t.prisma.conversationMessage.findMany({
        where: { conversationId },
        orderBy: { createdAt: 'asc' },
      });
      expect(stored.map((message) => [message.role, message.content])).toEqual([
        ['user', 'Which product sold in Braga?'],
        ['assistant', next.body.answer],
      ]);
    });

    it('answers {detail} errors: no key 401, bad body 400', async () => {
      const { id, key } = await publishedAgentWithKey(alice);
      const none = await t.http.post(`/agents/${id}/chat`).send({ message: 'hi' }).expect(401);
      expect(none.body.detail).toMatch(/access key/);
      const empty = await t.http
        .post(`/agents/${id}/chat`)
        .set({ Authorization: `Bearer ${key}` })
        .send({ message: '  ' })
        .expect(400);
      expect(empty.body.detail).toMatch(/Type a message first/);
    });
  });
});
