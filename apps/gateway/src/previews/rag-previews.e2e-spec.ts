import type { LlmTestServer } from '@agentloom/agent-runtime/testing';
import { configureRagAgent, WIZARD_LLM_KEY, type TestUser } from '@agentloom/test-kit';
import type { TestApp } from '../testing/test-app';
import { csvChunks, markBuilt } from '../testing/built-agents';
import {
  answerOf,
  eventOf,
  SALES_HEADER,
  SALES_ROWS,
  tokenOf,
  usePreviewsApp,
} from './previews.spec-helper';

describe('live previews', () => {
  const { app, ask } = usePreviewsApp();
  let llm: LlmTestServer;
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let salesCsv: string;
  beforeAll(() => {
    ({ llm, t, alice, bob, salesCsv } = app);
  });

  /** A configured RAG agent over sales.csv, Built. */
  async function builtRagAgent(user: TestUser, embeddingModel?: string): Promise<string> {
    const id = await configureRagAgent(t.url, user, {
      name: `Buildable ${Math.random()}`,
      file: salesCsv,
      embeddingModel,
    });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id, userId: user.id, type: 'rag' },
      csvChunks('sales.csv', SALES_HEADER, SALES_ROWS),
      t.config,
    );
    return id;
  }

  describe('RAG', () => {
    let sessionId: string;
    let token: string;

    beforeAll(async () => {
      sessionId = await builtRagAgent(alice);
    });

    it('starts a preview: an absolute /p/{token}/ link, the same link when started again', async () => {
      const first = await t.http
        .post(`/rag/previews/${sessionId}/start`)
        .set(alice.auth)
        .expect(200);
      const url = new URL(first.body.preview_url as string);
      expect(url.protocol).toBe('http:');
      expect(url.pathname).toMatch(/^\/p\/[A-Za-z0-9_-]{43}\/$/);
      token = tokenOf(first.body.preview_url as string);
      const again = await t.http
        .post(`/rag/previews/${sessionId}/start`)
        .set(alice.auth)
        .expect(200);
      // supertest serves each request on a new port, so compare the page, not the origin.
      expect(tokenOf(again.body.preview_url as string)).toBe(token);
    });

    it('serves a framable page in the chosen UI, without the provider key', async () => {
      const page = await t.http.get(`/p/${token}/`).expect(200).expect('Content-Type', /html/);
      expect(page.text).toContain('Buildable'); // the agent's name
      expect(page.text).toContain('class="ui-gradio kind-rag"');
      expect(page.headers['x-frame-options']).toBeUndefined();
      expect(page.headers['content-security-policy']).toContain(
        `frame-ancestors 'self' ${t.config.CORS_ORIGINS.join(' ')}`,
      );
      expect(page.text).not.toContain(WIZARD_LLM_KEY);
      const info = await t.http.get(`/p/${token}/info`).expect(200);
      expect(info.body).toMatchObject({ kind: 'rag', ui: 'gradio', source: 'sales.csv' });
      // No weights can be downloaded here: the local model falls back to full-text search, and
      // says so. The index stays in LanceDB: the loaded agent holds none of it.
      expect(info.body.retrieval).toMatchObject({ mode: 'keyword', chunks: SALES_ROWS.length });
      expect(info.body.retrieval.note).toMatch(/all-MiniLM-L6-v2.*keyword \(full-text\) search/);
      expect(info.body.memory_bytes).toBe(0);
      expect(JSON.stringify(info.body)).not.toContain(WIZARD_LLM_KEY);
    });

    it('answers with a fact only the CSV holds, cites its row, and streams it token by token', async () => {
      const { raw, events } = await ask(token, 'How many quokka umbrellas were sold?');
      const retrieval = eventOf(events, 'retrieval');
      expect(retrieval.sources[0]?.citation).toBe('sales.csv, row 3');
      expect(events.filter((event) => event.type === 'token').length).toBeGreaterThan(1);
      expect(answerOf(events)).toContain('7342');
      expect(events.at(-1)?.type).toBe('done');
      // The user's own key went to the provider, and nowhere near the browser.
      const chat = llm.requests.filter((request) => request.path.endsWith('/chat/completions'));
      expect(chat.at(-1)?.headers.authorization).toBe(`Bearer ${WIZARD_LLM_KEY}`);
      expect(raw).not.toContain(WIZARD_LLM_KEY);
    });

    it('with OpenAI embeddings retrieves through the provider’s embeddings API', async () => {
      const id = await builtRagAgent(alice, 'text-embedding-ada-002');
      const { body } = await t.http.post(`/rag/previews/${id}/start`).set(alice.auth).expect(200);
      const previewToken = tokenOf(body.preview_url as string);
      const info = await t.http.get(`/p/${previewToken}/info`).expect(200);
      expect(info.body.retrieval).toMatchObject({ mode: 'embeddings' });
      const { events } = await ask(previewToken, 'How many tide clocks did Braga sell?');
      const retrieval = eventOf(events, 'retrieval');
      expect(retrieval.mode).toBe('embeddings');
      expect(retrieval.sources[0]?.citation).toBe('sales.csv, row 4');
      expect(answerOf(events)).toContain('518');
      expect(llm.requests.some((request) => request.path.endsWith('/embeddings'))).toBe(true);
    });

    it('an empty question is a 400 with a detail', async () => {
      const { body } = await t.http.post(`/p/${token}/ask`).send({ question: '  ' }).expect(400);
      expect(body.detail).toBe('Type a question first.');
    });

    it('made-up and expired tokens are 404 on every preview route', async () => {
      const madeUp = 'A'.repeat(43);
      await t.http.get(`/p/${madeUp}/`).expect(404);
      await t.http.get(`/p/${madeUp}/info`).expect(404);
      await t.http.post(`/p/${madeUp}/ask`).send({ question: 'hi' }).expect(404);
      await t.http.get('/p/not-a-token/').expect(404);

      const id = await builtRagAgent(alice);
      const { body } = await t.http.post(`/rag/previews/${id}/start`).set(alice.auth).expect(200);
      const expiring = tokenOf(body.preview_url as string);
      await t.http.get(`/p/${expiring}/info`).expect(200);
      await t.redis.client.del(`agentloom:preview:${expiring}`); // what Redis does when the TTL ends
      await t.http.get(`/p/${expiring}/`).expect(404);
      const missing = await t.http.post(`/p/${expiring}/ask`).send({ question: 'hi' }).expect(404);
      expect(missing.body.detail).toBe('This preview link has expired or does not exist.');
    });

    it('user B cannot start A’s preview, on either route (404 like a missing agent)', async () => {
      const rag = await t.http.post(`/rag/previews/${sessionId}/start`).set(bob.auth).expect(404);
      expect(rag.body.detail).toBe('Agent not found.');
      await t.http.post(`/sql/previews/previews/${sessionId}/start`).set(bob.auth).expect(404);
      await t.http.post(`/rag/previews/${sessionId}/start`).expect(401);
    });

    it('an agent that is not built yet cannot be previewed (422 saying why)', async () => {
      const id = await configureRagAgent(t.url, alice, { file: salesCsv });
      const { body } = await t.http.post(`/rag/previews/${id}/start`).set(alice.auth).expect(422);
      expect(body.detail).toBe('Build the agent first: only a built agent can be previewed.');
    });
  });
});
