import { WIZARD_ROUTES, wizardRoute } from '@agentloom/contracts';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import { createMariaDbSource, dropMariaDbSource, MARIADB } from '@agentloom/data-sources/testing';
import { peopleWorkbook } from '@agentloom/source-readers/testing';

const DEEPSEEK_KEY = 'sk-deepseek-SqlWizard-1234567890LMNO';

describe('SQL wizard API', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let fixtures: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
    fixtures = mkdtempSync(path.join(tmpdir(), 'sql-wizard-'));
    await createMariaDbSource();
  });
  afterAll(async () => {
    await dropMariaDbSource();
    await rm(fixtures, { recursive: true, force: true });
    await t.close();
  });

  const form = (user: TestUser, step: string, fields: Record<string, string>) =>
    t.http.post(wizardRoute('sql', step)).set(user.auth).type('form').send(fields);

  const upload = (user: TestUser, sessionId: string, file: string) =>
    t.http
      .post(WIZARD_ROUTES.sql.upload)
      .set(user.auth)
      .field('session_id', sessionId)
      .attach('file', file);

  async function newPipeline(user: TestUser, name = `SQL ${Math.random()}`): Promise<string> {
    const { body } = await t.http
      .post('/pipelines')
      .set(user.auth)
      .send({ name, agent_type: 'sql' })
      .expect(201);
    return body.session_id as string;
  }

  /** GET /pipelines/{id} as the owner sees it (untyped JSON, like every supertest body). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const detail = async (user: TestUser, id: string): Promise<Record<string, any>> => {
    const response = await t.http.get(`/pipelines/${id}`).set(user.auth).expect(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return response.body as Record<string, any>;
  };

  it('configures a complete SQL agent over a MariaDB table exactly as the web app calls it', async () => {
    const id = await newPipeline(alice, 'Orders analyst');
    await form(alice, 'source', { session_id: id, source_type: 'mysql' }).expect(200);
    const db = await form(alice, 'database', {
      session_id: id,
      db_uri: `mysql://${MARIADB.user}:${encodeURIComponent(MARIADB.password)}@127.0.0.1:3306/${MARIADB.database}`,
      db_name: MARIADB.database,
      table_name: 'orders',
    }).expect(200);
    expect(db.body.saved.database).toMatchObject({
      type: 'mysql',
      uri: `mysql://${MARIADB.user}:****@127.0.0.1:3306/${MARIADB.database}`,
      table: 'orders',
      approximate_rows: 3,
    });
    // The wizard's LLM step: provider, then key, then model.
    await form(alice, 'provider', { session_id: id, llm_provider: 'Deepseek' }).expect(200);
    const key = await form(alice, 'key', { session_id: id, api_key: DEEPSEEK_KEY }).expect(200);
    expect(key.body.saved).toEqual({ provider: 'deepseek', api_key: 'sk-deeps...LMNO' });
    await form(alice, 'model', { session_id: id, model: 'deepseek-chat' }).expect(200);
    await form(alice, 'systemPrompt', {
      session_id: id,
      prompt: 'You are a careful analyst. Only read data.',
    }).expect(200);
    await form(alice, 'framework', { session_id: id, framework: 'sql_query_db' }).expect(200);
    await form(alice, 'ui', { session_id: id, ui: 'gradio' }).expect(200);

    const body = await detail(alice, id);
    expect(body).toMatchObject({
      agent_type: 'sql',
      description: 'SQL over orders (MySQL) · deepseek-chat · Gradio',
      missing_steps: [],
      config: {
        source_type: 'mysql',
        file: null,
        database: { type: 'mysql', database: MARIADB.database, table: 'orders' },
        llm: { provider: 'deepseek', model: 'deepseek-chat', api_key: 'sk-deeps...LMNO' },
        system_prompt: 'You are a careful analyst. Only read data.',
        framework: 'sql_query_db',
        ui: 'gradio',
      },
    });
    const [row] = await t.prisma.$queryRaw<Array<Record<string, unknown>>>`
      SELECT * FROM pipelines WHERE id = ${id}::uuid`;
    const raw = JSON.stringify(row);
    expect(raw).not.toContain(DEEPSEEK_KEY);
    expect(raw).not.toContain(MARIADB.password);
    expect(raw).not.toContain(encodeURIComponent(MARIADB.password));
  });

  it('configures a CSV source and refuses a framework that cannot serve it (422 naming both)', async () => {
    const id = await newPipeline(alice);
    await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
    const csv = path.join(fixtures, 'orders.csv');
    await writeFile(csv, 'customer,total\nAda,120.5\nGrace,80\n');
    const { body } = await upload(alice, id, csv).expect(200);
    expect(body.saved.file.summary).toEqual({
      kind: 'csv',
      columns: ['customer', 'total'],
      rows: 2,
    });

    const refused = await form(alice, 'framework', {
      session_id: id,
      framework: 'vannaai_db',
    }).expect(422);
    expect(refused.body.detail).toBe(
      'The vannaai_db framework cannot serve a CSV source; it needs a MySQL, Postgres or SQLite database.',
    );
    await form(alice, 'framework', { session_id: id, framework: 'pandasai' }).expect(200);

    // Switching to a database source clears the file framework it can no longer use.
    const switched = await form(alice, 'source', {
      session_id: id,
      source_type: 'postgres',
    }).expect(200);
    expect(switched.body.message).toBe(
      'Source type saved. The pandasai framework cannot serve a Postgres source, so it was cleared.',
    );
    const view = await detail(alice, id);
    expect(view.config).toMatchObject({ source_type: 'postgres', file: null, framework: null });
  });

  it('takes .xlsx for an excel source and refuses a .csv there (415)', async () => {
    const id = await newPipeline(alice);
    await form(alice, 'source', { session_id: id, source_type: 'excel' }).expect(200);
    await upload(alice, id, await peopleWorkbook(fixtures)).expect(200);
    const csv = path.join(fixtures, 'wrong.csv');
    await writeFile(csv, 'a,b\n1,2\n');
    const { body } = await upload(alice, id, csv).expect(415);
    expect(body.detail).toBe('An Excel source takes a .xlsx file; "wrong.csv" is not one.');
  });

  it.each([
    ['database', { db_uri: 'mysql://u:p@h/db', db_name: 'db' }, 'All DB fields are required.'],
    ['framework', { framework: '' }, 'Please select a SQL framework.'],
    ['systemPrompt', {}, 'Please write or select a system prompt.'],
    ['key', {}, 'API Key and model selection are required.'],
    ['model', {}, 'API Key and model selection are required.'],
    [
      'source',
      { source_type: 'pdf' },
      'source_type: must be one of: csv, excel, mysql, postgres, sqlite.',
    ],
    [
      'framework',
      { framework: 'langchain' },
      'framework: must be one of: pandasai, vannaai_file, vannaai_db, sql_query_file, sql_query_db.',
    ],
  ])('%s with %j → 400 "%s"', async (route, fields, message) => {
    const id = await newPipeline(alice);
    const { body } = await form(alice, route, { session_id: id, ...fields }).expect(400);
    expect(body).toEqual({ detail: message });
  });

  it('refuses a model of another provider (422)', async () => {
    const id = await newPipeline(alice);
    await form(alice, 'provider', { session_id: id, llm_provider: 'gemini' }).expect(200);
    const { body } = await form(alice, 'model', { session_id: id, model: 'gpt-4.1' }).expect(422);
    expect(body.detail).toMatch(
      /^gpt-4.1 is not a Gemini model\. Choose one of: gemini-2.0-flash, /,
    );
  });

  it('a database step needs a database source type first', async () => {
    const id = await newPipeline(alice);
    await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
    const { body } = await form(alice, 'database', {
      session_id: id,
      db_uri: 'mysql://u:p@db.example/x',
      db_name: 'x',
      table_name: 't',
    }).expect(422);
    expect(body.detail).toBe(
      'Choose MySQL, Postgres or SQLite as the source type before connecting a database.',
    );
  });

  it('user B using user A’s session id gets 404 on every call, and A’s config is unchanged', async () => {
    const id = await newPipeline(alice, 'Alice private SQL');
    await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
    await form(alice, 'provider', { session_id: id, llm_provider: 'openai' }).expect(200);
    const before = await detail(alice, id);
    const calls: Array<[string, Record<string, string>]> = [
      ['source', { source_type: 'mysql' }],
      ['database', { db_uri: 'mysql://u:p@db.example/x', db_name: 'x', table_name: 't' }],
      ['provider', { llm_provider: 'groq' }],
      ['key', { api_key: DEEPSEEK_KEY }],
      ['model', { model: 'gpt-4o' }],
      ['systemPrompt', { prompt: 'pwned' }],
      ['framework', { framework: 'pandasai' }],
      ['ui', { ui: 'streamlit' }],
    ];
    for (const [route, fields] of calls) {
      const response = await form(bob, route, { session_id: id, ...fields });
      expect([route, response.status, response.body]).toEqual([
        route,
        404,
        { detail: 'Agent not found.' },
      ]);
    }
    const csv = path.join(fixtures, 'evil.csv');
    await writeFile(csv, 'a\n1\n');
    await upload(bob, id, csv).expect(404);
    expect(await detail(alice, id)).toEqual(before);
  });
});
