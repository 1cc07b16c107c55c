import { WIZARD_ROUTES } from '@agentloom/contracts';
import { useRagWizardApp } from '../testing/rag-wizard-app';
import { MARIADB, POSTGRES_SOURCE_DB } from '@agentloom/data-sources/testing';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

describe('RAG wizard API', () => {
  const { app, form, newPipeline, detail } = useRagWizardApp();
  let t: TestApp;
  let alice: TestUser;
  let forwarder: { port: number };
  beforeAll(() => {
    ({ t, alice, forwarder } = app);
  });

  describe('database sources', () => {
    it('connects a Postgres table and answers its columns and approximate rows', async () => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'database', {
        session_id: id,
        source_type: 'postgres',
        uri: `postgresql://postgres:pg-secret-pw@127.0.0.1:${forwarder.port}/${POSTGRES_SOURCE_DB}`,
        database: POSTGRES_SOURCE_DB,
        collection_or_table: 'tickets',
      }).expect(200);
      expect(body.saved.database).toEqual({
        type: 'postgres',
        uri: `postgresql://postgres:****@127.0.0.1:${forwarder.port}/${POSTGRES_SOURCE_DB}`,
        database: POSTGRES_SOURCE_DB,
        table: 'tickets',
        columns: [
          { name: 'id', type: 'integer' },
          { name: 'subject', type: 'text' },
          { name: 'body', type: 'text' },
          { name: 'opened_at', type: 'timestamp with time zone' },
        ],
        approximate_rows: 25,
        // The test connects as postgres: the answer says so, and how to make a read-only login.
        privilege_warning: expect.stringMatching(
          /^This login can do anything on the server \(it is a superuser\)\. .*GRANT SELECT ON "public"\."tickets" TO agent_reader;$/,
        ),
        checked_at: expect.any(String),
      });
      const view = await detail(alice, id);
      expect(view.config.source_type).toBe('postgres');
      expect(view.description).toBe('RAG over tickets (Postgres)');
      expect(JSON.stringify(view)).not.toContain('pg-secret-pw');
      const [row] = await t.prisma.$queryRaw<Array<Record<string, unknown>>>`
        SELECT * FROM pipelines WHERE id = ${id}::uuid`;
      expect(JSON.stringify(row)).not.toContain('pg-secret-pw');
    });

    it('connects a MySQL/MariaDB table with a password', async () => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'database', {
        session_id: id,
        source_type: 'mysql',
        uri: `mysql://${MARIADB.user}:${encodeURIComponent(MARIADB.password)}@127.0.0.1:3306/${MARIADB.database}`,
        database: MARIADB.database,
        collection_or_table: 'orders',
      }).expect(200);
      expect(body.saved.database.columns.map((c: { name: string }) => c.name)).toEqual([
        'id',
        'customer',
        'total',
        'placed_on',
      ]);
      expect(JSON.stringify(body)).not.toContain(MARIADB.password);
    });

    it('a wrong password → 422 whose detail never contains the password', async () => {
      const id = await newPipeline(alice);
      const wrong = 'Wr0ng-Guess-pw!';
      const { body } = await form(alice, 'database', {
        session_id: id,
        source_type: 'mysql',
        uri: `mysql://${MARIADB.user}:${encodeURIComponent(wrong)}@127.0.0.1:3306/${MARIADB.database}`,
        database: MARIADB.database,
        collection_or_table: 'orders',
      }).expect(422);
      expect(body.detail).toMatch(/^Could not connect to the MySQL server at 127\.0\.0\.1:3306\. /);
      expect(body.detail).not.toContain(wrong);
      expect(body.detail).not.toContain(encodeURIComponent(wrong));
      expect((await detail(alice, id)).config.database).toBeNull();
    });

    it.each([
      [
        'the platform’s own Postgres',
        'postgres',
        'postgresql://postgres:x@127.0.0.1:5432/agentloom_test',
      ],
      [
        'the platform’s own Postgres by name',
        'postgres',
        'postgresql://postgres@localhost:5432/agentloom_test',
      ],
      ['the platform’s Redis', 'mysql', 'mysql://root@127.0.0.1:6379/x'],
      ['cloud metadata', 'mysql', 'mysql://root@169.254.169.254:3306/x'],
    ])('refuses %s with 422', async (_what, type, uri) => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'database', {
        session_id: id,
        source_type: type,
        uri,
        database: 'x',
        collection_or_table: 'users',
      }).expect(422);
      expect(body.detail).toMatch(/cannot be used as a data source/);
    });

    it('refuses loopback and private addresses in strict mode', async () => {
      const strict = await createTestApp({ DATA_SOURCE_STRICT: 'true' });
      try {
        const dave = await signUpAndLogIn(strict.url, 'dave');
        const created = await strict.http
          .post('/pipelines')
          .set(dave.auth)
          .send({ name: 'Strict', agent_type: 'rag' })
          .expect(201);
        const { body } = await strict.http
          .post(WIZARD_ROUTES.rag.database)
          .set(dave.auth)
          .type('form')
          .send({
            session_id: created.body.session_id,
            source_type: 'mysql',
            uri: `mysql://${MARIADB.user}:x@127.0.0.1:3306/${MARIADB.database}`,
            database: MARIADB.database,
            collection_or_table: 'orders',
          })
          .expect(422);
        expect(body.detail).toMatch(/not allowed/);
      } finally {
        await strict.close();
      }
    });

    it('validates the URI form per type (400)', async () => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'database', {
        session_id: id,
        source_type: 'postgres',
        uri: 'mysql://root:hunter2@db:3306/x',
        database: 'x',
        collection_or_table: 't',
      }).expect(400);
      expect(body.detail).toMatch(/postgresql:\/\//);
      expect(body.detail).not.toContain('hunter2');
    });

    it('saves a SQLite path without opening any file on the server', async () => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'database', {
        session_id: id,
        source_type: 'sqlite',
        uri: 'sqlite:////etc/shadow',
        database: 'main',
        collection_or_table: 'users',
      }).expect(200);
      expect(body.saved.database).toMatchObject({
        type: 'sqlite',
        columns: null,
        approximate_rows: null,
      });
    });
  });
});
