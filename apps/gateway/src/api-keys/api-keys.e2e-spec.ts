import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

const OPENAI_KEY = 'sk-proj-AbCdEfGh1234567890ijklMNOP';
const GROQ_KEY = 'gsk_ZYXWVUTS9876543210abcdefghij';

describe('API-key vault', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
  });
  afterAll(() => t.close());

  const addKey = (user: TestUser, body: object) =>
    t.http.post('/apikeys').set(user.auth).send(body);

  it('adds a key and lists it masked: first 8, "...", last 4', async () => {
    const created = await addKey(alice, {
      provider: 'OpenAI',
      key: OPENAI_KEY,
      name: 'work',
    }).expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      provider: 'openai',
      name: 'work',
      key: 'sk-proj-...MNOP',
      created_at: expect.any(String),
    });
    const list = await t.http.get('/apikeys').set(alice.auth).expect(200);
    expect(list.body).toContainEqual(created.body);
    expect(JSON.stringify(list.body)).not.toContain(OPENAI_KEY);
  });

  it('name is optional (the web app does not send it)', async () => {
    const created = await addKey(alice, { provider: 'groq', key: GROQ_KEY }).expect(201);
    expect(created.body).toMatchObject({ provider: 'groq', name: null, key: 'gsk_ZYXW...ghij' });
  });

  it('reveals the secret to its owner only', async () => {
    const { body } = await addKey(alice, {
      provider: 'gemini',
      key: 'AIzaSyA-1234567890-abcdefghijklmnop',
    }).expect(201);
    const secret = await t.http.get(`/apikeys/${body.id}/secret`).set(alice.auth).expect(200);
    expect(secret.body).toEqual({ key: 'AIzaSyA-1234567890-abcdefghijklmnop' });
  });

  it('encrypts keys at rest: the raw row holds no plain text', async () => {
    const { body } = await addKey(alice, {
      provider: 'deepseek',
      key: 'sk-deepseek-PLAINTEXT-CANARY-0001',
    }).expect(201);
    const rows = await t.prisma.$queryRaw<
      Array<Record<string, unknown>>
    >`SELECT * FROM api_keys WHERE id = ${body.id}::uuid`;
    expect(rows).toHaveLength(1);
    const raw = JSON.stringify(rows[0]);
    expect(raw).not.toContain('PLAINTEXT-CANARY');
    expect(String(rows[0]!.encrypted_key)).toMatch(/^v1\./);
  });

  it('a tampered ciphertext does not decrypt; the key still lists, masked as ********', async () => {
    const { body } = await addKey(alice, {
      provider: 'claude',
      key: 'sk-ant-api03-TAMPER-TARGET-xyz',
    }).expect(201);
    const row = await t.prisma.apiKey.findUniqueOrThrow({ where: { id: body.id } });
    const [v, iv, tag, ct] = row.encryptedKey.split('.');
    const bytes = Buffer.from(ct!, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    await t.prisma.apiKey.update({
      where: { id: body.id },
      data: { encryptedKey: [v, iv, tag, bytes.toString('base64url')].join('.') },
    });
    const secret = await t.http.get(`/apikeys/${body.id}/secret`).set(alice.auth).expect(500);
    expect(secret.body.detail).toMatch(/can no longer be decrypted/);
    const list = await t.http.get('/apikeys').set(alice.auth).expect(200);
    expect(list.body.find((k: { id: string }) => k.id === body.id).key).toBe('********');
    await t.http.delete(`/apikeys/${body.id}`).set(alice.auth).expect(200);
  });

  it("a ciphertext copied onto another user's row does not decrypt there", async () => {
    const { body: a } = await addKey(alice, {
      provider: 'openai',
      key: 'sk-alice-only-secret-0000000',
    }).expect(201);
    const { body: b } = await addKey(bob, {
      provider: 'openai',
      key: 'sk-bob-placeholder-000000000',
    }).expect(201);
    const aliceRow = await t.prisma.apiKey.findUniqueOrThrow({ where: { id: a.id } });
    await t.prisma.apiKey.update({
      where: { id: b.id },
      data: { encryptedKey: aliceRow.encryptedKey },
    });
    await t.http.get(`/apikeys/${b.id}/secret`).set(bob.auth).expect(500);
  });

  it("user B gets 404 for user A's key — reveal and delete — and A's key survives", async () => {
    const { body } = await addKey(alice, {
      provider: 'openai',
      key: 'sk-owned-by-alice-1234567890',
    }).expect(201);
    const reveal = await t.http.get(`/apikeys/${body.id}/secret`).set(bob.auth).expect(404);
    const missing = await t.http
      .get('/apikeys/00000000-0000-4000-8000-000000000000/secret')
      .set(bob.auth)
      .expect(404);
    expect(reveal.body).toEqual(missing.body);
    await t.http.delete(`/apikeys/${body.id}`).set(bob.auth).expect(404);
    const bobsList = await t.http.get('/apikeys').set(bob.auth).expect(200);
    expect(bobsList.body.map((k: { id: string }) => k.id)).not.toContain(body.id);
    await t.http.get(`/apikeys/${body.id}/secret`).set(alice.auth).expect(200);
  });

  it('a key added or deleted through one replica shows in the list of another at once', async () => {
    const replica = await createTestApp();
    await replica.http.get('/apikeys').set(alice.auth).expect(200); // cached there
    const { body } = await addKey(alice, {
      provider: 'openai',
      key: 'sk-replica-visible-12345678',
    }).expect(201);
    const listed = await replica.http.get('/apikeys').set(alice.auth).expect(200);
    expect(listed.body.map((k: { id: string }) => k.id)).toContain(body.id);
    await t.http.delete(`/apikeys/${body.id}`).set(alice.auth).expect(200);
    const after = await replica.http.get('/apikeys').set(alice.auth).expect(200);
    expect(after.body.map((k: { id: string }) => k.id)).not.toContain(body.id);
    await replica.close();
  });

  it('deletes a key', async () => {
    const { body } = await addKey(alice, {
      provider: 'openai',
      key: 'sk-delete-me-1234567890abcd',
    }).expect(201);
    const res = await t.http.delete(`/apikeys/${body.id}`).set(alice.auth).expect(200);
    expect(res.body).toEqual({ message: 'API key removed' });
    await t.http.get(`/apikeys/${body.id}/secret`).set(alice.auth).expect(404);
    await t.http.delete(`/apikeys/${body.id}`).set(alice.auth).expect(404);
  });

  it('a malformed id answers 404 like any unknown id', async () => {
    await t.http.get('/apikeys/not-a-uuid/secret').set(alice.auth).expect(404);
    await t.http.delete('/apikeys/not-a-uuid').set(alice.auth).expect(404);
  });

  it.each([
    [
      'an unknown provider',
      { provider: 'mistral', key: OPENAI_KEY },
      /^provider: Provider must be one of: openai, claude, groq, gemini, deepseek\.$/,
    ],
    ['a missing key', { provider: 'openai' }, /^key: Key is required\.$/],
    ['a missing provider', { key: OPENAI_KEY }, /^provider: Provider is required\.$/],
    [
      'a too-short key',
      { provider: 'openai', key: 'sk-short' },
      /^key: Key must be at least 16 characters\.$/,
    ],
  ])('refuses %s with 400', async (_case, body, detail) => {
    const res = await addKey(alice, body).expect(400);
    expect(res.body.detail).toMatch(detail);
  });

  it('a request body cannot choose the owner, id or date', async () => {
    const res = await addKey(alice, {
      provider: 'openai',
      key: 'sk-mass-assignment-check-123',
      userId: bob.id,
      user_id: bob.id,
      id: '00000000-0000-4000-8000-000000000000',
      created_at: '2000-01-01T00:00:00.000Z',
    }).expect(201);
    expect(res.body.id).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(res.body.created_at).not.toMatch(/^2000/);
    const row = await t.prisma.apiKey.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.userId).toBe(alice.id);
  });

  it('names the agents set up with a key, and whether each is published (404 for others)', async () => {
    const key = await addKey(alice, { provider: 'openai', key: OPENAI_KEY }).expect(201);
    const unused = await t.http.get(`/apikeys/${key.body.id}/usage`).set(alice.auth).expect(200);
    expect(unused.body).toEqual({ agents: [] });

    const agent = await t.http
      .post('/pipelines')
      .set(alice.auth)
      .send({ name: `Bakery helper ${Date.now()}`, agent_type: 'rag' })
      .expect(201);
    const id = agent.body.session_id as string;
    await t.prisma.pipeline.update({ where: { id }, data: { llmApiKeyId: key.body.id } });
    const used = await t.http.get(`/apikeys/${key.body.id}/usage`).set(alice.auth).expect(200);
    expect(used.body).toEqual({
      agents: [
        { id, name: expect.stringMatching(/^Bakery helper/), status: 'Draft', published: false },
      ],
    });
    await t.http.get(`/apikeys/${key.body.id}/usage`).set(bob.auth).expect(404);
  });
});
