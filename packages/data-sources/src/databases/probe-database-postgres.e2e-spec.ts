import { Client } from 'pg';
import { parseDatabaseUri } from './database-uri';
import {
  InvalidDataSourceError,
  RefusedDataSourceError,
  UnreachableDataSourceError,
} from './errors';
import { checkDataSourceTarget } from './network-guard';
import { probeDatabase } from './probe-database';
import { DATABASE, PLATFORM, probe, rejectionOf } from './probe-database.spec-helper';
import { startTcpForwarder } from '../testing/tcp-forwarder';

const PG_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

// The Postgres tests connect as postgres, a superuser.
const SUPERUSER_WARNING = expect.stringMatching(
  /^This login can do anything on the server \(it is a superuser\)\. The agent only reads: connect it with a read-only login instead, for example CREATE ROLE agent_reader LOGIN PASSWORD '…'; GRANT CONNECT ON DATABASE "[^"]+" TO agent_reader; GRANT USAGE ON SCHEMA "\w+" TO agent_reader; GRANT SELECT ON "\w+"\."\w+" TO agent_reader;$/,
) as unknown as string;

async function setUpPostgres(): Promise<void> {
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  const db = new Client({ connectionString: PG_ADMIN_URL.replace(/\/postgres$/, `/${DATABASE}`) });
  await db.connect();
  try {
    await db.query(`
      CREATE TABLE public.sales (id serial PRIMARY KEY, region text, amount numeric);
      INSERT INTO public.sales (region, amount)
        SELECT 'region-' || (n % 5), n * 10 FROM generate_series(1, 120) AS n;
      ANALYZE public.sales;
      CREATE SCHEMA reporting;
      CREATE TABLE reporting.targets (quarter date, goal numeric(12, 2));
      INSERT INTO reporting.targets VALUES ('2025-01-01', 1000), ('2025-04-01', 1200);
      CREATE VIEW public.big_sales AS SELECT id, amount FROM public.sales WHERE amount > 1000;
    `);
  } finally {
    await db.end();
  }
}

async function dropPostgres(): Promise<void> {
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

describe('probeDatabase', () => {
  let forwarder: { port: number; close: () => Promise<void> };

  beforeAll(async () => {
    await setUpPostgres();
    // Stands in for "another Postgres server": the local one is the platform's own (127.0.0.1:5432,
    // refused by the guard), so the probe reaches it through a plain TCP relay on another port.
    forwarder = await startTcpForwarder(5432);
  });

  afterAll(async () => {
    await forwarder.close();
    await dropPostgres();
  });

  describe('Postgres', () => {
    const uri = (): string =>
      `postgresql://postgres:any-password@127.0.0.1:${forwarder.port}/postgres`;

    it('the guard refuses the platform Postgres itself', async () => {
      const error = await rejectionOf(
        probe('postgres', 'postgresql://postgres@127.0.0.1:5432/postgres', {
          database: DATABASE,
          table: 'sales',
        }),
      );
      expect(error).toBeInstanceOf(RefusedDataSourceError);
    });

    it('reports the columns in order and the planner row estimate (database overrides the URI path)', async () => {
      await expect(
        probe('postgres', uri(), { database: DATABASE, table: 'sales' }),
      ).resolves.toEqual({
        columns: [
          { name: 'id', type: 'integer' },
          { name: 'region', type: 'text' },
          { name: 'amount', type: 'numeric' },
        ],
        approximateRows: 120,
        privilegeWarning: SUPERUSER_WARNING,
      });
    });

    it('reads schema.table, and counts a table that was never analyzed', async () => {
      await expect(
        probe('postgres', uri(), { database: DATABASE, table: 'reporting.targets' }),
      ).resolves.toEqual({
        columns: [
          { name: 'quarter', type: 'date' },
          { name: 'goal', type: 'numeric(12,2)' },
        ],
        approximateRows: 2,
        privilegeWarning: SUPERUSER_WARNING,
      });
    });

    it('reads a view, counting its rows', async () => {
      await expect(
        probe('postgres', uri(), { database: DATABASE, table: 'public.big_sales' }),
      ).resolves.toEqual({
        columns: [
          { name: 'id', type: 'integer' },
          { name: 'amount', type: 'numeric' },
        ],
        approximateRows: 20,
        privilegeWarning: SUPERUSER_WARNING,
      });
    });

    it('connects to the checked address, never re-resolving the name', async () => {
      const parsed = parseDatabaseUri(
        'postgres',
        `postgresql://postgres@only-in-the-guard.invalid:${forwarder.port}/postgres`,
      );
      const addresses = await checkDataSourceTarget(parsed, {
        strict: false,
        platformEndpoints: PLATFORM,
        lookup: () => Promise.resolve(['127.0.0.1']),
      });
      const report = await probeDatabase(
        parsed,
        { database: DATABASE, table: 'sales' },
        { timeoutMs: 5000, addresses },
      );
      expect(report.columns).toHaveLength(3);
    });

    it('names the missing table', async () => {
      const error = await rejectionOf(
        probe('postgres', uri(), { database: DATABASE, table: 'nope' }),
      );
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(`The table "nope" was not found in database "${DATABASE}".`);
    });

    it('reports a missing database in a sentence', async () => {
      const error = await rejectionOf(
        probe('postgres', uri(), { database: 'agentloom_probe_missing', table: 'sales' }),
      );
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(
        `Could not connect to the PostgreSQL server at 127.0.0.1:${forwarder.port}. Check the host, port, user name and password, and that the server accepts connections from this server.`,
      );
    });

    it('keeps the sslmode of the URI (this server has no TLS)', async () => {
      const error = await rejectionOf(
        probe('postgres', `${uri()}?sslmode=require`, { database: DATABASE, table: 'sales' }),
      );
      expect(error.message).toBe(
        `Could not connect to the PostgreSQL server at 127.0.0.1:${forwarder.port}. Check the host, port, user name and password, and that the server accepts connections from this server.`,
      );
      const invalid = await rejectionOf(
        probe('postgres', `${uri()}?sslmode=sometimes`, { database: DATABASE, table: 'sales' }),
      );
      expect(invalid).toBeInstanceOf(InvalidDataSourceError);
    });

    it('needs a user name rather than borrowing the gateway’s', async () => {
      const error = await rejectionOf(
        probe('postgres', `postgresql://127.0.0.1:${forwarder.port}/postgres`, {
          database: DATABASE,
          table: 'sales',
        }),
      );
      expect(error).toBeInstanceOf(InvalidDataSourceError);
    });
  });
});
