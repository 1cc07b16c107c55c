import type { AgentEvent } from '@agentloom/agent-runtime';
import {
  startLlmTestServer,
  writeSqliteFile,
  type LlmTestServer,
} from '@agentloom/agent-runtime/testing';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import {
  configureRagAgent,
  configureSqlAgent,
  launchImageAgent,
  signUpAndLogIn,
  WIZARD_LLM_KEY,
  type DatabaseTable,
  type TestUser,
} from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import { csvChunks, markBuilt } from '../testing/built-agents';

/** A fact only the CSV holds: no model could answer it without retrieving that row. */
const SALES_HEADER = ['region', 'product', 'units'];
const SALES_ROWS = [
  ['Porto', 'Lantern kits', '1204'],
  ['Lisbon', 'Quokka umbrellas', '7342'],
  ['Braga', 'Tide clocks', '518'],
  ['Faro', 'Sun visors', '2290'],
];
const SALES_CSV = [SALES_HEADER, ...SALES_ROWS].map((row) => row.join(',')).join('\n') + '\n';

const GEMINI_KEY = 'AIzaSy-ImageAgentTestKey-0123456789abcdef';
const PREVIEW_DB = { database: 'agentloom_e2e_preview', table: 'shipments' };

/** Server-sent events of a finished stream, parsed. */
function parseEvents(text: string): AgentEvent[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').find((line) => line.startsWith('data:')))
    .filter((line): line is string => Boolean(line))
    .map((line) => JSON.parse(line.slice(5)) as AgentEvent);
}

/** The first event of a kind (the test fails here if there is none). */
function eventOf<T extends AgentEvent['type']>(events: AgentEvent[], type: T) {
  const found = events.find((event) => event.type === type);
  if (!found) throw new Error(`no ${type} event in ${JSON.stringify(events)}`);
  return found as Extract<AgentEvent, { type: T }>;
}

const answerOf = (events: AgentEvent[]) =>
  events.map((event) => (event.type === 'token' ? event.text : '')).join('');

