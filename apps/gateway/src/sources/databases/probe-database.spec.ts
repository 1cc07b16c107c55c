import type { TDatabaseSourceType } from '@agentloom/contracts';
import { createConnection } from 'mysql2/promise';
import fs from 'node:fs';
import { Client } from 'pg';
import { parseDatabaseUri } from './database-uri';
import {
  InvalidDataSourceError,
  RefusedDataSourceError,
  UnreachableDataSourceError,
} from './errors';
import { checkDataSourceTarget } from './network-guard';
import { DatabaseProbeReport, probeDatabase, ProbeTarget } from './probe-database';
import { listen, startTcpForwarder } from '../../testing/tcp-forwarder';

const DATABASE = 'agentloom_probe_test';
const PG_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const MARIADB_ROOT = { host: '127.0.0.1', port: 3306, user: 'root' };
const MARIADB_USER = 'agentloom_probe';
const MARIADB_PASSWORD = 'Pr0be-S3cret!';
const MARIADB_USER_HOSTS = ['%', 'localhost', '127.0.0.1'];
const TIMEOUT_MS = 1000;

/** The platform as the tests run it: its Postgres and Redis are on this machine. */
const PLATFORM = [
  { host: '127.0.0.1', port: 5432 },
  { host: '127.0.0.1', port: 6379 },
];

/** What the wizard's service does: parse, guard, probe. */
// The Postgres tests connect as postgres, a superuser.
const SUPERUSER_WARNING = expect.stringMatching(
  /^This login can do anything on the server \(it is a superuser\)\. The agent only reads: connect it with a read-only login instead, for example CREATE ROLE agent_reader LOGIN PASSWORD '…'; GRANT CONNECT ON DATABASE "[^"]+" TO agent_reader; GRANT USAGE ON SCHEMA "\w+" TO agent_reader; GRANT SELECT ON "\w+"\."\w+" TO agent_reader;$/,
) as unknown as string;

async function probe(
  type: TDatabaseSourceType,
  uri: string,
  target: ProbeTarget,
  timeoutMs = 5000,
): Promise<DatabaseProbeReport> {
  const parsed = parseDatabaseUri(type, uri);
  const addresses = await checkDataSourceTarget(parsed, {
    strict: false,
    platformEndpoints: PLATFORM,
  });
  return probeDatabase(parsed, target, { timeoutMs, addresses });
}

async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = await listen(() => undefined);
  await server.close();
  return server.port;
}

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

async function onMariadb(statements: string[]): Promise<void> {
  const root = await createConnection(MARIADB_ROOT);
  try {
    for (const statement of statements) {
      await root.query(statement);
    }
  } finally {
    await root.end();
  }
}

const dropMariadbObjects = [
  ...MARIADB_USER_HOSTS.map((host) => `DROP USER IF EXISTS '${MARIADB_USER}'@'${host}'`),
  `DROP DATABASE IF EXISTS ${DATABASE}`,
];

async function setUpMariadb(): Promise<void> {
  await onMariadb([
    ...dropMariadbObjects,
    `CREATE DATABASE ${DATABASE}`,
    `CREATE TABLE ${DATABASE}.orders (id INT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(80) NOT NULL, total DECIMAL(10, 2), placed_at DATETIME) ENGINE=InnoDB`,
    `INSERT INTO ${DATABASE}.orders (customer, total, placed_at) VALUES ('ada', 10.50, NOW()), ('grace', 20.00, NOW()), ('linus', 7.25, NOW())`,
    `ANALYZE TABLE ${DATABASE}.orders`,
    // Every host form MariaDB may match a TCP connection from 127.0.0.1 against.
    ...MARIADB_USER_HOSTS.flatMap((host) => [
      `CREATE USER '${MARIADB_USER}'@'${host}' IDENTIFIED BY '${MARIADB_PASSWORD}'`,
      `GRANT SELECT ON ${DATABASE}.* TO '${MARIADB_USER}'@'${host}'`,
    ]),
  ]);
}

