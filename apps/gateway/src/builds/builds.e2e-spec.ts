import {
  BUILD_AGENT_JOB,
  buildPaths,
  curatedAnswerPaths,
  RAG_BUILD_STAGES,
  WIZARD_ROUTES,
} from '@agentloom/contracts';
import { OBJECT_STORE, type ObjectStore, storeKeys } from '@agentloom/server-kit';
import { mkdtempSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Response } from 'supertest';
import {
  configureRagAgent,
  REPO_ROOT,
  signUpAndLogIn,
  type TestUser,
  WIZARD_LLM_KEY,
} from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import { BuildQueue } from './build-queue';

/** Reads a download's body as text (the test zips are plain text files). */
const text = (response: Response) => Buffer.from(response.body as Buffer).toString('utf8');

describe('Builds (gateway side)', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let csv: string;
  let fixtures: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
    fixtures = mkdtempSync(path.join(tmpdir(), 'builds-'));
    csv = path.join(fixtures, 'sales.csv');
    await writeFile(csv, 'region,amount\nNorth,120\nSouth,80\n');
  });
  afterAll(async () => {
    await rm(fixtures, { recursive: true, force: true });
    await t.app.get(BuildQueue).obliterate();
    await t.close();
  });

  const build = (user: TestUser, id: string) =>
    t.http.post(buildPaths.start('rag')).set(user.auth).type('form').send({ session_id: id });

  it('refuses an incomplete configuration with 422 listing the missing steps', async () => {
    const created = await t.http
      .post('/pipelines')
      .set(alice.auth)
      .send({ name: `Incomplete ${Math.random()}`, agent_type: 'rag' })
      .expect(201);
    const { body } = await build(alice, created.body.session_id).expect(422);
    expect(body.detail).toBe(
      'Complete these steps before building: Source Type, Source Details, Embedding, Vector Store, LLM Provider, System Prompt, UI Type.',
    );
    expect(await t.prisma.build.count({ where: { pipelineId: created.body.session_id } })).toBe(0);
  });

  it('records the build, enqueues one job by build id carrying ids only, and a double click reuses it', async () => {
    const id = await configureRagAgent(t.url, alice, { file: csv });
    const [first, second] = await Promise.all([build(alice, id), build(alice, id)]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.body).toEqual({
      session_id: id,
      build_id: expect.any(String),
      status: 'Building',
      message: 'RAG agent build started!',
    });
    expect(second.body.build_id).toBe(first.body.build_id);
    expect(await t.prisma.build.count({ where: { pipelineId: id } })).toBe(1);

    const job = await t.app.get(BuildQueue).job(first.body.build_id as string);
    expect(job?.name).toBe(BUILD_AGENT_JOB);
    expect(job?.data).toEqual({ buildId: first.body.build_id });
    expect(JSON.stringify(job?.data)).not.toContain(WIZARD_LLM_KEY);

    const view = await t.http.get(buildPaths.view(id)).set(alice.auth).expect(200);
    expect(view.body).toMatchObject({
      build_id: first.body.build_id,
      session_id: id,
      agent_type: 'rag',
      status: 'Building',
      stage_keys: [...RAG_BUILD_STAGES],
      stages: [],
      error: null,
      download_url: null,
    });
    expect(
      (await t.http.get('/pipelines').set(alice.auth)).body.find((p: { id: string }) => p.id === id)
        .status,
    ).toBe('Building');

    // Nothing to download before the build is Built; and wizard changes wait for the build.
    const download = await t.http.get(buildPaths.download('rag', id)).set(alice.auth).expect(404);
    expect(download.body.detail).toBe('There is no finished build of this agent to download yet.');
    await t.http
      .post(WIZARD_ROUTES.rag.ui)
      .set(alice.auth)
      .type('form')
      .send({ session_id: id, ui: 'streamlit' })
      .expect(409);
  });

  it('user B cannot build, read or download user A’s agent (404)', async () => {
    const id = await configureRagAgent(t.url, alice, { file: csv });
    expect((await build(bob, id).expect(404)).body).toEqual({ detail: 'Agent not found.' });
    await t.http.get(buildPaths.view(id)).set(bob.auth).expect(404);
    await t.http.get(buildPaths.download('rag', id)).set(bob.auth).expect(404);
    await t.http
      .post(buildPaths.start('sql'))
      .set(alice.auth)
      .type('form')
      .send({ session_id: id })
      .expect(404);
    expect(await t.prisma.build.count({ where: { pipelineId: id } })).toBe(0);
  });

  it('reads a build stored with stage labels, once migrated, by stage key', async () => {
    // A row from before stages were stored by key: { name: <label> }.
    const id = await configureRagAgent(t.url, alice, { file: csv });
    const buildId = (await build(alice, id).expect(200)).body.build_id as string;
    const at = new Date().toISOString();
    const work = { done: 3, of: 8, unit: 'chunks' };
    await t.prisma.build.update({
      where: { id: buildId },
      data: {
        stages: [
          { name: 'initializing environment', started_at: at, finished_at: at },
          { name: 'training embeddings', started_at: at, finished_at: null, work },
        ],
      },
    });
    const migration = await readFile(
      path.join(REPO_ROOT, 'prisma/migrations/20261127170000_build_stage_keys/migration.sql'),
      'utf8',
    );
    await t.prisma.$executeRawUnsafe(migration);

    const view = await t.http.get(buildPaths.view(id)).set(alice.auth).expect(200);
    expect(view.body.stages).toEqual([
      { key: 'validate_config', started_at: at, finished_at: at },
      { key: 'train_embeddings', started_at: at, finished_at: null, work },
    ]);
    // Rows already by key are left as they are.
    await t.prisma.$executeRawUnsafe(migration);
    expect((await t.prisma.build.findUniqueOrThrow({ where: { id: buildId } })).stages).toEqual(
      view.body.stages,
    );
  });

  it('with Redis down answers 503 quickly and leaves no build behind', async () => {
    // A port that accepts nothing: the gateway's Redis connection can never become ready.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const down = await createTestApp({ REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      const carol = await signUpAndLogIn(down.url, 'carol');
      const id = await configureRagAgent(down.url, carol, { file: csv });
      const started = Date.now();
      const { body } = await down.http
        .post(buildPaths.start('rag'))
        .set(carol.auth)
        .type('form')
        .send({ session_id: id })
        .expect(503);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(body.detail).toMatch(/^The build service is unavailable right now/);
      expect(await down.prisma.build.count({ where: { pipelineId: id } })).toBe(0);
      const pipeline = await down.prisma.pipeline.findUniqueOrThrow({ where: { id } });
      expect(pipeline.status).toBe('Draft');
    } finally {
      await down.close();
    }
  });

  /** Alice's build of the agent, started; its id. */
  const startBuild = async (id: string): Promise<string> =>
    (await build(alice, id).expect(200)).body.build_id as string;

  /** What the builder-worker does when a build ends: its own zip, the build and agent Built. */
  const finish = async (pipelineId: string, buildId: string, content: string) => {
    const artifact = storeKeys.artifactName(buildId);
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'agentloom-zip-')), artifact);
    await writeFile(file, content);
    await t.app
      .get<ObjectStore>(OBJECT_STORE)
      .putFile(storeKeys.artifact(pipelineId, artifact), file);
    await t.prisma.build.update({
      where: { id: buildId },
      data: { status: 'Built', artifact, artifactBytes: content.length, finishedAt: new Date() },
    });
    await t.prisma.pipeline.update({ where: { id: pipelineId }, data: { status: 'Built' } });
  };

  const download = (id: string, buildId?: string) =>
    t.http
      .get(buildPaths.download('rag', id, buildId))
      .set(alice.auth)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it('numbers the builds, says what changed, and keeps the previous zip until the new one is Built', async () => {
    const id = await configureRagAgent(t.url, alice, {
      file: csv,
      name: `Rosé bakery ${Date.now()}`,
    });
    const first = await startBuild(id);
    await finish(id, first, 'zip of build one');
    // The worker records each RAG build's evaluation with Built (docs/evaluation.md).
    const evaluation = {
      cases: 2,
      passed: 1,
      failed: [
        {
          kind: 'expected',
          question: 'Is the rosé cake gluten free?',
          reason: 'No passage was found for it: the agent would say it does not know.',
          expected: 'a passage that answers it',
          got: 'no passage',
        },
      ],
      score: 0.5,
      evaluated_at: new Date().toISOString(),
    };
    await t.prisma.build.update({ where: { id: first }, data: { evaluation } });

    // Edit the built agent: a new prompt, then Build again.
    await t.http
      .post(WIZARD_ROUTES.rag.systemPrompt)
      .set(alice.auth)
      .type('form')
      .send({ session_id: id, prompt: 'Answer in one sentence.' })
      .expect(200);
    const second = await startBuild(id);
    expect(second).not.toBe(first);

    // While the rebuild runs, the agent's download is still the first zip, under the product's
    // name.
    const during = await download(id).expect(200);
    expect(text(during)).toBe('zip of build one');
    expect(during.headers['content-disposition']).toBe(
      `attachment; filename="rag-agent-${id}.zip"`,
    );

    const history = await t.http.get(buildPaths.history(id)).set(alice.auth).expect(200);
    expect(history.body).toEqual([
      {
        build_id: second,
        number: 2,
        status: 'Building',
        created_at: expect.any(String),
        finished_at: null,
        error: null,
        changes: ['System prompt'],
        trigger: 'wizard',
        published: false,
        download_url: null,
        evaluation: null,
      },
      {
        build_id: first,
        number: 1,
        status: 'Built',
        created_at: expect.any(String),
        finished_at: expect.any(String),
        error: null,
        changes: ['First build'],
        trigger: 'wizard',
        published: false,
        download_url: buildPaths.download('rag', id, first),
        evaluation,
      },
    ]);

    await finish(id, second, 'zip of build two');
    expect(text(await download(id).expect(200))).toBe('zip of build two');
    // Each build's own zip, named with its number so the two are told apart.
    const old = await download(id, first).expect(200);
    expect(text(old)).toBe('zip of build one');
    expect(old.headers['content-disposition']).toEqual(
      // Named after the agent (issue 30), not after an id nobody recognises in Downloads.
      expect.stringMatching(/^attachment; filename="rose-bakery-\d+-build-1\.zip"$/),
    );
    const after = await t.http.get(buildPaths.history(id)).set(alice.auth).expect(200);
    expect(after.body[0]).toMatchObject({ number: 2, status: 'Built' });
    expect(after.body[0].download_url).toBe(buildPaths.download('rag', id, second));
  });

  it('captures the curated answers with each build, so its zip ships them as they were', async () => {
    const id = await configureRagAgent(t.url, alice, { file: csv });
    const written = await t.http
      .post(curatedAnswerPaths.list(id))
      .set(alice.auth)
      .send({ question: 'Do you deliver on Sundays?', answer: 'No, Monday to Saturday.' })
      .expect(201);
    const curated = { id: written.body.id as string, question: 'Do you deliver on Sundays?' };
    const snapshotOf = async (buildId: string) =>
      (
        (await t.prisma.build.findUniqueOrThrow({ where: { id: buildId } })).snapshot as {
          curated_answers: unknown;
        }
      ).curated_answers;

    const first = await startBuild(id);
    await finish(id, first, 'zip of build one');
    await t.http
      .put(curatedAnswerPaths.one(id, curated.id))
      .set(alice.auth)
      .send({ answer: 'Yes, since May.' })
      .expect(200);
    const second = await startBuild(id);

    expect(await snapshotOf(first)).toEqual([{ ...curated, answer: 'No, Monday to Saturday.' }]);
    expect(await snapshotOf(second)).toEqual([{ ...curated, answer: 'Yes, since May.' }]);
    const history = await t.http.get(buildPaths.history(id)).set(alice.auth).expect(200);
    expect(history.body[0]).toMatchObject({ build_id: second, changes: ['Curated answers'] });
    await finish(id, second, 'zip of build two'); // no build of Alice's left running
  });

  it('answers 404 for another user’s agent, an unknown build, and a build still running', async () => {
    const id = await configureRagAgent(t.url, alice, { file: csv });
    const running = await startBuild(id);
    await t.http.get(buildPaths.history(id)).set(bob.auth).expect(404);
    await t.http
      .get(buildPaths.download('rag', id, running))
      .set(bob.auth)
      .expect(404);
    const unknown = await t.http
      .get(buildPaths.download('rag', id, 'not-a-build'))
      .set(alice.auth)
      .expect(404);
    expect(unknown.body).toEqual({ detail: 'Build not found.' });
    const notYet = await t.http
      .get(buildPaths.download('rag', id, running))
      .set(alice.auth)
      .expect(404);
    expect(notYet.body.detail).toBe('There is no finished build of this agent to download yet.');
  });

  it('is documented in the OpenAPI document like the other routes', async () => {
    const { body } = await t.http.get('/docs-json').expect(200);
    const list = body.paths['/pipelines/{id}/builds'].get;
    expect(list.responses['200'].content['application/json'].schema.items.$ref).toBe(
      '#/components/schemas/BuildHistoryItemDto',
    );
    expect(body.components.schemas.BuildHistoryItemDto.required).toEqual(
      expect.arrayContaining(['number', 'status', 'changes', 'download_url']),
    );
    const download = body.paths['/rag/builds/{sessionId}/download'].get;
    expect(download.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'build', in: 'query' })]),
    );
  });
});
