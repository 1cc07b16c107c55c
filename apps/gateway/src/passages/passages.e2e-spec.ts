import {
  passagePaths,
  PASSAGE_NOT_FOUND,
  type TAnswerSource,
  type TPassageView,
} from '@agentloom/contracts';
import { configureRagAgent, serverSentEvents, type TestUser } from '@agentloom/test-kit';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tokenOf, usePreviewsApp } from '../previews/previews.spec-helper';
import { openVisitor } from '../published/visitors.spec-helper';
import { csvChunks, markBuilt } from '../testing/built-agents';
import type { TestApp } from '../testing/test-app';

const HEADER = ['region', 'product', 'units'];
const ROWS = [
  ['Porto', 'Lantern kits', '1204'],
  ['Lisbon', 'Quokka umbrellas', '7342'],
  ['Braga', 'Tide clocks', '518'],
  ['Faro', 'Sun visors', '2290'],
  ['Evora', 'Cork hats', '77'],
  ['Aveiro', 'Salt jars', '310'],
  ['Viseu', 'Granite bowls', '45'],
];
/** Bob's agent: passages whose ids Alice's build does not have. */
const BOB_CHUNKS = [
  { id: 'bob-only-1', source: 'notes.txt', text: 'Tide clocks are made by Bob.' },
];

/**
 * Citations you can open, through HTTP on the real gateway, Postgres, Redis and the embeddings
 * stand-in: the owner, a preview link and a share page's visitor open a cited passage of the
 * build they may talk to, with its neighbouring rows and column names; anything else is a 404.
 */