describe('probeDatabase', () => {
  let forwarder: { port: number; close: () => Promise<void> };
  let silent: { port: number; close: () => Promise<void> };

  beforeAll(async () => {
    await Promise.all([setUpPostgres(), setUpMariadb()]);
    // Stands in for "another Postgres server": the local one is the platform's own (127.0.0.1:5432,
    // refused by the guard), so the probe reaches it through a plain TCP relay on another port.
    forwarder = await startTcpForwarder(5432);
    // Accepts the TCP connection, then never says a word.
    silent = await listen(() => undefined);
  });

  afterAll(async () => {
    await Promise.all([forwarder.close(), silent.close()]);
    await Promise.all([dropPostgres(), onMariadb(dropMariadbObjects)]);
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

  describe('MariaDB', () => {
    const target = { database: DATABASE, table: 'orders' };
    const expected: DatabaseProbeReport = {
      columns: [
        { name: 'id', type: 'int(11)' },
        { name: 'customer', type: 'varchar(80)' },
        { name: 'total', type: 'decimal(10,2)' },
        { name: 'placed_at', type: 'datetime' },
      ],
      approximateRows: 3,
      // The probe user may only SELECT.
      privilegeWarning: null,
    };

    it('warns when the login can do more than read, and says how to make a read-only one', async () => {
      const report = await probe('mysql', `mysql://root@127.0.0.1:3306/${DATABASE}`, target);
      expect(report.privilegeWarning).toBe(
        `This login can do anything on the server. The agent only reads: connect it with a read-only login instead, for example CREATE USER 'agent_reader'@'%' IDENTIFIED BY '…'; GRANT SELECT ON \`${DATABASE}\`.\`orders\` TO 'agent_reader'@'%';`,
      );
    });

    it.each([
      ['a raw', MARIADB_PASSWORD],
      ['a URL-encoded', encodeURIComponent(MARIADB_PASSWORD).replace('!', '%21')],
      ['a fully percent-encoded', 'Pr0be%2DS3cret%21'],
    ])('reports columns and rows with %s password', async (_label, password) => {
      const uri = `mysql://${MARIADB_USER}:${password}@127.0.0.1:3306/ignored`;
      await expect(probe('mysql', uri, target)).resolves.toEqual(expected);
    });

    it('names the missing table', async () => {
      const uri = `mysql://${MARIADB_USER}:${encodeURIComponent(MARIADB_PASSWORD)}@127.0.0.1:3306/`;
      const error = await rejectionOf(probe('mysql', uri, { database: DATABASE, table: 'nope' }));
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(`The table "nope" was not found in database "${DATABASE}".`);
    });

    it('refuses a wrong password without repeating it', async () => {
      const wrong = 'Wr0ng-Pa55!';
      const uri = `mysql://${MARIADB_USER}:${encodeURIComponent(wrong)}@127.0.0.1:3306/${DATABASE}`;
      const error = await rejectionOf(probe('mysql', uri, target));
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(
        'Could not connect to the MySQL server at 127.0.0.1:3306. Check the host, port, user name and password, and that the server accepts connections from this server.',
      );
      expect(error.message).not.toContain('Wr0ng');
    });

    it('scrubs the password even when the server repeats it', async () => {
      // A user name equal to the password: the server's "Access denied for user …" echoes it back.
      const secret = 'Echo-Me-9';
      const uri = `mysql://${secret}:${secret}@127.0.0.1:3306/${DATABASE}`;
      const error = await rejectionOf(probe('mysql', uri, target));
      expect(error.message).toMatch(
        /^Could not connect to the MySQL server at 127\.0\.0\.1:3306\./,
      );
      expect(error.message).not.toContain(secret);
    });
  });

  describe('a server that accepts TCP but never answers', () => {
    it.each<[TDatabaseSourceType, string, string]>([
      ['postgres', 'postgresql://u:p@127.0.0.1:{port}/db', 'PostgreSQL'],
      ['mysql', 'mysql://u:p@127.0.0.1:{port}/db', 'MySQL'],
      ['mongo', 'mongodb://u:p@127.0.0.1:{port}/db', 'MongoDB'],
    ])('%s gives up within timeoutMs', async (type, template, label) => {
      const started = Date.now();
      const error = await rejectionOf(
        probe(
          type,
          template.replace('{port}', String(silent.port)),
          { database: 'db', table: 't' },
          TIMEOUT_MS,
        ),
      );
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(
        `Could not connect to the ${label} server at 127.0.0.1:${silent.port}. Check the host, port, user name and password, and that the server accepts connections from this server.`,
      );
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 300);
    });
  });

  describe('MongoDB', () => {
    it('reports a closed port quickly, without the password', async () => {
      const port = await closedPort();
      const started = Date.now();
      const error = await rejectionOf(
        probe(
          'mongo',
          `mongodb://app:M0ngo-Secret@127.0.0.1:${port}/app`,
          { database: 'app', table: 'events' },
          TIMEOUT_MS,
        ),
      );
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 300);
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(
        `Could not connect to the MongoDB server at 127.0.0.1:${port}. Check the host, port, user name and password, and that the server accepts connections from this server.`,
      );
    });

    it('refuses an authentication mechanism that would use the gateway’s own identity', async () => {
      const error = await rejectionOf(
        probe('mongo', 'mongodb://127.0.0.1:27017/app?authMechanism=MONGODB-AWS', {
          database: 'app',
          table: 'events',
        }),
      );
      expect(error).toBeInstanceOf(InvalidDataSourceError);
    });
  });

  describe('SQLite', () => {
    it('reports nothing and touches no file', async () => {
      const spies = [
        jest.spyOn(fs, 'openSync'),
        jest.spyOn(fs, 'statSync'),
        jest.spyOn(fs, 'existsSync'),
        jest.spyOn(fs.promises, 'open'),
        jest.spyOn(fs.promises, 'stat'),
      ];
      const parsed = parseDatabaseUri('sqlite', 'sqlite:////no/such/dir/app.db');
      await expect(
        probeDatabase(
          parsed,
          { database: 'main', table: 'orders' },
          { timeoutMs: TIMEOUT_MS, addresses: [] },
        ),
      ).resolves.toEqual({ columns: null, approximateRows: null });
      spies.forEach((spy) => {
        expect(spy).not.toHaveBeenCalled();
        spy.mockRestore();
      });
    });
  });

  it('asks for the database and table names', async () => {
    const parsed = parseDatabaseUri('mysql', 'mysql://u:p@127.0.0.1/db');
    const options = {
      timeoutMs: TIMEOUT_MS,
      addresses: [{ host: '127.0.0.1', port: 3306, address: '127.0.0.1' }],
    };
    await expect(
      probeDatabase(parsed, { database: ' ', table: 'orders' }, options),
    ).rejects.toThrow(InvalidDataSourceError);
    await expect(probeDatabase(parsed, { database: 'db', table: '' }, options)).rejects.toThrow(
      InvalidDataSourceError,
    );
  });
});
