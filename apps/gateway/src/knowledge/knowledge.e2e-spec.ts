import { knowledgePaths, KNOWLEDGE_QUEUE, refreshSchedulerId } from '@agentloom/contracts';
import {
  configureRagAgent,
  configureSqlAgent,
  signUpAndLogIn,
  type TestUser,
} from '@agentloom/test-kit';
import { Queue } from 'bullmq';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { createTestApp, type TestApp } from '../testing/test-app';
import { markBuilt } from '../testing/built-agents';

/**
 * The knowledge API through HTTP on the real gateway, Postgres and Redis (no worker: the builds
 * these changes start are checked as rows and jobs; the worker's side is the system tests'):
 * who may see and change an agent's sources, what each kind of source must be, and what a
 * change records.
 */
describe('knowledge sources API', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let agent: string;

  const CSV = { name: 'sales.csv', content: 'region,product\nNorth,Widget\n' };

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
    agent = await configureRagAgent(t.url, alice, { file: CSV });
  });
  afterAll(() => t.close());

  const file = (name: string, content: string) => ({ name, content: Buffer.from(content) });

  function addFile(user: TestUser, id: string, name: string, content: string) {
    return t.http
      .post(knowledgePaths.list(id))
      .set(user.auth)
      .attach('file', Buffer.from(content), file(name, content).name);
  }

  it('lists the wizard’s source as the first, to its owner only', async () => {
    const { body } = await t.http.get(knowledgePaths.list(agent)).set(alice.auth).expect(200);
    expect(body.building_build_id).toBeNull();
    expect(body.sources).toEqual([
      expect.objectContaining({
        kind: 'file',
        source_type: 'csv',
        name: 'sales.csv',
        primary: true,
        status: 'waiting',
        refreshable: false,
        version: 1,
        file: expect.objectContaining({ original_name: 'sales.csv' }),
      }),
    ]);
    const foreign = await t.http.get(knowledgePaths.list(agent)).set(bob.auth).expect(404);
    expect(foreign.body).toEqual({ detail: 'Agent not found.' });
    await t.http.get(knowledgePaths.list(agent)).expect(401);
  });

  it('adds a Markdown file, checked by content, kept under a server-made name, waiting for the first build', async () => {
    const added = await addFile(alice, agent, 'faq.md', '# Returns\n\nWithin 30 days.').expect(201);
    expect(added.body).toMatchObject({
      kind: 'file',
      source_type: 'markdown',
      name: 'faq.md',
      primary: false,
      status: 'waiting',
      file: { summary: { kind: 'markdown', sections: 1, headings: ['Returns'] } },
    });
    const stored = await readdir(path.join(t.config.DATA_DIR, 'uploads', agent));
    expect(stored.some((name) => name.includes('faq'))).toBe(false); // never the uploader's name
    // Never built: no build is started by the change; the first build reads every source.
    expect(await t.prisma.build.count({ where: { pipelineId: agent } })).toBe(0);
  });

  it('refuses what it cannot read, with a plain detail, keeping nothing', async () => {
    const before = await readdir(path.join(t.config.DATA_DIR, 'uploads', agent));
    const unknown = await addFile(alice, agent, 'tool.exe', 'MZ').expect(415);
    expect(unknown.body.detail).toMatch(/"tool\.exe" is not one of them/);
    const fake = await addFile(alice, agent, 'report.pdf', '<html><body>no</body></html>').expect(
      415,
    );
    expect(fake.body).toEqual({ detail: 'The file is not a PDF.' });
    const empty = await addFile(alice, agent, 'blank.md', '   \n\n').expect(422);
    expect(empty.body.detail).toMatch(/no text/i);
    expect(await readdir(path.join(t.config.DATA_DIR, 'uploads', agent))).toEqual(before);
    const other = await addFile(bob, agent, 'x.md', '# X\n\ntext').expect(404);
    expect(other.body).toEqual({ detail: 'Agent not found.' });
  });

  it('checks a table or web source before anything connects: form, then the network guard', async () => {
    const badUri = await t.http
      .post(knowledgePaths.list(agent))
      .set(alice.auth)
      .send({
        kind: 'table',
        source_type: 'postgres',
        uri: 'not a uri',
        database: 'shop',
        collection_or_table: 'orders',
      })
      .expect(400);
    expect(badUri.body.detail).toMatch(/postgres/i);
    // Cloud metadata is refused whatever strict mode says: decided before any connection.
    const metadata = await t.http
      .post(knowledgePaths.list(agent))
      .set(alice.auth)
      .send({ kind: 'web', url: 'http://169.254.169.254/latest/meta-data/', max_pages: 1 })
      .expect(422);
    expect(metadata.body.detail).toMatch(/metadata/i);
    const scheme = await t.http
      .post(knowledgePaths.list(agent))
      .set(alice.auth)
      .send({ kind: 'web', url: 'file:///etc/passwd' })
      .expect(400);
    expect(scheme.body.detail).toMatch(/Only http:\/\/ and https:\/\//);
    const tooMany = await t.http
      .post(knowledgePaths.list(agent))
      .set(alice.auth)
      .send({ kind: 'web', url: 'http://127.0.0.1:9/', max_pages: 100_000 })
      .expect(400);
    expect(tooMany.body.detail).toMatch(/at most 500 pages/);
    const kind = await t.http.post(knowledgePaths.list(agent)).set(alice.auth).send({}).expect(400);
    expect(kind.body.detail).toMatch(/kind must be "table" or "web"/);
  });

  it('refreshes tables and web pages only, and schedules them with one job scheduler each', async () => {
    const { body } = await t.http.get(knowledgePaths.list(agent)).set(alice.auth).expect(200);
    const faq = body.sources.find((source: { name: string }) => source.name === 'faq.md');
    const refresh = await t.http
      .post(knowledgePaths.refresh(agent, faq.id))
      .set(alice.auth)
      .expect(422);
    expect(refresh.body.detail).toMatch(/upload its new version/);
    await t.http
      .patch(knowledgePaths.one(agent, faq.id))
      .set(alice.auth)
      .send({ refresh: 'hourly' })
      .expect(422);

    const site = await t.http
      .post(knowledgePaths.list(agent))
      .set(alice.auth)
      .send({ kind: 'web', url: 'http://127.0.0.1:9/docs/', max_pages: 20 })
      .expect(201);
    expect(site.body).toMatchObject({
      kind: 'web',
      name: 'http://127.0.0.1:9/docs/',
      refreshable: true,
      web: { url: 'http://127.0.0.1:9/docs/', max_pages: 20, sitemap: false, pages: 0 },
    });
    const scheduled = await t.http
      .patch(knowledgePaths.one(agent, site.body.id as string))
      .set(alice.auth)
      .send({ refresh: 'daily' })
      .expect(200);
    expect(scheduled.body.refresh).toBe('daily');
    const queue = new Queue(KNOWLEDGE_QUEUE, {
      connection: t.redis.client,
      prefix: t.config.QUEUE_PREFIX,
    });
    try {
      const id = refreshSchedulerId(site.body.id as string);
      expect(await queue.getJobScheduler(id)).toMatchObject({ every: 86_400_000 });
      // Set again: still one scheduler for the source.
      await t.http
        .patch(knowledgePaths.one(agent, site.body.id as string))
        .set(alice.auth)
        .send({ refresh: 'hourly' })
        .expect(200);
      const schedulers = (await queue.getJobSchedulers()).filter((one) => one.key === id);
      expect(schedulers).toEqual([expect.objectContaining({ every: 3_600_000 })]);
      await t.http
        .patch(knowledgePaths.one(agent, site.body.id as string))
        .set(alice.auth)
        .send({ refresh: 'off' })
        .expect(200);
      expect(await queue.getJobScheduler(id)).toBeUndefined();
      const bad = await t.http
        .patch(knowledgePaths.one(agent, site.body.id as string))
        .set(alice.auth)
        .send({ refresh: 'weekly' })
        .expect(400);
      expect(bad.body.detail).toMatch(/refresh/);
    } finally {
      await queue.close();
    }
    await t.http
      .patch(knowledgePaths.one(agent, site.body.id as string))
      .set(bob.auth)
      .send({ refresh: 'off' })
      .expect(404);
  });

  it('removes an added source, never the wizard’s; unknown and foreign ids are 404', async () => {
    const { body } = await t.http.get(knowledgePaths.list(agent)).set(alice.auth).expect(200);
    const primary = body.sources.find((source: { primary: boolean }) => source.primary);
    const faq = body.sources.find((source: { name: string }) => source.name === 'faq.md');
    const refused = await t.http
      .delete(knowledgePaths.one(agent, primary.id as string))
      .set(alice.auth)
      .expect(409);
    expect(refused.body.detail).toMatch(/first source/);
    await t.http
      .delete(knowledgePaths.one(agent, faq.id as string))
      .set(bob.auth)
      .expect(404);
    await t.http.delete(knowledgePaths.one(agent, 'not-an-id')).set(alice.auth).expect(404);
    await t.http
      .delete(knowledgePaths.one(agent, faq.id as string))
      .set(alice.auth)
      .expect(204);
    const after = await t.http.get(knowledgePaths.list(agent)).set(alice.auth).expect(200);
    expect(after.body.sources.map((source: { name: string }) => source.name)).not.toContain(
      'faq.md',
    );
    await t.http
      .delete(knowledgePaths.one(agent, faq.id as string))
      .set(alice.auth)
      .expect(404);
  });

  it('a change to a built agent starts a build on the newest Built build’s configuration', async () => {
    const built = await configureRagAgent(t.url, alice, { name: 'Built one', file: CSV });
    const base = await markBuilt(t.prisma, t.config.DATA_DIR, {
      id: built,
      userId: alice.id,
      type: 'rag',
    });
    await t.prisma.build.update({
      where: { id: base },
      data: {
        snapshot: {
          config: { system_prompt: 'BUILT PROMPT' },
          llm_key: null,
          vector_db_key: null,
          source_uri: null,
          source_file: null,
        },
      },
    });
    await addFile(alice, built, 'notes.txt', 'Opening hours: nine to five.').expect(201);
    const [latest] = await t.prisma.build.findMany({
      where: { pipelineId: built },
      orderBy: { createdAt: 'desc' },
      take: 1,
    });
    expect(latest).toMatchObject({ trigger: 'knowledge', status: 'Building' });
    expect(latest!.knowledgeChanges).toEqual([
      expect.objectContaining({ name: 'notes.txt', change: 'added' }),
    ]);
    const snapshot = latest!.snapshot as { config: { system_prompt: string }; sources: unknown[] };
    // The built configuration, not the draft's.
    expect(snapshot.config.system_prompt).toBe('BUILT PROMPT');
    expect(snapshot.sources).toHaveLength(2);
    const listed = await t.http.get(knowledgePaths.list(built)).set(alice.auth).expect(200);
    expect(listed.body.building_build_id).toBe(latest!.id);
  });

  it('is for RAG agents: a SQL agent answers from its one table', async () => {
    const sql = await configureSqlAgent(t.url, alice, { file: CSV });
    const { body } = await t.http.get(knowledgePaths.list(sql)).set(alice.auth).expect(422);
    expect(body.detail).toMatch(/SQL agent answers from the one table/);
  });
});