describe('citations you can open', () => {
  const { app } = usePreviewsApp();
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let agent: string;
  let bobAgent: string;
  let bobBuild: string;

  beforeAll(async () => {
    ({ t, alice, bob } = app);
    const csv = path.join(app.fixtures, 'orders.csv');
    writeFileSync(csv, [HEADER, ...ROWS].map((row) => row.join(',')).join('\n') + '\n');
    agent = await configureRagAgent(t.url, alice, { file: csv });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id: agent, userId: alice.id, type: 'rag' },
      csvChunks('orders.csv', HEADER, ROWS),
      t.config,
    );
    bobAgent = await configureRagAgent(t.url, bob, { file: app.salesCsv });
    bobBuild = await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id: bobAgent, userId: bob.id, type: 'rag' },
      BOB_CHUNKS,
      t.config,
    );
  });

  const open = (user: TestUser, id: string, passageId: string) =>
    t.http.get(passagePaths.owner(id, passageId)).set(user.auth);

  it('opens a cited row for the owner: the row highlighted, its neighbours and column names', async () => {
    const { body } = await open(alice, agent, 'chunk-000002').expect(200);
    const view = body as TPassageView;
    expect(view).toMatchObject({
      id: 'chunk-000002',
      kind: 'row',
      citation: 'orders.csv, row 4',
      source: 'orders.csv',
      row: 3,
      columns: HEADER,
      context: null,
    });
    // Two rows either side, in order; only the cited one is marked.
    expect(view.neighbours.map((n) => n.row)).toEqual([1, 2, 3, 4, 5]);
    expect(view.neighbours.filter((n) => n.cited).map((n) => n.id)).toEqual(['chunk-000002']);
    expect(view.neighbours[2]!.cells).toEqual([
      { column: 'region', value: 'Braga' },
      { column: 'product', value: 'Tide clocks' },
      { column: 'units', value: '518' },
    ]);
    const first = await open(alice, agent, 'chunk-000000').expect(200);
    expect((first.body as TPassageView).neighbours.map((n) => n.row)).toEqual([1, 2, 3]);
  });

  it('answers 404 with a plain detail for an unknown id, another agent’s or build’s passage', async () => {
    const unknown = await open(alice, agent, 'chunk-999999').expect(404);
    expect(unknown.body).toEqual({ detail: PASSAGE_NOT_FOUND });
    // Bob's passage through Alice's agent: not in her build.
    const foreign = await open(alice, agent, 'bob-only-1').expect(404);
    expect(foreign.body).toEqual({ detail: PASSAGE_NOT_FOUND });
    // Another agent's build named on this agent's route.
    const otherBuild = await t.http
      .get(`${passagePaths.owner(agent, 'chunk-000001')}?build_id=${bobBuild}`)
      .set(alice.auth)
      .expect(404);
    expect(otherBuild.body).toEqual({ detail: PASSAGE_NOT_FOUND });
    // The ids survive the path: a slash or a hash in one is still one id.
    await open(alice, agent, 'chunk-000001/../chunk-000002').expect(404);
    await open(alice, agent, 'chunk-000001#x').expect(404);
  });

  it('answers another owner 404, as for any agent of theirs', async () => {
    const foreign = await open(bob, agent, 'chunk-000001').expect(404);
    expect(foreign.body).toEqual({ detail: 'Agent not found.' });
    await open(bob, bobAgent, 'bob-only-1').expect(200);
    await t.http.get(passagePaths.owner(agent, 'chunk-000001')).expect(401);
  });

  it('opens a preview’s passages for its own agent only', async () => {
    const start = (user: TestUser, id: string) =>
      t.http.post(`/rag/previews/${id}/start`).set(user.auth).expect(200);
    const token = tokenOf((await start(alice, agent)).body.preview_url as string);
    const { body } = await t.http.get(passagePaths.preview(token, 'chunk-000004')).expect(200);
    expect(body).toMatchObject({ id: 'chunk-000004', citation: 'orders.csv, row 6' });
    await t.http.get(passagePaths.preview(token, 'bob-only-1')).expect(404);
    const bobToken = tokenOf((await start(bob, bobAgent)).body.preview_url as string);
    const crossed = await t.http.get(passagePaths.preview(bobToken, 'chunk-000004')).expect(404);
    expect(crossed.body).toEqual({ detail: PASSAGE_NOT_FOUND });
    const made = await t.http.get(passagePaths.preview('A'.repeat(43), 'chunk-000004'));
    expect(made.status).toBe(404);
  });

  describe('a share page’s visitor', () => {
    beforeAll(async () => {
      await t.http.put(`/agents/${agent}/publication`).set(alice.auth).expect(200);
      await t.http
        .patch(`/agents/${agent}/publication`)
        .set(alice.auth)
        .send({ share_enabled: true, show_sources: true })
        .expect(200);
    });

    const openAsVisitor = (session: string, passageId: unknown) =>
      t.http
        .post(passagePaths.visitor(agent))
        .set('Origin', t.url)
        .set('X-Visitor-Session', session)
        .send({ passage_id: passageId });

    it('opens a passage cited in their answer, and nothing outside the published build', async () => {
      const visitor = await openVisitor(t, agent);
      const answer = await visitor.send('Which product sold in Braga?');
      expect(answer.status).toBe(200);
      const events = serverSentEvents<{ type: string; sources?: TAnswerSource[] }>(answer.text);
      const saved = events.find((event) => event.type === 'saved');
      const cited = saved?.sources?.[0];
      expect(cited?.id).toMatch(/^chunk-00000\d$/);
      // The owner opens it later from the conversation, in the build that answered.
      const owner = await t.http
        .get(`${passagePaths.owner(agent, cited!.id!)}?build_id=${cited!.build_id!}`)
        .set(alice.auth)
        .expect(200);
      expect(owner.body).toMatchObject({ id: cited!.id, build_id: cited!.build_id });
      const { body } = await openAsVisitor(visitor.session, cited!.id).expect(200);
      expect(body).toMatchObject({ id: cited!.id, citation: cited!.citation, kind: 'row' });
      expect((body as TPassageView).columns).toEqual(HEADER);
      const foreign = await openAsVisitor(visitor.session, 'bob-only-1').expect(404);
      expect(foreign.body).toEqual({ detail: PASSAGE_NOT_FOUND });
      await openAsVisitor(visitor.session, 'chunk-999999').expect(404);
      await openAsVisitor(visitor.session, '').expect(400);
    });

    it('opens a passage for a program holding an access key of the agent, none for another', async () => {
      const key = await t.http.post(`/agents/${agent}/keys`).set(alice.auth).send({ name: 'app' });
      const bearer = `Bearer ${key.body.secret as string}`;
      const answer = await t.http
        .post(`/agents/${agent}/chat`)
        .set('Authorization', bearer)
        .send({ message: 'Which product sold in Braga?' })
        .expect(200);
      const cited = (answer.body as { sources: TAnswerSource[] }).sources[0]!;
      const api = (id: string, passageId: string) =>
        t.http
          .post(`/agents/${id}/passages`)
          .set('Authorization', bearer)
          .send({ passage_id: passageId });
      const { body } = await api(agent, cited.id!).expect(200);
      expect(body).toMatchObject({ id: cited.id, citation: cited.citation });
      await api(agent, 'bob-only-1').expect(404);
      // The key is this agent's: another agent's route does not take it.
      await api(bobAgent, 'bob-only-1').expect(404);
      await t.http.post(`/agents/${agent}/passages`).send({ passage_id: cited.id }).expect(401);
    });

    it('is admitted only as the page’s messages are, and not when sources are kept from visitors', async () => {
      const visitor = await openVisitor(t, agent);
      // No session, or another site's call: the page's own refusals.
      await t.http
        .post(passagePaths.visitor(agent))
        .set('Origin', t.url)
        .send({ passage_id: 'chunk-000001' })
        .expect(403);
      await t.http
        .post(passagePaths.visitor(agent))
        .set('Origin', 'https://elsewhere.example.com')
        .set('X-Visitor-Session', visitor.session)
        .send({ passage_id: 'chunk-000001' })
        .expect(403);
      // A session of this agent's page is no session for another agent.
      await t.http
        .post(passagePaths.visitor(bobAgent))
        .set('Origin', t.url)
        .set('X-Visitor-Session', visitor.session)
        .send({ passage_id: 'bob-only-1' })
        .expect(403);
      await t.http
        .patch(`/agents/${agent}/publication`)
        .set(alice.auth)
        .send({ show_sources: false })
        .expect(200);
      const hidden = await openAsVisitor(visitor.session, 'chunk-000001').expect(404);
      expect(hidden.body).toEqual({ detail: PASSAGE_NOT_FOUND });
    });
  });
});