describe('live previews', () => {
  let llm: LlmTestServer;
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let fixtures: string;
  let salesCsv: string;

  beforeAll(async () => {
    llm = await startLlmTestServer();
    fixtures = mkdtempSync(path.join(tmpdir(), 'previews-'));
    mkdirSync(path.join(fixtures, 'sqlite'));
    t = await createTestApp({
      SQLITE_PREVIEW_DIR: path.join(fixtures, 'sqlite'),
      OPENAI_BASE_URL: llm.baseUrls.openai ?? '',
      DEEPSEEK_BASE_URL: llm.baseUrls.deepseek ?? '',
      GEMINI_BASE_URL: llm.baseUrls.gemini ?? '',
    });
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
    salesCsv = path.join(fixtures, 'sales.csv');
    writeFileSync(salesCsv, SALES_CSV);
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
    await rm(fixtures, { recursive: true, force: true });
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
    );
    return id;
  }

  const tokenOf = (previewUrl: string) => new URL(previewUrl).pathname.split('/')[2] ?? '';

  async function ask(token: string, question: string) {
    const response = await t.http
      .post(`/p/${token}/ask`)
      .send({ question })
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (part: string) => (text += part));
        res.on('end', () => done(null, text));
      })
      .expect(200)
      .expect('Content-Type', /text\/event-stream/);
    const raw = response.body as string;
    return { raw, events: parseEvents(raw) };
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
      // No weights can be downloaded here: the local model falls back to BM25, and says so.
      expect(info.body.retrieval).toMatchObject({ mode: 'keyword', chunks: SALES_ROWS.length });
      expect(info.body.retrieval.note).toMatch(/all-MiniLM-L6-v2.*keyword \(BM25\)/);
      expect(info.body.memory_bytes).toBeGreaterThan(0);
      expect(JSON.stringify(info.body)).not.toContain(WIZARD_LLM_KEY);
    });

    it('answers with a fact only the CSV holds, cites its row, and streams it token by token', async () => {
      const { raw, events } = await ask(token, 'How many quokka umbrellas were sold?');
      const retrieval = eventOf(events, 'retrieval');
      expect(retrieval.sources[0]?.citation).toBe('sales.csv, row 2');
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
      expect(retrieval.sources[0]?.citation).toBe('sales.csv, row 3');
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

  describe('SQL', () => {
    type SqlSource = { file: string } | { database: DatabaseTable };

    async function sqlAgent(user: TestUser, source: SqlSource) {
      const started = await startSqlAgent(user, source);
      expect(started.status).toBe(200);
      return tokenOf(started.body.preview_url as string);
    }

    /** A Built SQL agent over `source`, and the answer to starting its preview. */
    async function startSqlAgent(user: TestUser, source: SqlSource) {
      const id = await configureSqlAgent(t.url, user, source);
      await markBuilt(t.prisma, t.config.DATA_DIR, { id, userId: user.id, type: 'sql' });
      return t.http.post(`/sql/previews/previews/${id}/start`).set(user.auth);
    }

    const sqliteSource = (uri: string): SqlSource => ({
      database: { type: 'sqlite', uri, database: 'main', table: 'parcels' },
    });

    const csvSource = (): SqlSource => ({ file: salesCsv });

    it('over a CSV: runs the SQL the model wrote, shows it and the table, answers the count', async () => {
      const token = await sqlAgent(alice, csvSource());
      const page = await t.http.get(`/p/${token}/`).expect(200);
      expect(page.text).toContain('class="ui-streamlit kind-sql"');
      // The page shows the table it queries, with its columns, so a person knows what to ask.
      const info = await t.http.get(`/p/${token}/info`).expect(200);
      expect(info.body.tables).toHaveLength(1);
      expect(info.body.tables[0].columns.map((column: { name: string }) => column.name)).toEqual(
        SALES_HEADER,
      );
      const { events, raw } = await ask(token, 'How many rows are in the sales table?');
      const sql = eventOf(events, 'sql');
      expect(sql.sql).toMatch(/^SELECT COUNT\(\*\)/i);
      const table = eventOf(events, 'table');
      expect(table.rows[0]?.[0]).toBe(SALES_ROWS.length);
      expect(answerOf(events)).toContain(String(SALES_ROWS.length));
      expect(raw).not.toContain(WIZARD_LLM_KEY);
    });

    it('over a CSV: refuses DROP, UPDATE and a hidden second statement; the table is intact', async () => {
      const token = await sqlAgent(alice, csvSource());
      for (const written of [
        'DROP TABLE sales',
        "UPDATE sales SET units = '0'",
        'SELECT 1; DELETE FROM sales',
      ]) {
        llm.sqlReplies.push(written);
        const { events } = await ask(token, 'Tidy up the table please');
        expect(events.find((event) => event.type === 'error')).toMatchObject({
          detail: expect.stringMatching(/read-only SELECT/i),
        });
        expect(events.some((event) => event.type === 'table')).toBe(false);
      }
      const { events } = await ask(token, 'How many rows are in the sales table?');
      expect(eventOf(events, 'table').rows[0]?.[0]).toBe(SALES_ROWS.length);
    });

    describe('over a SQLite file', () => {
      it('in the shared folder: answers a count, refuses writes, and the file is unchanged', async () => {
        const file = path.join(fixtures, 'sqlite', 'depot.db');
        await writeSqliteFile(file, [
          'CREATE TABLE parcels (id INTEGER PRIMARY KEY, city TEXT, kilos REAL)',
          "INSERT INTO parcels VALUES (1, 'Porto', 2.5), (2, 'Faro', 1.0), (3, 'Braga', 4.0)",
          'CREATE TABLE couriers (name TEXT)',
        ]);
        const before = await readFile(file);
        const token = await sqlAgent(alice, sqliteSource('sqlite:///depot.db'));

        const { events } = await ask(token, 'How many parcels are there?');
        expect(eventOf(events, 'sql').sql).toMatch(/FROM "?parcels"?/i);
        expect(eventOf(events, 'table').rows[0]?.[0]).toBe(3);
        for (const written of ['DROP TABLE parcels', 'DELETE FROM parcels']) {
          llm.sqlReplies.push(written);
          const refused = await ask(token, 'Empty the table');
          expect(refused.events.some((event) => event.type === 'error')).toBe(true);
        }
        expect((await readFile(file)).equals(before)).toBe(true);
      });

      it('outside the shared folder: the preview does not start, and says why', async () => {
        for (const uri of ['sqlite:////etc/passwd', 'sqlite:///../previews.db']) {
          const started = await startSqlAgent(alice, sqliteSource(uri));
          expect(started.status).toBe(422);
          expect(started.body.detail).toMatch(
            /is outside the folder this server shares for previews/,
          );
        }
      });
    });

    describe('over a MariaDB table', () => {
      let admin: mysql.Connection;

      beforeAll(async () => {
        admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
        await admin.query(`DROP DATABASE IF EXISTS ${PREVIEW_DB.database}`);
        await admin.query(`CREATE DATABASE ${PREVIEW_DB.database}`);
        await admin.query(
          `CREATE TABLE ${PREVIEW_DB.database}.${PREVIEW_DB.table} (id INT PRIMARY KEY, city VARCHAR(40), parcels INT)`,
        );
        await admin.query(
          `INSERT INTO ${PREVIEW_DB.database}.${PREVIEW_DB.table} VALUES (1,'Porto',12),(2,'Lisbon',30),(3,'Faro',7),(4,'Braga',19),(5,'Evora',3)`,
        );
      });
      afterAll(async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${PREVIEW_DB.database}`);
        await admin.end();
      });

      it('answers a count by running the model’s SQL, refuses writes, and the table is intact', async () => {
        const token = await sqlAgent(alice, {
          database: {
            type: 'mysql',
            uri: `mysql://root@127.0.0.1:3306/${PREVIEW_DB.database}`,
            database: PREVIEW_DB.database,
            table: PREVIEW_DB.table,
          },
        });
        const { events } = await ask(token, 'How many shipments are there?');
        expect(eventOf(events, 'table').rows[0]?.[0]).toBe(5);
        expect(answerOf(events)).toContain('5');

        for (const written of [
          `DROP TABLE ${PREVIEW_DB.table}`,
          `UPDATE ${PREVIEW_DB.table} SET parcels = 0`,
          `SELECT 1; DELETE FROM ${PREVIEW_DB.table}`,
        ]) {
          llm.sqlReplies.push(written);
          const refused = await ask(token, 'Clean the table');
          expect(refused.events.some((event) => event.type === 'error')).toBe(true);
        }
        const [rows] = await admin.query(
          `SELECT COUNT(*) AS n, SUM(parcels) AS total FROM ${PREVIEW_DB.database}.${PREVIEW_DB.table}`,
        );
        expect(rows).toEqual([{ n: 5, total: '71' }]);
      });
    });
  });

  describe('image agent', () => {
    it("writes links from PUBLIC_URL, never from the request's Host header", async () => {
      for (const host of ['attacker.example', 'evil"quote.example', '[::1']) {
        const launched = await t.http
          .post('/img/launch-streamlit-app')
          .set(alice.auth)
          .set('Host', host)
          .expect(200);
        expect(new URL(launched.body.url as string).origin).toBe(t.config.PUBLIC_URL);
      }
    });

    it('launches a page, lists the owner’s Gemini keys, generates with a typed or saved key', async () => {
      const token = tokenOf(await launchImageAgent(t.url, alice));
      const page = await t.http.get(`/p/${token}/`).expect(200);
      expect(page.text).toContain('AI Image Generation Agent');
      expect(page.text).toContain('/p/_assets/image.js');
      await t.http
        .get('/p/_assets/image.js')
        .expect(200)
        .expect('Content-Type', /javascript/);

      const saved = await t.http
        .post('/apikeys')
        .set(alice.auth)
        .send({ provider: 'gemini', key: GEMINI_KEY, name: 'Studio key' })
        .expect(201);
      const keys = await t.http.get(`/p/${token}/keys`).expect(200);
      expect(keys.body).toEqual([
        { id: saved.body.id, name: 'Studio key', masked: saved.body.key },
      ]);
      expect(JSON.stringify(keys.body)).not.toContain(GEMINI_KEY);

      const typed = await t.http
        .post(`/p/${token}/images`)
        .field('prompt', 'A lighthouse at dusk')
        .field('api_key', 'AIzaSy-TypedIntoThePage-000000000000')
        .expect(200);
      const png = Buffer.from(typed.body.images[0].data as string, 'base64');
      expect(typed.body.images[0].media_type).toBe('image/png');
      expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
      expect(llm.requests.at(-1)?.headers['x-goog-api-key']).toBe(
        'AIzaSy-TypedIntoThePage-000000000000',
      );

      const edited = await t.http
        .post(`/p/${token}/images`)
        .field('prompt', 'Make the sky purple')
        .field('api_key_id', saved.body.id as string)
        .attach('image', png, { filename: 'lighthouse.png', contentType: 'image/png' })
        .expect(200);
      expect(edited.body.images).toHaveLength(1);
      expect(llm.requests.at(-1)?.headers['x-goog-api-key']).toBe(GEMINI_KEY);
      expect(JSON.stringify(edited.body)).not.toContain(GEMINI_KEY);

      const noKey = await t.http.post(`/p/${token}/images`).field('prompt', 'x').expect(400);
      expect(noKey.body.detail).toBe('Set your Gemini API key first.');
      const noPrompt = await t.http.post(`/p/${token}/images`).field('prompt', '  ').expect(400);
      expect(noPrompt.body.detail).toBe('Describe the image first.');
      const untyped = await t.http.post(`/p/${token}/images`).send({}).expect(400);
      expect(untyped.body.detail).toBe('Describe the image first.');
      // Bob's vault key id is not Alice's to use.
      await t.http
        .post(`/p/${token}/images`)
        .field('prompt', 'x')
        .field('api_key_id', '00000000-0000-4000-8000-000000000000')
        .expect(404);
    });

    it('the image page is not an agent preview, and an agent preview is not an image page', async () => {
      const token = tokenOf(await launchImageAgent(t.url, bob));
      await t.http.get(`/p/${token}/info`).expect(404);
      await t.http.post(`/p/${token}/ask`).send({ question: 'hi' }).expect(404);
      await t.http.post('/img/launch-streamlit-app').expect(401);
    });
  });
});
