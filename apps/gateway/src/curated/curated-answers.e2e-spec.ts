import type { LlmTestServer } from '@agentloom/agent-runtime/testing';
import {
  CURATED_ANSWERS_MAX_PER_AGENT,
  curatedAnswerPaths,
  type TCuratedAnswer,
} from '@agentloom/contracts';
import { configureRagAgent, configureSqlAgent, type TestUser } from '@agentloom/test-kit';
import { randomUUID } from 'node:crypto';
import { AgentsRepository } from '../agents/agents.repository';
import { CuratedMatcher, type CuratedMatching } from '../agents/curated-matcher';
import { CuratedVersions } from '../agents/curated-versions';
import { RedisService } from '../redis/redis.service';
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

const REFUNDS = 'What is your refund policy?';
const REFUNDS_ANSWER = 'Refunds within 30 days of delivery, no questions asked.';

/**
 * The owner's curated answers, through HTTP on the real gateway, Postgres, Redis and the LLM and
 * embeddings stand-in (which records every call): written, changed and deleted by the owner only;
 * a question close in meaning is answered with the owner's text without the model, in the preview
 * and on the published API; any other question still goes to the model; and the right answer is
 * written in one step from an answer with a thumbs down.
 */
describe('curated answers', () => {
  const { app, ask } = usePreviewsApp();
  let t: TestApp;
  let llm: LlmTestServer;
  let alice: TestUser;
  let bob: TestUser;
  let agent: string;

  beforeAll(async () => {
    ({ t, llm, alice, bob } = app);
    agent = await configureRagAgent(t.url, alice, {
      file: app.salesCsv,
      embeddingModel: 'text-embedding-3-small',
    });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id: agent, userId: alice.id, type: 'rag' },
      csvChunks('sales.csv', SALES_HEADER, SALES_ROWS),
      t.config,
    );
  });

  /** The stand-in's calls so far: answers written by the model, and texts embedded. */
  const calls = (kind: 'chat/completions' | 'embeddings') =>
    llm.requests.filter((request) => request.path.startsWith(`/v1/${kind}`)).length;

  const write = (user: TestUser, id: string, body: object) =>
    t.http.post(curatedAnswerPaths.list(id)).set(user.auth).send(body);

  async function previewOf(id: string, kind: 'rag' | 'sql' = 'rag') {
    const start =
      kind === 'rag' ? `/rag/previews/${id}/start` : `/sql/previews/previews/${id}/start`;
    const started = await t.http.post(start).set(alice.auth).expect(200);
    return tokenOf(started.body.preview_url as string);
  }

  it('are written, listed, changed and deleted by the agent’s owner only', async () => {
    const created = await write(alice, agent, { question: ' Opening hours? ', answer: '9 to 5.' });
    expect(created.status).toBe(201);
    const answer = created.body as TCuratedAnswer;
    expect(answer).toMatchObject({
      question: 'Opening hours?',
      answer: '9 to 5.',
      corrects_message_id: null,
    });
    const one = curatedAnswerPaths.one(agent, answer.id);

    const listed = await t.http.get(curatedAnswerPaths.list(agent)).set(alice.auth).expect(200);
    expect(listed.body).toEqual({ answers: [answer] });
    const put = await t.http.put(one).set(alice.auth).send({ answer: '9 to 6.' }).expect(200);
    expect(put.body).toMatchObject({ question: 'Opening hours?', answer: '9 to 6.' });
    const patched = await t.http
      .patch(one)
      .set(alice.auth)
      .send({ question: 'When are you open?' })
      .expect(200);
    expect(patched.body).toMatchObject({ question: 'When are you open?', answer: '9 to 6.' });

    // Another owner: the same 404 as an agent that does not exist, and nothing changes.
    for (const response of [
      await t.http.get(curatedAnswerPaths.list(agent)).set(bob.auth),
      await write(bob, agent, { question: 'q', answer: 'a' }),
      await t.http.put(one).set(bob.auth).send({ answer: 'Never.' }),
      await t.http.delete(one).set(bob.auth),
    ]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: 'Agent not found.' });
    }
    // Plain words for what is wrong.
    const empty = await write(alice, agent, { question: '  ', answer: 'x' }).expect(400);
    expect(empty.body).toEqual({ detail: 'question: Type the question this answer is for.' });
    const none = await write(alice, agent, { answer: 'x' }).expect(400);
    expect(none.body.detail).toMatch(/Type the question this answer is for\./);
    const nothing = await t.http.put(one).set(alice.auth).send({}).expect(400);
    expect(nothing.body.detail).toMatch(/Change the question or the answer\./);
    const long = await write(alice, agent, { question: 'q', answer: 'x'.repeat(4001) }).expect(400);
    expect(long.body.detail).toMatch(/at most 4000 characters/);
    const unknown = curatedAnswerPaths.one(agent, randomUUID());
    await t.http.put(unknown).set(alice.auth).send({ answer: 'x' }).expect(404);
    await t.http.delete(curatedAnswerPaths.one(agent, 'nope')).set(alice.auth).expect(404);

    await t.http.delete(one).set(alice.auth).expect(200);
    await t.http.delete(one).set(alice.auth).expect(404);
    const after = await t.http.get(curatedAnswerPaths.list(agent)).set(alice.auth).expect(200);
    expect(after.body).toEqual({ answers: [] });
  });

  it('answers a question close in meaning with the curated text, without the model; others go to the model', async () => {
    const created = await write(alice, agent, { question: REFUNDS, answer: REFUNDS_ANSWER });
    const token = await previewOf(agent);
    const [chats, embedded] = [calls('chat/completions'), calls('embeddings')];

    const first = await ask(token, 'What is the refund policy?');
    expect(eventOf(first.events, 'curated')).toMatchObject({
      id: created.body.id,
      question: REFUNDS,
    });
    expect(eventOf(first.events, 'curated').similarity).toBeGreaterThanOrEqual(0.75);
    expect(answerOf(first.events)).toBe(REFUNDS_ANSWER);
    expect(first.events.some((event) => event.type === 'retrieval')).toBe(false);
    // The question and the curated question, each embedded once; no model call.
    expect([calls('chat/completions'), calls('embeddings')]).toEqual([chats, embedded + 2]);

    const again = await ask(token, 'What is your refund policy, please?');
    expect(answerOf(again.events)).toBe(REFUNDS_ANSWER);
    expect([calls('chat/completions'), calls('embeddings')]).toEqual([chats, embedded + 3]);

    // An unrelated question: the model answers from the passages; the question embedded once.
    const other = await ask(token, 'How many Quokka umbrellas were sold?');
    expect(other.events.some((event) => event.type === 'curated')).toBe(false);
    expect(answerOf(other.events)).toContain('7342');
    expect([calls('chat/completions'), calls('embeddings')]).toEqual([chats + 1, embedded + 4]);

    // A change applies to the next question, with no build.
    const one = curatedAnswerPaths.one(agent, created.body.id as string);
    await t.http.put(one).set(alice.auth).send({ answer: 'Refunds within 60 days.' }).expect(200);
    const changed = await ask(token, 'What is the refund policy?');
    expect(answerOf(changed.events)).toBe('Refunds within 60 days.');
    await t.http.put(one).set(alice.auth).send({ answer: REFUNDS_ANSWER }).expect(200);
  });

  it('answers on the published API with a curated source, and stores the exchange as usual', async () => {
    await t.http.put(`/agents/${agent}/publication`).set(alice.auth).expect(200);
    const key = await t.http
      .post(`/agents/${agent}/keys`)
      .set(alice.auth)
      .send({ name: 'tests' })
      .expect(201);
    const auth = { Authorization: `Bearer ${key.body.secret as string}` };
    const chats = calls('chat/completions');
    const { body } = await t.http
      .post(`/agents/${agent}/chat`)
      .set(auth)
      .send({ message: 'what is the refund policy' })
      .expect(200);
    expect(body).toMatchObject({
      answer: REFUNDS_ANSWER,
      sources: [{ citation: 'Curated answer', snippet: REFUNDS, curated: true }],
    });
    expect(calls('chat/completions')).toBe(chats);
    const stored = await t.prisma.conversationMessage.findUniqueOrThrow({
      where: { id: body.message_id as string },
    });
    expect(stored).toMatchObject({ role: 'assistant', content: REFUNDS_ANSWER, unanswered: false });
    expect(stored.sources).toEqual([expect.objectContaining({ curated: true })]);

    // The OpenAI-compatible door: the same answer, its curated source with the role chunk.
    const streamed = await t.http
      .post('/v1/chat/completions')
      .set(auth)
      .send({
        model: agent,
        stream: true,
        messages: [{ role: 'user', content: "What's your refund policy?" }],
      })
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (part: string) => (text += part));
        res.on('end', () => done(null, text));
      })
      .expect(200);
    const chunks = (streamed.body as string)
      .split('\n')
      .filter((line) => line.startsWith('data: {'))
      .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
    expect(chunks[0]?.sources).toEqual([expect.objectContaining({ curated: true })]);
    const content = chunks
      .map((chunk) => (chunk.choices as { delta: { content?: string } }[])[0]?.delta.content ?? '')
      .join('');
    expect(content).toBe(REFUNDS_ANSWER);
    expect(calls('chat/completions')).toBe(chats);
  });

  it('writes the right answer from an answer with a thumbs down, in one step', async () => {
    const key = await t.http
      .post(`/agents/${agent}/keys`)
      .set(alice.auth)
      .send({ name: 'thumbs' })
      .expect(201);
    const auth = { Authorization: `Bearer ${key.body.secret as string}` };
    const question = 'Do you deliver to Madeira island?';
    const chat = () =>
      t.http.post(`/agents/${agent}/chat`).set(auth).send({ message: question }).expect(200);
    const wrong = await chat();
    expect(wrong.body.sources).not.toContainEqual(expect.objectContaining({ curated: true }));
    await t.prisma.conversationMessage.update({
      where: { id: wrong.body.message_id as string },
      data: { feedback: -1 },
    });

    // Only the answer it corrects and the right one: the question is the one asked.
    const right = 'Yes: Madeira deliveries take five working days.';
    const created = await write(alice, agent, {
      corrects_message_id: wrong.body.message_id,
      answer: right,
    }).expect(201);
    expect(created.body).toMatchObject({
      question,
      answer: right,
      corrects_message_id: wrong.body.message_id,
    });
    const chats = calls('chat/completions');
    expect((await chat()).body.answer).toBe(right);
    expect(calls('chat/completions')).toBe(chats);

    // Not an answer of this agent's conversations: said in words.
    const stray = await write(alice, agent, { corrects_message_id: randomUUID(), answer: 'x' });
    expect(stray.status).toBe(422);
    expect(stray.body.detail).toMatch(/not in any of this agent’s conversations/);
    const other = await configureRagAgent(t.url, alice, { file: app.salesCsv });
    const elsewhere = await write(alice, other, {
      corrects_message_id: wrong.body.message_id,
      answer: 'x',
    });
    expect(elsewhere.status).toBe(422);
  });

  it('matches a SQL agent’s curated questions by shared words', async () => {
    const sql = await configureSqlAgent(t.url, alice, { file: app.salesCsv });
    await markBuilt(t.prisma, t.config.DATA_DIR, { id: sql, userId: alice.id, type: 'sql' });
    const text = 'Porto sold 1204 lantern kits in total.';
    await write(alice, sql, { question: 'How many lantern kits sold in Porto?', answer: text });
    const token = await previewOf(sql, 'sql');
    const chats = calls('chat/completions');
    const curated = await ask(token, 'Lantern kits sold in Porto: how many?');
    expect(answerOf(curated.events)).toBe(text);
    expect(curated.events.some((event) => event.type === 'sql')).toBe(false);
    expect(calls('chat/completions')).toBe(chats);
    const counted = await ask(token, 'How many rows are in the sales table?');
    expect(eventOf(counted.events, 'sql').sql).toMatch(/^SELECT COUNT\(\*\)/i);
    expect(calls('chat/completions')).toBeGreaterThan(chats);
  });

  it('are kept with the loaded agent, and read again on every replica after a change', async () => {
    const sql = await configureSqlAgent(t.url, alice, { file: app.salesCsv });
    const created = await write(alice, sql, {
      question: 'When does the Porto shop open?',
      answer: 'At nine.',
    }).expect(201);
    // Another replica's matcher: its own process memory, the same Postgres and Redis.
    const replica = new CuratedMatcher(
      t.app.get(AgentsRepository),
      new CuratedVersions(t.app.get(RedisService)),
    );
    const matching: CuratedMatching = { pipelineId: sql, embedder: () => null, threshold: 1 };
    const answerTo = async (question: string) =>
      (await replica.match(matching, question))?.entry.answer ?? null;
    expect(await answerTo('Porto shop: when does it open?')).toBe('At nine.');

    // A change made behind the owner's routes moves no version: the kept answers are served.
    await t.prisma.curatedAnswer.update({
      where: { id: created.body.id as string },
      data: { answer: 'Changed behind the routes.' },
    });
    expect(await answerTo('Porto shop: when does it open?')).toBe('At nine.');

    // The owner's change (on this replica) reaches the other one's next question.
    const one = curatedAnswerPaths.one(sql, created.body.id as string);
    await t.http.put(one).set(alice.auth).send({ answer: 'At ten.' }).expect(200);
    expect(await answerTo('Porto shop: when does it open?')).toBe('At ten.');
    await write(alice, sql, { question: 'Is the Braga shop open on Sunday?', answer: 'No.' });
    expect(await answerTo('Braga shop open on Sunday?')).toBe('No.');
    await t.http.delete(one).set(alice.auth).expect(200);
    expect(await answerTo('Porto shop: when does it open?')).toBeNull();
  });

  it('holds at most the limit per agent, and is documented in the OpenAPI', async () => {
    const sql = await configureSqlAgent(t.url, alice, { file: app.salesCsv });
    await t.prisma.curatedAnswer.createMany({
      data: Array.from({ length: CURATED_ANSWERS_MAX_PER_AGENT }, (_, i) => ({
        pipelineId: sql,
        userId: alice.id,
        question: `Question ${i}`,
        answer: `Answer ${i}`,
      })),
    });
    const over = await write(alice, sql, { question: 'One more?', answer: 'No.' }).expect(422);
    expect(over.body.detail).toMatch(/at most 500 curated answers/);

    const { body } = await t.http.get('/docs-json').expect(200);
    const paths = body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/agents/{id}/curated-answers'] ?? {}).sort()).toEqual([
      'get',
      'post',
    ]);
    expect(Object.keys(paths['/agents/{id}/curated-answers/{answerId}'] ?? {}).sort()).toEqual([
      'delete',
      'patch',
      'put',
    ]);
  });
});
