import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

describe('Pipelines', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
  });
  afterAll(() => t.close());

  const create = (user: TestUser, body: object) =>
    t.http.post('/pipelines').set(user.auth).send(body);

  it('creates a pipeline whose id is the wizard session id', async () => {
    const { body } = await create(alice, { name: '  Sales helper ', agent_type: 'rag' }).expect(
      201,
    );
    expect(body).toEqual({
      session_id: body.id,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Sales helper',
      agent_type: 'rag',
      status: 'Draft',
      created_at: expect.any(String),
    });
  });

  it('refuses a second pipeline with the same name (any case) with 409 naming it', async () => {
    await create(alice, { name: 'Duplicate me', agent_type: 'sql' }).expect(201);
    const { body } = await create(alice, { name: 'duplicate ME', agent_type: 'rag' }).expect(409);
    expect(body.detail).toBe(
      'You already have an agent named "duplicate ME". Choose another name.',
    );
    // Another user may use the name.
    await create(bob, { name: 'Duplicate me', agent_type: 'sql' }).expect(201);
  });

  it.each([
    [{ agent_type: 'rag' }, 'Agent name and type are required.'],
    [{ name: '   ', agent_type: 'rag' }, 'Agent name and type are required.'],
    [{ name: 'x' }, 'Agent name and type are required.'],
    [{ agent_type: 'sql' }, 'Agent name is required.'],
    [{ name: 'x', agent_type: 'image' }, 'agent_type must be rag or sql.'],
    [{ name: 'n'.repeat(101), agent_type: 'rag' }, 'Agent name must be at most 100 characters.'],
  ])('refuses %j with 400 "%s"', async (payload, detail) => {
    const { body } = await create(alice, payload).expect(400);
    expect(body).toEqual({ detail });
  });

  it('ignores owner, status, id and timestamps in the body (no mass assignment)', async () => {
    const { body } = await create(alice, {
      name: 'Mass assignment',
      agent_type: 'rag',
      status: 'Built',
      id: '00000000-0000-4000-8000-000000000000',
      userId: bob.id,
      user_id: bob.id,
      created_at: '2001-01-01T00:00:00.000Z',
    }).expect(201);
    expect(body.status).toBe('Draft');
    expect(body.id).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(body.created_at).not.toBe('2001-01-01T00:00:00.000Z');
    const row = await t.prisma.pipeline.findUniqueOrThrow({ where: { id: body.id } });
    expect(row.userId).toBe(alice.id);
  });

  it('lists only the caller’s agents, newest first, with a human description', async () => {
    const carol = await signUpAndLogIn(t.url, 'carol');
    const first = await create(carol, { name: 'First', agent_type: 'rag' }).expect(201);
    const second = await create(carol, { name: 'Second', agent_type: 'sql' }).expect(201);
    const { body } = await t.http.get('/pipelines').set(carol.auth).expect(200);
    expect(body).toEqual([
      {
        id: second.body.id,
        name: 'Second',
        description: 'SQL agent · not configured yet',
        status: 'Draft',
        type: 'sql',
        created_at: second.body.created_at,
      },
      {
        id: first.body.id,
        name: 'First',
        description: 'RAG agent · not configured yet',
        status: 'Draft',
        type: 'rag',
        created_at: first.body.created_at,
      },
    ]);
  });

  it('shows a new pipeline’s details with every step but the name still to do', async () => {
    const created = await create(alice, { name: 'Details', agent_type: 'sql' }).expect(201);
    const { body } = await t.http.get(`/pipelines/${created.body.id}`).set(alice.auth).expect(200);
    expect(body).toMatchObject({
      id: created.body.id,
      session_id: created.body.id,
      agent_type: 'sql',
      status: 'Draft',
      config: {
        source_type: null,
        file: null,
        database: null,
        llm: { provider: null, model: null, api_key: null, api_key_id: null },
        system_prompt: null,
        framework: null,
        ui: null,
      },
      missing_steps: [
        'Source Type',
        'Source Details',
        'LLM Provider',
        'System Prompt',
        'Framework',
        'UI Type',
      ],
    });
    expect(body.steps[0]).toEqual({ key: 'name', label: 'Agent Name', complete: true });
  });

  it('answers 404 for another user’s pipeline, a malformed id and a missing one — and deletes nothing', async () => {
    const created = await create(alice, { name: 'Private', agent_type: 'rag' }).expect(201);
    const id = created.body.id as string;
    for (const path of [
      `/pipelines/${id}`,
      '/pipelines/not-a-uuid',
      '/pipelines/00000000-0000-4000-8000-000000000000',
    ]) {
      const user = path.includes(id) ? bob : alice;
      expect((await t.http.get(path).set(user.auth).expect(404)).body).toEqual({
        detail: 'Agent not found.',
      });
    }
    await t.http.delete(`/pipelines/${id}`).set(bob.auth).expect(404);
    await t.http.get(`/pipelines/${id}`).set(alice.auth).expect(200);
  });

  it('deletes the owner’s pipeline', async () => {
    const created = await create(alice, { name: 'Short-lived', agent_type: 'rag' }).expect(201);
    const { body } = await t.http
      .delete(`/pipelines/${created.body.id}`)
      .set(alice.auth)
      .expect(200);
    expect(body).toEqual({ message: 'Agent deleted' });
    await t.http.get(`/pipelines/${created.body.id}`).set(alice.auth).expect(404);
    expect(await t.prisma.pipeline.count({ where: { id: created.body.id } })).toBe(0);
  });

  it('renames an agent in place: no second agent, one name per user, 404 for others', async () => {
    const created = await create(alice, { name: 'Old name', agent_type: 'rag' }).expect(201);
    const id = created.body.session_id as string;
    const before = await t.prisma.pipeline.count({ where: { userId: alice.id } });
    const renamed = await t.http
      .patch(`/pipelines/${id}`)
      .set(alice.auth)
      .send({ name: '  Rose bakery helper  ' })
      .expect(200);
    expect(renamed.body).toMatchObject({ id, name: 'Rose bakery helper' });
    expect(await t.prisma.pipeline.count({ where: { userId: alice.id } })).toBe(before);

    await create(alice, { name: 'Taken', agent_type: 'sql' }).expect(201);
    const taken = await t.http
      .patch(`/pipelines/${id}`)
      .set(alice.auth)
      .send({ name: 'TAKEN' })
      .expect(409);
    expect(taken.body.detail).toBe('You already have an agent named "TAKEN". Choose another name.');
    await t.http.patch(`/pipelines/${id}`).set(alice.auth).send({ name: ' ' }).expect(400);
    await t.http.patch(`/pipelines/${id}`).set(bob.auth).send({ name: 'Mine now' }).expect(404);
    const kept = await t.prisma.pipeline.findUniqueOrThrow({ where: { id } });
    expect(kept.name).toBe('Rose bakery helper');
  });

  it('requires a token', async () => {
    await t.http.get('/pipelines').expect(401);
    await t.http.post('/pipelines').send({ name: 'x', agent_type: 'rag' }).expect(401);
  });
});
