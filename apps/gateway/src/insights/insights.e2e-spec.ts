import { curatedAnswerPaths, insightsPaths, type TAgentInsights } from '@agentloom/contracts';
import { configureRagAgent, type TestUser } from '@agentloom/test-kit';
import { csvChunks, markBuilt } from '../testing/built-agents';
import type { TestApp } from '../testing/test-app';
import { SALES_HEADER, SALES_ROWS, usePreviewsApp } from '../previews/previews.spec-helper';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The owner's insights, through HTTP on the real gateway and Postgres, from conversations the
 * published agent really had (answered by the LLM stand-in): questions per day over 14 days, the
 * answers without a source and those with a thumbs down, each with its question and whether the
 * right answer was written.
 */
describe('agent insights', () => {
  const { app } = usePreviewsApp();
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let agent: string;
  let auth: { Authorization: string };

  beforeAll(async () => {
    ({ t, alice, bob } = app);
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
    await t.http.put(`/agents/${agent}/publication`).set(alice.auth).expect(200);
    const key = await t.http
      .post(`/agents/${agent}/keys`)
      .set(alice.auth)
      .send({ name: 'tests' })
      .expect(201);
    auth = { Authorization: `Bearer ${key.body.secret as string}` };
  });

  const chat = async (message: string, conversationId?: string) => {
    const { body } = await t.http
      .post(`/agents/${agent}/chat`)
      .set(auth)
      .send({ message, conversation_id: conversationId })
      .expect(200);
    return body as { message_id: string; conversation_id: string; answer: string };
  };

  it('counts questions per day and lists answers without a source and with a thumbs down, with their questions', async () => {
    const empty = await t.http.get(insightsPaths.insights(agent)).set(alice.auth).expect(200);
    const none = empty.body as TAgentInsights;
    expect(none.days).toHaveLength(14);
    expect(none.days.at(-1)?.date).toBe(new Date().toISOString().slice(0, 10));
    expect(none).toMatchObject({
      questions: 0,
      unanswered: { total: 0, answers: [] },
      thumbs_down: { total: 0, answers: [] },
    });

    const mercury = await chat('What is the boiling point of mercury?');
    const faro = await chat('Which product sold in Faro?', mercury.conversation_id);
    const porto = await chat('Which product sold in Porto?');
    await t.prisma.conversationMessage.update({
      where: { id: faro.message_id },
      data: { feedback: -1 },
    });
    // A question of three weeks ago is outside the period.
    const old = await chat('What is the melting point of lead?');
    const weeksAgo = new Date(Date.now() - 21 * DAY_MS);
    await t.prisma.conversationMessage.updateMany({
      where: { conversationId: old.conversation_id },
      data: { createdAt: weeksAgo },
    });
    await t.http
      .post(curatedAnswerPaths.list(agent))
      .set(alice.auth)
      .send({ corrects_message_id: faro.message_id, answer: 'Faro sold 2290 sun visors.' })
      .expect(201);

    const { body } = await t.http.get(insightsPaths.insights(agent)).set(alice.auth).expect(200);
    const insights = body as TAgentInsights;
    expect(insights.questions).toBe(3);
    expect(insights.days.at(-1)?.questions).toBe(3);
    expect(insights.days.slice(0, -1).every((day) => day.questions === 0)).toBe(true);
    expect(insights.unanswered).toEqual({
      total: 1,
      answers: [
        {
          message_id: mercury.message_id,
          conversation_id: mercury.conversation_id,
          question: 'What is the boiling point of mercury?',
          answer: mercury.answer,
          answered_at: expect.any(String),
          curated_answer_id: null,
        },
      ],
    });
    expect(insights.thumbs_down.total).toBe(1);
    expect(insights.thumbs_down.answers[0]).toMatchObject({
      message_id: faro.message_id,
      question: 'Which product sold in Faro?',
      answer: faro.answer,
      curated_answer_id: expect.any(String),
    });
    expect(JSON.stringify(insights)).not.toContain(porto.message_id);

    const foreign = await t.http.get(insightsPaths.insights(agent)).set(bob.auth).expect(404);
    expect(foreign.body).toEqual({ detail: 'Agent not found.' });
  });
});
