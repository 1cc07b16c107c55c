import {
  buildPaths,
  evaluationPaths,
  retrievalPaths,
  type TRetrievalSettingsView,
  type TRetrievalTestResult,
} from '@agentloom/contracts';
import { configureRagAgent, configureSqlAgent, type TestUser } from '@agentloom/test-kit';
import { csvChunks, markBuilt } from '../testing/built-agents';
import type { TestApp } from '../testing/test-app';
import {
  answerOf,
  eventOf,
  SALES_HEADER,
  SALES_ROWS,
  tokenOf,
  usePreviewsApp,
} from '../previews/previews.spec-helper';

/**
 * The owner's levers on retrieval, through HTTP on the real gateway, Postgres, Redis and the
 * embeddings stand-in: the settings in plain words, the retrieval test (which passages a question
 * would read, their scores, who found them and where they come from), and an agent that says it
 * does not know when no passage is relevant.
 */
describe('retrieval settings, the retrieval test and answering only from the sources', () => {
  const { app, ask } = usePreviewsApp();
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let agent: string;

  beforeAll(async () => {
    ({ t, alice, bob } = app);
    agent = await configureRagAgent(t.url, alice, {
      file: app.salesCsv,
      embeddingModel: 'text-embedding-3-small',
    });
  });

  const build = (id: string) =>
    markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id, userId: alice.id, type: 'rag' },
      csvChunks('sales.csv', SALES_HEADER, SALES_ROWS),
      t.config,
    );

  const retrievalTest = (user: TestUser, id: string, question: string) =>
    t.http.post(retrievalPaths.test(id)).set(user.auth).send({ question });

  it('starts a new agent searching both ways, 4 passages of 800 characters, answering only from its sources', async () => {
    const { body } = await t.http.get(retrievalPaths.settings(agent)).set(alice.auth).expect(200);
    expect(body).toEqual({
      settings: {
        chunk_size: 800,
        chunk_overlap: 100,
        top_k: 4,
        search: 'both',
        answer_only_from_sources: true,
      },
      built: null,
      build_needed: false,
      reembeds_everything: false,
    });
    await t.http.get(retrievalPaths.settings(agent)).set(bob.auth).expect(404);
  });

  it('tests retrieval only once built, for its owner only', async () => {
    const before = await retrievalTest(alice, agent, 'Which product sold in Braga?').expect(422);
    expect(before.body.detail).toBe(
      'Build the agent first: the test searches the passages a build has indexed.',
    );
    await build(agent);
    const foreign = await retrievalTest(bob, agent, 'Which product sold in Braga?').expect(404);
    expect(foreign.body).toEqual({ detail: 'Agent not found.' });
    await retrievalTest(alice, '00000000-0000-4000-8000-000000000000', 'hi').expect(404);
    const empty = await retrievalTest(alice, agent, '   ').expect(400);
    expect(empty.body.detail).toMatch(/Type a question first\./);
  });

  it('answers the passages a question reads: score, similarity, who found it, and the row it comes from', async () => {
    const { body } = await retrievalTest(
      alice,
      agent,
      'How many Tide clocks did Braga sell?',
    ).expect(200);
    const result = body as TRetrievalTestResult;
    expect(result.settings.top_k).toBe(4);
    expect(result.answers).toBe(true);
    expect(result.relevance_threshold).toBe(0.3);
    expect(result.note).toBeNull();
    expect(result.passages).toHaveLength(4);
    expect(result.passages[0]).toMatchObject({
      citation: 'sales.csv, row 4',
      source: 'sales.csv',
      row: 3, // the third data row: the spreadsheet's row 4, under its header
      found_by: 'both',
      relevant: true,
      text: expect.stringContaining('Tide clocks'),
    });
    expect(result.passages[0]!.similarity).toBeGreaterThan(0.3);
    expect(result.passages[0]!.word_score).toBeGreaterThan(0);
    // Ordered by the fused score, best first.
    const scores = result.passages.map((passage) => passage.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('saves settings in plain words, says they apply from the next build and whether it re-embeds', async () => {
    const fewer = await t.http
      .put(retrievalPaths.settings(agent))
      .set(alice.auth)
      .send({ top_k: 2, search: 'words' })
      .expect(200);
    expect(fewer.body as TRetrievalSettingsView).toMatchObject({
      settings: { top_k: 2, search: 'words', chunk_size: 800 },
      built: { top_k: 4, search: 'both' },
      build_needed: true,
      reembeds_everything: false,
    });
    // The test searches with the saved settings before anything is built again.
    const { body } = await retrievalTest(alice, agent, 'Which product sold in Porto?').expect(200);
    expect((body as TRetrievalTestResult).passages.map((p) => p.found_by)).toEqual([
      'words',
      'words',
    ]);
    const larger = await t.http
      .put(retrievalPaths.settings(agent))
      .set(alice.auth)
      .send({ chunk_size: 1500 })
      .expect(200);
    expect(larger.body).toMatchObject({ build_needed: true, reembeds_everything: true });
    const cut = await retrievalTest(alice, agent, 'Which product sold in Porto?').expect(200);
    expect(cut.body.note).toMatch(/passage size you chose applies from the next build/);

    const overlap = await t.http
      .put(retrievalPaths.settings(agent))
      .set(alice.auth)
      .send({ chunk_overlap: 1000 })
      .expect(400);
    expect(overlap.body.detail).toMatch(/at most half a passage/);
    const deep = await t.http
      .put(retrievalPaths.settings(agent))
      .set(alice.auth)
      .send({ top_k: 50 })
      .expect(400);
    expect(deep.body.detail).toMatch(/at most 12 passages/);
    await t.http.put(retrievalPaths.settings(agent)).set(bob.auth).send({ top_k: 3 }).expect(404);
  });

  it('has no retrieval settings for a SQL agent', async () => {
    const sql = await configureSqlAgent(t.url, alice, { file: app.salesCsv });
    const { body } = await t.http.get(retrievalPaths.settings(sql)).set(alice.auth).expect(422);
    expect(body.detail).toMatch(/Only RAG agents search passages/);
  });

  it('says it does not know, without a source, when no passage is relevant; answers when one is', async () => {
    const strict = await configureRagAgent(t.url, alice, {
      file: app.salesCsv,
      embeddingModel: 'text-embedding-3-small',
    });
    await build(strict);
    const started = await t.http.post(`/rag/previews/${strict}/start`).set(alice.auth).expect(200);
    const token = tokenOf(started.body.preview_url as string);

    const unknown = await ask(token, 'What is the boiling point of mercury?');
    expect(eventOf(unknown.events, 'retrieval')).toMatchObject({ sources: [], unanswered: true });
    expect(answerOf(unknown.events)).toMatch(/do not know/);
    const tested = await retrievalTest(alice, strict, 'What is the boiling point of mercury?');
    expect(tested.body).toMatchObject({ answers: false });
    expect((tested.body as TRetrievalTestResult).passages.every((p) => !p.relevant)).toBe(true);

    const known = await ask(token, 'How many Quokka umbrellas were sold?');
    expect(eventOf(known.events, 'retrieval').unanswered).toBeUndefined();
    expect(answerOf(known.events)).toContain('7342');

    // Published, the question is flagged for its owner with the stored answer.
    await t.http.put(`/agents/${strict}/publication`).set(alice.auth).expect(200);
    const key = await t.http
      .post(`/agents/${strict}/keys`)
      .set(alice.auth)
      .send({ name: 'tests' })
      .expect(201);
    const auth = { Authorization: `Bearer ${key.body.secret as string}` };
    for (const message of [
      'What is the boiling point of mercury?',
      'Which product sold in Faro?',
    ]) {
      await t.http.post(`/agents/${strict}/chat`).set(auth).send({ message }).expect(200);
    }
    const answers = await t.prisma.conversationMessage.findMany({
      where: { role: 'assistant', conversation: { pipelineId: strict } },
      orderBy: { createdAt: 'asc' },
    });
    expect(answers.map((answer) => answer.unanswered)).toEqual([true, false]);
  });

  it("keeps the owner's expected questions in the agent, outside what a build is compared on", async () => {
    const id = await configureRagAgent(t.url, alice, { file: app.salesCsv });
    const path = evaluationPaths.expectedQuestions(id);
    expect((await t.http.get(path).set(alice.auth).expect(200)).body).toEqual({ questions: [] });
    const saved = await t.http
      .put(path)
      .set(alice.auth)
      .send({
        questions: ['Which product sold in Braga?', ' Which product sold in Braga? ', 'Faro?'],
      })
      .expect(200);
    expect(saved.body).toEqual({ questions: ['Which product sold in Braga?', 'Faro?'] });
    expect((await t.http.get(path).set(alice.auth).expect(200)).body).toEqual(saved.body);
    const tooMany = await t.http
      .put(path)
      .set(alice.auth)
      .send({ questions: Array.from({ length: 21 }, (_, i) => `Question ${i}?`) })
      .expect(400);
    expect(tooMany.body.detail).toMatch(/at most 20 questions/);
    await t.http.get(path).set(bob.auth).expect(404);
    await t.http.put(path).set(bob.auth).send({ questions: [] }).expect(404);
    const sql = await configureSqlAgent(t.url, alice, { file: app.salesCsv });
    await t.http.get(evaluationPaths.expectedQuestions(sql)).set(alice.auth).expect(422);

    // A build snapshots the agent without them: they change nothing a build is compared on.
    await t.http.post('/rag/api/build/agent').set(alice.auth).type('form').send({ session_id: id });
    const built = await t.prisma.build.findFirstOrThrow({ where: { pipelineId: id } });
    expect(JSON.stringify(built.snapshot)).not.toContain('Braga');
    const history = await t.http.get(buildPaths.history(id)).set(alice.auth).expect(200);
    expect(history.body[0]).toMatchObject({ changes: ['First build'], evaluation: null });
  });
});
