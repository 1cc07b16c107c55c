import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { configureRagAgent, signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csvChunks, markBuilt } from '../testing/built-agents';
import { routeInventory } from '../testing/route-inventory';
import { createTestApp, type TestApp } from '../testing/test-app';
import { CONVERSATION_NOT_FOUND } from './published-agents.service';
import {
  CROSS_SITE_REFUSED,
  JSON_ONLY,
  ORIGIN_NOT_ALLOWED,
  SESSION_REFUSED,
} from './visitor-access';
import { answerIds, openVisitor, visitorWith } from './visitors.spec-helper';

/**
 * Who may talk to a published agent, and about what (issue 27, findings 2 to 5): a conversation
 * belongs to the channel and caller that started it; the share page and widget answer only their
 * own pages, as JSON; no body is a 500; `messages` history is bounded.
 */
const HEADER = ['region', 'product', 'units'];
const ROWS = [['Porto', 'Lantern kits', '1204']];
const SITE = 'https://shop.example.com';
const SECRET = 'my locker code is kumquat-4711';

describe('published agents: callers and their conversations', () => {
  let llm: LlmTestServer;
  let t: TestApp;
  let alice: TestUser;
  let fixtures: string;
  let id: string;
  let keys: { id: string; secret: string }[];

  const api = (key: string, body: object) =>
    t.http.post(`/agents/${id}/chat`).set('Authorization', `Bearer ${key}`).send(body);
  const sentToModel = (since: number) =>
    JSON.stringify(llm.requests.slice(since).map((r) => r.body));

  beforeAll(async () => {
    llm = await startLlmTestServer();
    fixtures = mkdtempSync(path.join(tmpdir(), 'callers-'));
    const csvPath = path.join(fixtures, 'sales.csv');
    writeFileSync(csvPath, [HEADER, ...ROWS].map((row) => row.join(',')).join('\n') + '\n');
    t = await createTestApp({ OPENAI_BASE_URL: llm.baseUrls.openai ?? '' });
    alice = await signUpAndLogIn(t.url, 'alice');
    id = await configureRagAgent(t.url, alice, { file: csvPath });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id, userId: alice.id, type: 'rag' },
      csvChunks('sales.csv', HEADER, ROWS),
      t.config,
    );
    await t.http.put(`/agents/${id}/publication`).set(alice.auth).expect(200);
    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ share_enabled: true, allowed_origins: [SITE] })
      .expect(200);
    keys = [];
    for (const name of ['first', 'second']) {
      const key = await t.http.post(`/agents/${id}/keys`).set(alice.auth).send({ name });
      keys.push({ id: key.body.id as string, secret: key.body.secret as string });
    }
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await rm(fixtures, { recursive: true, force: true });
  });

  // Finding 2: another key, an anonymous visitor and a revoked key continued the conversation,
  // and the model received the first caller's words.
  it('continues an API conversation for the key that started it only', async () => {
    const first = await api(keys[0]!.secret, { message: SECRET }).expect(200);
    const conversationId = first.body.conversation_id as string;
    const since = llm.requests.length;
    const other = await api(keys[1]!.secret, {
      message: 'What did I say?',
      conversation_id: conversationId,
    });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: CONVERSATION_NOT_FOUND });
    const visitor = await openVisitor(t, id);
    const anonymous = await visitor.send('What did I say?', conversationId);
    expect(anonymous.status).toBe(404);
    expect(JSON.parse(anonymous.text)).toEqual({ detail: CONVERSATION_NOT_FOUND });
    expect(sentToModel(since)).not.toContain('kumquat');

    await api(keys[0]!.secret, { message: 'Still there?', conversation_id: conversationId }).expect(
      200,
    );
    await t.http.delete(`/agents/${id}/keys/${keys[0]!.id}`).set(alice.auth).expect(200);
    await api(keys[0]!.secret, { message: 'And now?', conversation_id: conversationId }).expect(
      401,
    );
    expect((await visitor.send('And now?', conversationId)).status).toBe(404);
  });

  it("continues and rates a visitor's conversation for that visitor's page only", async () => {
    const alicePage = await openVisitor(t, id, SITE);
    const started = await alicePage.send(SECRET);
    expect(started.status).toBe(200);
    const { conversationId, messageId } = answerIds(started.text);
    const since = llm.requests.length;
    for (const stranger of [await openVisitor(t, id, SITE), await openVisitor(t, id)]) {
      const res = await stranger.send('What did I say?', conversationId);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text)).toEqual({ detail: CONVERSATION_NOT_FOUND });
      expect((await stranger.rate(messageId, conversationId, 'down')).status).toBe(404);
    }
    const key = await api(keys[1]!.secret, {
      message: 'What did I say?',
      conversation_id: conversationId,
    });
    expect(key.status).toBe(404);
    expect(sentToModel(since)).not.toContain('kumquat');
    expect((await alicePage.send('Thanks', conversationId)).status).toBe(200);
    expect((await alicePage.rate(messageId, conversationId, 'up')).status).toBe(200);
  });

  // Finding 3: any site could post blind questions (and form posts) to the widget's endpoint.
  it('answers widget and share calls from their own pages only, as JSON', async () => {
    const visitor = await openVisitor(t, id, SITE);
    const message = (origin: string | undefined, session = visitor.session) => {
      const req = t.http.post(`/w/${id}/messages`).set('X-Visitor-Session', session);
      return (origin ? req.set('Origin', origin) : req).send({ message: 'Hello' });
    };
    for (const origin of [SITE, 'https://evil.example.net', undefined]) {
      const res = await message(origin);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: CROSS_SITE_REFUSED });
    }
    const form = await t.http
      .post(`/w/${id}/messages`)
      .set('Origin', t.url)
      .type('form')
      .send({ message: 'Hello' });
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ detail: JSON_ONLY });
    for (const session of ['', 'forged.session', `${visitor.session}x`]) {
      expect((await message(t.url, session)).body).toEqual({ detail: SESSION_REFUSED });
    }
  });

  it('opens the widget frame only framed for an allowed site, and stops when the owner says so', async () => {
    const frame = (site: string | null, destination = 'iframe') =>
      t.http
        .get(`/w/${id}/chat${site ? `?site=${encodeURIComponent(site)}` : ''}`)
        .set('Sec-Fetch-Dest', destination);
    await frame(SITE).expect(200);
    await frame(SITE, 'document').expect(403);
    await frame(null).expect(403);
    await frame('https://evil.example.net').expect(403);

    const widget = await openVisitor(t, id, SITE);
    const share = await openVisitor(t, id);
    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ share_enabled: false, allowed_origins: ['https://other.example.com'] })
      .expect(200);
    const refused = await widget.send('Hello');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toEqual({ detail: ORIGIN_NOT_ALLOWED });
    expect((await share.send('Hello')).status).toBe(404);
    await t.http.get(`/s/${id}/`).expect(404);
    // A session is one agent's: it does not open another's.
    const other = visitorWith(t, '00000000-0000-4000-8000-000000000000', share.session);
    expect((await other.send('Hello')).status).toBe(403);
    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ share_enabled: true, allowed_origins: [SITE] })
      .expect(200);
  });

  // Finding 4: no body, or a text body, answered 500 ("reading 'via'").
  it('answers 400 with a detail for a missing or text body on the visitor routes', async () => {
    for (const path of [`/w/${id}/messages`, `/w/${id}/messages/${keys[0]!.id}/feedback`]) {
      const empty = await t.http.post(path).set('Origin', t.url);
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ detail: JSON_ONLY });
      const text = await t.http.post(path).set('Origin', t.url).type('text').send('hello');
      expect(text.status).toBe(400);
      expect(text.body).toEqual({ detail: JSON_ONLY });
    }
  });

  it('answers every POST route without a body, or with a text body, with a 4xx and words', async () => {
    const posts = routeInventory(t.app.getHttpAdapter().getInstance()).filter((r) =>
      r.startsWith('POST '),
    );
    expect(posts).toContain('POST /w/:id/messages');
    for (const route of posts) {
      const url = route
        .slice(5)
        .replace(':id', id)
        .replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000');
      for (const send of [
        () => t.http.post(url).set('Origin', t.url),
        () => t.http.post(url).set('Origin', t.url).type('text').send('hello'),
      ]) {
        const res = await send();
        expect({ route, status: res.status < 500 && res.status >= 400 }).toEqual({
          route,
          status: true,
        });
        const words = (res.body as { detail?: string; error?: { message?: string } }) ?? {};
        expect(words.detail ?? words.error?.message).toEqual(expect.any(String));
      }
    }
  });

  // Finding 5: twelve 60,000-character turns reached the provider in one call (720,649 characters).
  it('takes only what the memory holds from OpenAI-style messages', async () => {
    const long = 'x'.repeat(60_000);
    const messages = Array.from({ length: 12 }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `${i}:${long}`,
    }));
    const since = llm.requests.length;
    const res = await t.http
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${keys[1]!.secret}`)
      .send({ model: id, messages: [...messages, { role: 'user', content: 'Which product?' }] });
    expect(res.status).toBe(200);
    const sent = sentToModel(since);
    // The default memory: 6 pairs of 4,000 characters, whatever `messages` holds.
    expect(sent.length).toBeLessThan(6 * 4_000 + 20_000);
    expect(sent).toContain('Which product?');
    expect(sent).not.toContain('0:x');
  });

  // Finding 9: keys survived unpublishing and worked again once the agent was published again.
  it('ends the access keys with the publication: published again, an old key is refused', async () => {
    await api(keys[1]!.secret, { message: 'Hello' }).expect(200);
    await t.http.delete(`/agents/${id}/publication`).set(alice.auth).expect(200);
    await t.http.put(`/agents/${id}/publication`).set(alice.auth).expect(200);
    const refused = await api(keys[1]!.secret, { message: 'Hello' });
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/^This access key is not valid or was revoked/);
    const listed = await t.http.get(`/agents/${id}/keys`).set(alice.auth).expect(200);
    expect(listed.body).toContainEqual(
      expect.objectContaining({ id: keys[1]!.id, revoked_at: expect.any(String) }),
    );
    const fresh = await t.http.post(`/agents/${id}/keys`).set(alice.auth).send({}).expect(201);
    await api(fresh.body.secret as string, { message: 'Hello' }).expect(200);
  });
});
