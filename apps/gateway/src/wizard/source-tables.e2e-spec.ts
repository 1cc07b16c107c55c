import { WIZARD_ROUTES, wizardPaths } from '@agentloom/contracts';
import { writeSqliteFile } from '@agentloom/agent-runtime/testing';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import {
  createTableListingSources,
  dropTableListingSources,
  tableListingNames,
} from '@agentloom/data-sources/testing';
import { startTcpForwarder } from '@agentloom/data-sources/testing';

/** POST /wizard/{id}/source/tables against the real local Postgres and MariaDB. */
describe('Source step: the tables of a database', () => {
  const names = tableListingNames();
  const mysqlUri = (password = names.password) =>
    `mysql://${names.user}:${encodeURIComponent(password)}@127.0.0.1:3306/${names.database}`;
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let forwarder: { port: number; close: () => Promise<void> };
  const postgresUri = () =>
    `postgresql://postgres:pg-secret-pw@127.0.0.1:${forwarder.port}/${names.database}`;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
    await createTableListingSources();
    // The platform's own Postgres is refused as a source: reach the same server another way.
    forwarder = await startTcpForwarder(5432);
  });
  afterAll(async () => {
    await forwarder.close();
    await dropTableListingSources();
    await t.close();
  });

  async function newPipeline(user: TestUser, agentType: 'rag' | 'sql', http = t.http) {
    const { body } = await http
      .post('/pipelines')
      .set(user.auth)
      .send({ name: `Tables ${Math.random()}`, agent_type: agentType })
      .expect(201);
    return body.session_id as string;
  }

  const tables = (user: TestUser, id: string, fields: Record<string, string>, http = t.http) =>
    http.post(wizardPaths.sourceTables(id)).set(user.auth).send(fields);

  it('lists Postgres tables and views: public ones bare, other schemas qualified, no partitions', async () => {
    const id = await newPipeline(alice, 'rag');
    const { body } = await tables(alice, id, {
      source_type: 'postgres',
      uri: postgresUri(),
      database: names.database,
    }).expect(200);
    expect(body).toEqual({ tables: ['open_tickets', 'tickets', 'sales.events', 'sales.invoices'] });
  });

  it('a listed name is what the source step connects (Postgres, other schema)', async () => {
    const id = await newPipeline(alice, 'rag');
    const { body } = await tables(alice, id, {
      source_type: 'postgres',
      uri: postgresUri(),
      database: names.database,
    }).expect(200);
    const picked = (body.tables as string[]).find((name) => name === 'sales.invoices');
    expect(picked).toBeDefined();
    const saved = await t.http
      .post(WIZARD_ROUTES.rag.database)
      .set(alice.auth)
      .type('form')
      .send({
        session_id: id,
        source_type: 'postgres',
        uri: postgresUri(),
        database: names.database,
        collection_or_table: picked,
      })
      .expect(200);
    expect(saved.body.saved.database.table).toBe('sales.invoices');
  });

  it('lists MariaDB tables and views for a password login, the type taken from the agent', async () => {
    const id = await newPipeline(alice, 'sql');
    await t.http
      .post(WIZARD_ROUTES.sql.source)
      .set(alice.auth)
      .type('form')
      .send({ session_id: id, source_type: 'mysql' })
      .expect(200);
    const { body } = await tables(alice, id, { uri: mysqlUri(), database: names.database }).expect(
      200,
    );
    expect(body).toEqual({ tables: ['big_orders', 'customers', 'orders'] });
  });

  it('the saved URI, its password masked, lists with the saved connection', async () => {
    const id = await newPipeline(alice, 'sql');
    await t.http
      .post(WIZARD_ROUTES.sql.source)
      .set(alice.auth)
      .type('form')
      .send({ session_id: id, source_type: 'mysql' })
      .expect(200);
    const saved = await t.http
      .post(WIZARD_ROUTES.sql.database)
      .set(alice.auth)
      .type('form')
      .send({ session_id: id, db_uri: mysqlUri(), db_name: names.database, table_name: 'orders' })
      .expect(200);
    const masked = saved.body.saved.database.uri as string;
    expect(masked).toContain(':****@');
    const { body } = await tables(alice, id, { uri: masked, database: names.database }).expect(200);
    expect(body.tables).toContain('customers');

    // Saving another table with that masked URI connects with the saved password too: the
    // wizard's edit changes one field without asking for the password again (issue 30).
    const changed = await t.http
      .post(WIZARD_ROUTES.sql.database)
      .set(alice.auth)
      .type('form')
      .send({ session_id: id, db_uri: masked, db_name: names.database, table_name: 'customers' })
      .expect(200);
    expect(changed.body.saved.database.table).toBe('customers');
    expect(changed.body.saved.database.uri).toBe(masked);
    // The masked text is only the saved connection's: on another agent it is a wrong password.
    const other = await newPipeline(alice, 'sql');
    await t.http
      .post(WIZARD_ROUTES.sql.source)
      .set(alice.auth)
      .type('form')
      .send({ session_id: other, source_type: 'mysql' })
      .expect(200);
    await t.http
      .post(WIZARD_ROUTES.sql.database)
      .set(alice.auth)
      .type('form')
      .send({ session_id: other, db_uri: masked, db_name: names.database, table_name: 'orders' })
      .expect(422);
  });

  it('a wrong password → 422 in the probe’s words, never repeating the password', async () => {
    const id = await newPipeline(alice, 'rag');
    const wrong = 'Wr0ng-Guess-pw!';
    const { body } = await tables(alice, id, {
      source_type: 'mysql',
      uri: mysqlUri(wrong),
      database: names.database,
    }).expect(422);
    expect(body.detail).toMatch(/^Could not connect to the MySQL server at 127\.0\.0\.1:3306\. /);
    expect(JSON.stringify(body)).not.toContain(wrong);
    expect(JSON.stringify(body)).not.toContain(encodeURIComponent(wrong));
  });

  it.each([
    ['the platform’s own Postgres', 'postgres', 'postgresql://postgres:x@127.0.0.1:5432/postgres'],
    ['the platform’s Redis', 'mysql', 'mysql://root@127.0.0.1:6379/x'],
    ['cloud metadata', 'mysql', 'mysql://root@169.254.169.254:3306/x'],
    ['a malformed URI', 'postgres', 'http://example.com/x'],
  ])('refuses %s exactly as connecting does', async (_what, type, uri) => {
    const id = await newPipeline(alice, 'rag');
    const listed = await tables(alice, id, { source_type: type, uri, database: 'x' });
    const connected = await t.http
      .post(WIZARD_ROUTES.rag.database)
      .set(alice.auth)
      .type('form')
      .send({
        session_id: id,
        source_type: type,
        uri,
        database: 'x',
        collection_or_table: 'users',
      });
    expect([400, 422]).toContain(listed.status);
    expect(listed.status).toBe(connected.status);
    expect(listed.body).toEqual({ detail: connected.body.detail });
  });

  it('strict mode refuses loopback exactly as connecting does', async () => {
    const strict = await createTestApp({ DATA_SOURCE_STRICT: 'true' });
    try {
      const dave = await signUpAndLogIn(strict.url, 'dave');
      const id = await newPipeline(dave, 'rag', strict.http);
      const fields = { source_type: 'mysql', uri: mysqlUri(), database: names.database };
      const listed = await tables(dave, id, fields, strict.http).expect(422);
      const connected = await strict.http
        .post(WIZARD_ROUTES.rag.database)
        .set(dave.auth)
        .type('form')
        .send({ session_id: id, ...fields, collection_or_table: 'orders' })
        .expect(422);
      expect(listed.body).toEqual({ detail: connected.body.detail });
      expect(listed.body.detail).toMatch(/not allowed/);
    } finally {
      await strict.close();
    }
  });

  it('a SQLite file is not opened here: a plain answer saying to type the name', async () => {
    const id = await newPipeline(alice, 'sql');
    const { body } = await tables(alice, id, {
      source_type: 'sqlite',
      uri: 'sqlite:///data/shop.db',
      database: 'main',
    }).expect(422);
    expect(body).toEqual({
      detail:
        'The SQLite file is opened where the agent runs, so its tables cannot be listed here. Type the table name instead.',
    });
  });

  it('a SQLite file in the folder shared for previews is listed; others are refused', async () => {
    const shared = mkdtempSync(path.join(tmpdir(), 'source-tables-'));
    await writeSqliteFile(path.join(shared, 'depot.db'), [
      'CREATE TABLE parcels (id INTEGER PRIMARY KEY, city TEXT)',
      'CREATE VIEW heavy AS SELECT * FROM parcels',
    ]);
    await writeFile(path.join(shared, 'notes.db'), 'not a database, just notes\n'.repeat(200));
    const app = await createTestApp({ SQLITE_PREVIEW_DIR: shared });
    try {
      const erin = await signUpAndLogIn(app.url, 'erin');
      const id = await newPipeline(erin, 'sql', app.http);
      const list = (uri: string) =>
        tables(erin, id, { source_type: 'sqlite', uri, database: 'main' }, app.http);
      expect((await list('sqlite:///depot.db').expect(200)).body).toEqual({
        tables: ['heavy', 'parcels'],
      });
      const outside = await list('sqlite:////etc/passwd').expect(422);
      expect(outside.body.detail).toMatch(/outside the folder this server shares/);
      const unreadable = await list('sqlite:///notes.db').expect(422);
      expect(unreadable.body.detail).toMatch(/^The SQLite file could not be opened: /);
      const missing = await list('sqlite:///gone.db').expect(422);
      expect(missing.body.detail).toMatch(/was not found/);
    } finally {
      await app.close();
      await rm(shared, { recursive: true, force: true });
    }
  });

  it('asks for the source type, refuses MongoDB for SQL agents, and needs the database', async () => {
    const rag = await newPipeline(alice, 'rag');
    const noType = await tables(alice, rag, { uri: mysqlUri(), database: 'x' }).expect(422);
    expect(noType.body.detail).toMatch(/^Choose MySQL, Postgres or SQLite as the source type/);
    const sql = await newPipeline(alice, 'sql');
    const mongo = await tables(alice, sql, {
      source_type: 'mongo',
      uri: 'mongodb://127.0.0.1:27017/x',
      database: 'x',
    }).expect(422);
    expect(mongo.body).toEqual({ detail: 'SQL agents cannot use MongoDB as a source.' });
    const blank = await tables(alice, rag, {
      source_type: 'mysql',
      uri: mysqlUri(),
      database: ' ',
    });
    expect(blank.status).toBe(400);
    expect(blank.body.detail).toMatch(/database/i);
  });

  it('another user’s agent is not found', async () => {
    const id = await newPipeline(alice, 'rag');
    await tables(bob, id, {
      source_type: 'mysql',
      uri: mysqlUri(),
      database: names.database,
    }).expect(404);
  });
});
