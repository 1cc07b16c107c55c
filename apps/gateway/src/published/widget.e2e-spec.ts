import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csvChunks, markBuilt } from '../testing/built-agents';
import {
  configureRagAgent,
  serverSentEvents,
  signUpAndLogIn,
  type TestUser,
} from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import { answerIds, openVisitor } from './visitors.spec-helper';

const HEADER = ['region', 'product', 'units'];
const ROWS = [
  ['Porto', 'Lantern kits', '1204'],
  ['Lisbon', 'Quokka umbrellas', '7342'],
];
const ALLOWED = 'https://shop.example.com';

describe('share page and widget of a published agent', () => {
  let llm: LlmTestServer;
  let t: TestApp;
  let alice: TestUser;
  let fixtures: string;
  let id: string;

  beforeAll(async () => {
    llm = await startLlmTestServer();
    fixtures = mkdtempSync(path.join(tmpdir(), 'widget-'));
    const csvPath = path.join(fixtures, 'sales.csv');
    writeFileSync(csvPath, [HEADER, ...ROWS].map((row) => row.join(',')).join('\n') + '\n');
    t = await createTestApp({
      OPENAI_BASE_URL: llm.baseUrls.openai ?? '',
      PUBLISHED_VISITOR_RATE_PER_MINUTE: '3',
    });
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
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await rm(fixtures, { recursive: true, force: true });
  });

  it('keeps the share page and the widget off until the owner turns them on', async () => {
    await t.http.get(`/s/${id}/`).expect(404).expect('Content-Type', /html/);
    await t.http.get(`/w/${id}/chat?site=${encodeURIComponent(ALLOWED)}`).expect(404);
    await t.http.get(`/w/${id}/config`).set('Origin', ALLOWED).expect(404);
  });

  it('serves the share page when on, and nobody may frame it', async () => {
    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ share_enabled: true })
      .expect(200);
    const page = await t.http.get(`/s/${id}/`).expect(200);
    expect(page.text).toContain('<script src="/w/_assets/published-chat.js"');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const visitor = await openVisitor(t, id);
    const answer = await visitor.send('Which product sold in Porto?');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('Lantern kits');
    expect(answer.text).not.toContain('sk-proj');
    const stored = await t.prisma.conversation.findFirstOrThrow({
      where: { pipelineId: id, channel: 'share' },
    });
    expect(stored.userId).toBe(alice.id);
  });

  it('lets only the allowed sites embed the widget', async () => {
    const bad = await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ allowed_origins: ['ftp://shop.example.com'] })
      .expect(400);
    expect(bad.body.detail).toMatch(/web address such as www\.example\.com/);
    // Sites as people write them: a page's address is its site (a plain domain: next test).
    const written = await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({
        allowed_origins: ['https://www.RoseBakery.com', 'https://shop.example.com/contact?x=1'],
      })
      .expect(200);
    expect(written.body.allowed_origins).toEqual([
      'https://www.rosebakery.com',
      'https://shop.example.com',
    ]);
    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ allowed_origins: [ALLOWED] })
      .expect(200);

    const allowed = await t.http.get(`/w/${id}/config`).set('Origin', ALLOWED).expect(200);
    expect(allowed.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(allowed.body.chat_url).toBe(
      `http://localhost:5173/w/${id}/chat?site=${encodeURIComponent(ALLOWED)}`,
    );
    const other = await t.http
      .get(`/w/${id}/config`)
      .set('Origin', 'https://evil.example.net')
      .expect(403);
    expect(other.body.detail).toMatch(/may not embed/);

    // The owner sees the refused site in the publication, until it is allowed (issue 30).
    const seen = await t.http.get(`/agents/${id}/publication`).set(alice.auth).expect(200);
    expect(seen.body.refused_origins).toEqual([
      { origin: 'https://evil.example.net', last_seen: expect.any(String) },
    ]);
    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ allowed_origins: [ALLOWED, 'https://evil.example.net'] })
      .expect(200);
    const cleared = await t.http.get(`/agents/${id}/publication`).set(alice.auth).expect(200);
    expect(cleared.body.refused_origins).toEqual([]);
    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ allowed_origins: [ALLOWED] })
      .expect(200);

    const frame = await t.http
      .get(`/w/${id}/chat?site=${encodeURIComponent(ALLOWED)}`)
      .set('Sec-Fetch-Dest', 'iframe')
      .expect(200);
    expect(frame.headers['content-security-policy']).toContain(`frame-ancestors ${ALLOWED}`);
    expect(frame.headers['x-frame-options']).toBeUndefined();
    await t.http
      .get('/w/widget.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
  });

  it('keeps the scheme as typed, and lets a plain domain embed over http too (issue 43, item 7)', async () => {
    const written = await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ allowed_origins: ['www.RoseBakery.com', 'http://127.0.0.1:8080/test.html'] })
      .expect(200);
    expect(written.body.allowed_origins).toEqual([
      'https://www.rosebakery.com',
      'http://www.rosebakery.com',
      'http://127.0.0.1:8080',
    ]);
    // The owner's http test page of a plain domain is answered, as is the typed http page…
    for (const origin of ['http://www.rosebakery.com', 'http://127.0.0.1:8080']) {
      const answered = await t.http.get(`/w/${id}/config`).set('Origin', origin).expect(200);
      expect(answered.body.chat_url).toContain(`site=${encodeURIComponent(origin)}`);
      await t.http
        .get(`/w/${id}/chat?site=${encodeURIComponent(origin)}`)
        .set('Sec-Fetch-Dest', 'iframe')
        .expect(200)
        .expect('Content-Security-Policy', new RegExp(`frame-ancestors ${origin}`));
    }
    // …and a scheme typed is kept: no https page is added for http://127.0.0.1:8080.
    await t.http.get(`/w/${id}/config`).set('Origin', 'https://127.0.0.1:8080').expect(403);
    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ allowed_origins: [ALLOWED] })
      .expect(200);
  });

  it('keeps a table agent’s rows from visitors until its owner shows sources (issue 30)', async () => {
    await t.redis.client.del(...(await t.redis.client.keys('agentloom:published-rate:visitor:*')));
    const publication = await t.http.get(`/agents/${id}/publication`).set(alice.auth).expect(200);
    expect(publication.body).toMatchObject({ show_sources: false, source_is_table: true });
    const retrievedRows = (text: string) =>
      serverSentEvents<{ type: string; sources?: unknown[] }>(text)
        .filter((event) => event.type === 'retrieval' || event.type === 'saved')
        .map((event) => event.sources?.length ?? 0);

    const hidden = await (await openVisitor(t, id, ALLOWED)).send('Which product sold in Lisbon?');
    expect(hidden.status).toBe(200);
    expect(retrievedRows(hidden.text)).toEqual([0, 0]);
    // The owner's record of the conversation keeps them.
    const { conversationId } = answerIds(hidden.text);
    const stored = await t.http
      .get(`/agents/${id}/conversations/${conversationId}`)
      .set(alice.auth)
      .expect(200);
    const answerTurn = (stored.body.turns as { role: string; sources: unknown[] }[]).find(
      (turn) => turn.role === 'assistant',
    );
    expect(answerTurn?.sources.length).toBeGreaterThan(0);

    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ show_sources: true })
      .expect(200);
    const shown = await (await openVisitor(t, id, ALLOWED)).send('Which product sold in Lisbon?');
    expect(retrievedRows(shown.text).every((count) => count > 0)).toBe(true);
    await t.http
      .patch(`/agents/${id}/publication`)
      .set(alice.auth)
      .send({ show_sources: false })
      .expect(200);
  });

  it('takes visitor feedback on an answer and limits each visitor', async () => {
    await t.redis.client.del(...(await t.redis.client.keys('agentloom:published-rate:visitor:*')));
    const visitor = await openVisitor(t, id, ALLOWED);
    const answer = await visitor.send('Which product sold in Lisbon?');
    expect(answer.status).toBe(200);
    const { conversationId, messageId } = answerIds(answer.text);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await visitor.rate(messageId, unknown, 'down')).status).toBe(404);
    expect((await visitor.rate(messageId, conversationId, 'down')).status).toBe(200);
    const list = await t.http.get(`/agents/${id}/conversations`).set(alice.auth).expect(200);
    expect(list.body).toContainEqual(
      expect.objectContaining({ id: conversationId, channel: 'widget', thumbs_down: 1 }),
    );

    expect((await visitor.send('Again?', conversationId)).status).toBe(200);
    expect((await visitor.send('And again?', conversationId)).status).toBe(200);
    const limited = await visitor.send('Once more?', conversationId);
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.text).detail).toMatch(/3 a minute/);
  });
});
