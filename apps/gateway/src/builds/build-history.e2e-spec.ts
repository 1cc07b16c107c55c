import { mkdirSync, mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Response } from 'supertest';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { createTestApp, signUpAndLogIn, TestApp, TestUser } from '../testing/test-app';
import { configureRagAgent } from '../testing/wizard-flows';
import { BuildQueue } from './build-queue';

/** Reads a download's body as text (the test zips are plain text files). */
const text = (response: Response) => Buffer.from(response.body as Buffer).toString('utf8');

describe('Build history and rebuilds (gateway side)', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let fixtures: string;
  let csv: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.http, 'alice');
    bob = await signUpAndLogIn(t.http, 'bob');
    fixtures = mkdtempSync(path.join(tmpdir(), 'build-history-'));
    csv = path.join(fixtures, 'sales.csv');
    await writeFile(csv, 'region,amount\nNorth,120\nSouth,80\n');
  });
  afterAll(async () => {
    await rm(fixtures, { recursive: true, force: true });
    await t.app.get(BuildQueue).obliterate();
    await t.close();
  });

  const build = async (id: string): Promise<string> => {
    const { body } = await t.http
      .post('/rag/api/build/agent')
      .set(alice.auth)
      .type('form')
      .send({ session_id: id })
      .expect(200);
    return body.build_id as string;
  };

  /** What the builder-worker does when a build ends: its own zip, the build and agent Built. */
  const finish = async (pipelineId: string, buildId: string, content: string) => {
    const artifact = `${buildId}.zip`;
    const file = t.app.get(PipelineStorage).artifactPath(pipelineId, artifact);
    mkdirSync(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    await t.prisma.build.update({
      where: { id: buildId },
      data: { status: 'Built', artifact, artifactBytes: content.length, finishedAt: new Date() },
    });
    await t.prisma.pipeline.update({ where: { id: pipelineId }, data: { status: 'Built' } });
  };

  const download = (id: string, query = '') =>
    t.http
      .get(`/rag/builds/${id}/download${query}`)
      .set(alice.auth)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it('numbers the builds, says what changed, and keeps the previous zip until the new one is Built', async () => {
    const id = await configureRagAgent(t, alice, csv);
    const first = await build(id);
    await finish(id, first, 'zip of build one');

    // Edit the built agent: a new prompt, then Build again.
    await t.http
      .post('/rag/api/system-prompt')
      .set(alice.auth)
      .type('form')
      .send({ session_id: id, prompt: 'Answer in one sentence.' })
      .expect(200);
    const second = await build(id);
    expect(second).not.toBe(first);

    // While the rebuild runs, the agent's download is still the first zip, under SPEC's name.
    const during = await download(id).expect(200);
    expect(text(during)).toBe('zip of build one');
    expect(during.headers['content-disposition']).toBe(
      `attachment; filename="rag-agent-${id}.zip"`,
    );

    const history = await t.http.get(`/pipelines/${id}/builds`).set(alice.auth).expect(200);
    expect(history.body).toEqual([
      {
        build_id: second,
        number: 2,
        status: 'Building',
        created_at: expect.any(String),
        finished_at: null,
        error: null,
        changes: ['System prompt'],
        download_url: null,
      },
      {
        build_id: first,
        number: 1,
        status: 'Built',
        created_at: expect.any(String),
        finished_at: expect.any(String),
        error: null,
        changes: ['First build'],
        download_url: `/rag/builds/${id}/download?build=${first}`,
      },
    ]);

    await finish(id, second, 'zip of build two');
    expect(text(await download(id).expect(200))).toBe('zip of build two');
    // Each build's own zip, named with its number so the two are told apart.
    const old = await download(id, `?build=${first}`).expect(200);
    expect(text(old)).toBe('zip of build one');
    expect(old.headers['content-disposition']).toBe(
      `attachment; filename="rag-agent-${id}-build-1.zip"`,
    );
    const after = await t.http.get(`/pipelines/${id}/builds`).set(alice.auth).expect(200);
    expect(after.body[0]).toMatchObject({ number: 2, status: 'Built' });
    expect(after.body[0].download_url).toBe(`/rag/builds/${id}/download?build=${second}`);
  });

  it('answers 404 for another user’s agent, an unknown build, and a build still running', async () => {
    const id = await configureRagAgent(t, alice, csv);
    const running = await build(id);
    await t.http.get(`/pipelines/${id}/builds`).set(bob.auth).expect(404);
    await t.http.get(`/rag/builds/${id}/download?build=${running}`).set(bob.auth).expect(404);
    const unknown = await t.http
      .get(`/rag/builds/${id}/download?build=not-a-build`)
      .set(alice.auth)
      .expect(404);
    expect(unknown.body).toEqual({ detail: 'Build not found.' });
    const notYet = await t.http
      .get(`/rag/builds/${id}/download?build=${running}`)
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
