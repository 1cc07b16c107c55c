import { WIZARD_ROUTES } from '@agentloom/contracts';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

const GOOD_KEY = 'sk-good-key-abcdefghijklmnop';
const REVOKED_KEY = 'sk-revoked-key-abcdefghijkl';

describe(`POST ${WIZARD_ROUTES.keyCheck}`, () => {
  let llm: LlmTestServer;
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    llm = await startLlmTestServer({ rejectedKeys: [REVOKED_KEY] });
    t = await createTestApp({
      OPENAI_BASE_URL: llm.baseUrls.openai ?? '',
      ANTHROPIC_BASE_URL: llm.baseUrls.claude ?? '',
      GEMINI_BASE_URL: llm.baseUrls.gemini ?? '',
    });
    alice = await signUpAndLogIn(t.url, 'keycheck');
    bob = await signUpAndLogIn(t.url, 'keycheckb');
  });

  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  const check = (user: TestUser, body: object) =>
    t.http.post(WIZARD_ROUTES.keyCheck).set(user.auth).send(body);

  it("lists the provider's models for a key it accepts", async () => {
    const { body } = await check(alice, { provider: 'openai', api_key: GOOD_KEY }).expect(200);
    expect(body.ok).toBe(true);
    expect(body.models).toEqual(expect.arrayContaining(['gpt-4o-mini', 'gpt-4.1-nano']));
    expect(body.models).not.toContain('whisper-1');
    expect(body.detail).toBe(`Connected — ${body.models.length} models available`);
    const listed = llm.requests.find((request) => request.path === '/v1/models');
    expect(listed?.headers.authorization).toBe(`Bearer ${GOOD_KEY}`);
  });

  it("answers the provider's verdict on a refused key, without the key", async () => {
    for (const [provider, name] of [
      ['openai', 'OpenAI'],
      ['claude', 'Claude'],
      ['gemini', 'Gemini'],
    ]) {
      const { body } = await check(alice, { provider, api_key: REVOKED_KEY }).expect(200);
      expect(body).toEqual({
        ok: false,
        rejected: true,
        models: [],
        detail: expect.stringMatching(new RegExp(`^${name} rejected this key\\.`)),
      });
      expect(JSON.stringify(body)).not.toContain(REVOKED_KEY);
    }
  });

  it('checks a vault key of the caller, and only theirs', async () => {
    const saved = await t.http
      .post('/apikeys')
      .set(alice.auth)
      .send({ provider: 'claude', key: GOOD_KEY, name: 'work' })
      .expect(201);
    const { body } = await check(alice, {
      provider: 'claude',
      api_key_id: saved.body.id,
    }).expect(200);
    expect(body.ok).toBe(true);
    expect(body.models).toContain('claude-3-5-haiku-20241022');
    await check(bob, { provider: 'claude', api_key_id: saved.body.id }).expect(404);
  });

  it('asks for a key in plain words', async () => {
    const { body } = await check(alice, { provider: 'openai' }).expect(400);
    expect(body.detail).toBe('Enter an API key or choose a saved key.');
  });
});
