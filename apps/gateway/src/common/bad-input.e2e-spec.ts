import { WIZARD_ROUTES, wizardRoute } from '@agentloom/contracts';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

/** Client mistakes answer 4xx with a {detail}, never a 500 (issue 16, finding 8). */
describe('bad input answers 4xx with a detail', () => {
  let t: TestApp;
  let alice: TestUser;
  let sessionId: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.url, 'badinput');
    const { body } = await t.http
      .post('/pipelines')
      .set(alice.auth)
      .send({ name: 'Bad input', agent_type: 'rag' })
      .expect(201);
    sessionId = body.session_id as string;
  });
  afterAll(() => t.close());

  const form = (step: string, fields: Record<string, string>) =>
    t.http.post(wizardRoute('rag', step)).set(alice.auth).type('form').send(fields);

  it('refuses a NUL character in an agent name', async () => {
    const res = await t.http
      .post('/pipelines')
      .set(alice.auth)
      .send({ name: 'evil\u0000name', agent_type: 'rag' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'name: must not contain NUL characters.' });
  });

  it('refuses a NUL character in a system prompt', async () => {
    const res = await form('systemPrompt', { session_id: sessionId, prompt: 'Be kind\u0000.' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/must not contain NUL characters\.$/);
  });

  it('refuses a NUL character in an uploaded file name', async () => {
    const res = await t.http
      .post(WIZARD_ROUTES.rag.upload)
      .set(alice.auth)
      .field('session_id', sessionId)
      .attach('file', Buffer.from('some text'), { filename: 'notes\u0000.txt' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(
      /^The (file name contains control characters|upload could not be read)/,
    );
  });

  it('answers 413 to a JSON body over 1 MB', async () => {
    const res = await t.http
      .post('/pipelines')
      .set(alice.auth)
      .send({ name: 'x'.repeat(1_100_000), agent_type: 'rag' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: 'The request body is too large. Send at most 1 MB.' });
  });

  it('answers 413 to a form body over 1 MB', async () => {
    const res = await form('systemPrompt', {
      session_id: sessionId,
      prompt: 'x'.repeat(1_100_000),
    });
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe('The request body is too large. Send at most 1 MB.');
  });

  it('answers 413 to a form with more than 1000 fields', async () => {
    const fields = Object.fromEntries(
      Array.from({ length: 1001 }, (_, n) => [`field${n}`, 'x'] as const),
    );
    const res = await form('systemPrompt', { ...fields, session_id: sessionId, prompt: 'hi' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: 'The form has too many fields. Send at most 1000.' });
  });

  it('answers 400 to a body that is not valid JSON', async () => {
    const res = await t.http
      .post('/pipelines')
      .set(alice.auth)
      .set('Content-Type', 'application/json')
      .send('{"name": ');
    expect(res.status).toBe(400);
    expect(typeof res.body.detail).toBe('string');
  });

  it('answers 4xx to an IPv4-in-IPv6 loopback database URI', async () => {
    const res = await form('database', {
      session_id: sessionId,
      source_type: 'mysql',
      uri: 'mysql://root@[::127.0.0.1]:3306/mysql',
      database: 'mysql',
      collection_or_table: 'user',
    });
    expect([400, 422]).toContain(res.status);
    expect(typeof res.body.detail).toBe('string');
  });

  // Issue 27, finding 9: `Host: a b` was answered 200.
  it.each(['a b', 'a/b', 'exa mple.com:80', 'host:port', '[::1'])(
    'answers 400 to a Host header that names no host (%j)',
    async (host) => {
      const res = await t.http.get('/health/live').set('Host', host);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        detail: expect.stringMatching(/^The Host header is not a valid/),
      });
    },
  );

  it.each([
    'localhost:5173',
    'agents.example.com',
    '127.0.0.1:8000',
    '[::1]:8000',
    'agent_runtime',
  ])('serves a Host header that names a host (%j)', async (host) => {
    await t.http.get('/health/live').set('Host', host).expect(200);
  });
});
