import { writeSqliteFile, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import mysql from 'mysql2/promise';
import {
  configureSqlAgent,
  WIZARD_LLM_KEY,
  type DatabaseTable,
  type TestUser,
} from '@agentloom/test-kit';
import type { TestApp } from '../testing/test-app';
import { markBuilt } from '../testing/built-agents';
import {
  answerOf,
  eventOf,
  SALES_HEADER,
  SALES_ROWS,
  tokenOf,
  usePreviewsApp,
} from './previews.spec-helper';

const PREVIEW_DB = { database: 'agentloom_e2e_preview', table: 'shipments' };

describe('live previews', () => {
  const { app, ask } = usePreviewsApp();
  let llm: LlmTestServer;
  let t: TestApp;
  let alice: TestUser;
  let fixtures: string;
  let salesCsv: string;
  beforeAll(() => {
    ({ llm, t, alice, fixtures, salesCsv } = app);
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
});
