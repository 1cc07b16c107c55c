import { buildPaths, WIZARD_ROUTES } from '@agentloom/contracts';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configureRagAgent, signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import { BuildQueue } from './build-queue';

/** One user cannot take the platform's builders or storage for everyone (issue 16, finding 7). */
describe('per-user quotas', () => {
  let t: TestApp;
  let fixtures: string;
  let csv: string;

  beforeAll(async () => {
    // No worker runs here: a started build stays Building, as a long one would.
    t = await createTestApp({
      MAX_CONCURRENT_BUILDS_PER_USER: '2',
      MAX_PIPELINES_PER_USER: '3',
      MAX_STORED_BYTES_PER_USER: '4096',
    });
    fixtures = mkdtempSync(path.join(tmpdir(), 'quotas-'));
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

  it('answers 429 to a build beyond MAX_CONCURRENT_BUILDS_PER_USER, and others still build', async () => {
    const mallory = await signUpAndLogIn(t.url, 'builder');
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push(await configureRagAgent(t.url, mallory, { file: csv }));
    await build(mallory, ids[0]!).expect(200);
    await build(mallory, ids[1]!).expect(200);
    const third = await build(mallory, ids[2]!);
    expect(third.status).toBe(429);
    expect(third.body).toEqual({
      detail:
        'You already have 2 builds running, the most at once. Wait for one to finish, then build this agent.',
    });
    // Nothing was recorded for the refused build, and its agent is not left Building.
    expect(await t.prisma.build.count({ where: { pipelineId: ids[2] } })).toBe(0);
    const refused = await t.prisma.pipeline.findUniqueOrThrow({ where: { id: ids[2] } });
    expect(refused.status).not.toBe('Building');

    const alice = await signUpAndLogIn(t.url, 'neighbour');
    await build(alice, await configureRagAgent(t.url, alice, { file: csv })).expect(200);
  });

  it('answers 429 to an agent beyond MAX_PIPELINES_PER_USER', async () => {
    const user = await signUpAndLogIn(t.url, 'collector');
    const create = (n: number) =>
      t.http
        .post('/pipelines')
        .set(user.auth)
        .send({ name: `Agent ${n}`, agent_type: 'sql' });
    for (let n = 0; n < 3; n += 1) await create(n).expect(201);
    const fourth = await create(3);
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({
      detail: 'You have 3 agents, the most an account may keep. Delete one to create another.',
    });
    expect(await t.prisma.pipeline.count({ where: { userId: user.id } })).toBe(3);
  });

  it('answers 413 to an upload beyond MAX_STORED_BYTES_PER_USER; a replaced file is not counted', async () => {
    const user = await signUpAndLogIn(t.url, 'hoarder');
    // About `bytes` long, in whole rows.
    const csvOf = (bytes: number) =>
      Buffer.from(`region,amount\n${'North,1\n'.repeat(Math.floor((bytes - 14) / 8))}`);
    const agent = async () => {
      const { body } = await t.http
        .post('/pipelines')
        .set(user.auth)
        .send({ name: `Files ${Math.random()}`, agent_type: 'rag' })
        .expect(201);
      const id = body.session_id as string;
      await t.http
        .post(WIZARD_ROUTES.rag.source)
        .set(user.auth)
        .type('form')
        .send({ session_id: id, source_type: 'csv' })
        .expect(200);
      return id;
    };
    const upload = (id: string, bytes: number) =>
      t.http
        .post(WIZARD_ROUTES.rag.upload)
        .set(user.auth)
        .field('session_id', id)
        .attach('file', csvOf(bytes), { filename: 'sales.csv' });

    const first = await agent();
    await upload(first, 3000).expect(200);
    await upload(first, 3000).expect(200); // replaces its own file
    const refused = await upload(await agent(), 3000);
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      detail:
        "Your agents' files already take 3 KB of the 4 KB an account may store. Delete an agent or remove its file, then upload again.",
    });
  });
});
