import mysql from 'mysql2/promise';
import { Client } from 'pg';

/**
 * Real databases for the wizard's "database source" step: a MariaDB database with a
 * password-protected user, and a Postgres database (reached through a forwarder, see
 * tcp-forwarder.ts). Names are distinct from other suites' so runs never collide.
 */
export const MARIADB = {
  host: '127.0.0.1',
  port: 3306,
  database: 'agentloom_e2e_source',
  user: 'agentloom_e2e',
  password: 'Wizard-S3cret!pw',
};
export const POSTGRES_SOURCE_DB = 'agentloom_e2e_source';

/** A MariaDB database with a read-only, password-protected user: its name and account. */
export interface MariaDbAccount {
  database: string;
  user: string;
  password: string;
}

/** A connection as MariaDB's root (no password over TCP, as Debian sets up local root). */
export async function withMariaDbRoot(
  work: (admin: mysql.Connection) => Promise<void>,
): Promise<void> {
  const admin = await mysql.createConnection({
    host: MARIADB.host,
    port: MARIADB.port,
    user: 'root',
  });
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

/** `database` dropped and created empty; `fill` then creates its tables as root. */
export async function freshMariaDb(
  account: MariaDbAccount,
  fill: (admin: mysql.Connection) => Promise<void>,
): Promise<void> {
  await withMariaDbRoot(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${account.database}`);
    await admin.query(`CREATE DATABASE ${account.database}`);
    await fill(admin);
    for (const host of ['%', 'localhost']) {
      await admin.query(`DROP USER IF EXISTS ?@?`, [account.user, host]);
      await admin.query(`CREATE USER ?@? IDENTIFIED BY ?`, [account.user, host, account.password]);
      await admin.query(`GRANT SELECT ON ${account.database}.* TO ?@?`, [account.user, host]);
    }
  });
}

/** The database and its user, gone. */
export async function dropMariaDb(
  account: Pick<MariaDbAccount, 'database' | 'user'>,
): Promise<void> {
  await withMariaDbRoot(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${account.database}`);
    for (const host of ['%', 'localhost'])
      await admin.query(`DROP USER IF EXISTS ?@?`, [account.user, host]);
  });
}

/** A connection as Postgres's superuser to `database` (the maintenance database by default). */
async function withPostgres(
  work: (client: Client) => Promise<unknown>,
  database = 'postgres',
): Promise<void> {
  const client = new Client({
    connectionString: `postgresql://postgres@127.0.0.1:5432/${database}`,
  });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/** `database` dropped (whoever is connected) and created empty; `fill` then runs inside it. */
async function freshPostgres(database: string, fill: (client: Client) => Promise<void>) {
  await withPostgres(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${database}`);
  });
  await withPostgres(fill, database);
}

const dropPostgres = (database: string) =>
  withPostgres((admin) => admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));

export function createMariaDbSource(): Promise<void> {
  const { database } = MARIADB;
  return freshMariaDb(MARIADB, async (admin) => {
    await admin.query(
      `CREATE TABLE ${database}.orders (id INT PRIMARY KEY AUTO_INCREMENT, customer VARCHAR(80) NOT NULL, total DECIMAL(10,2) NOT NULL, placed_on DATE NOT NULL)`,
    );
    await admin.query(
      `INSERT INTO ${database}.orders (customer, total, placed_on) VALUES ('Ada', 120.50, '2026-01-03'), ('Grace', 80.00, '2026-02-11'), ('Linus', 42.10, '2026-03-09')`,
    );
    await admin.query(`ANALYZE TABLE ${database}.orders`);
  });
}

export function dropMariaDbSource(): Promise<void> {
  return dropMariaDb(MARIADB);
}

export function createPostgresSource(): Promise<void> {
  return freshPostgres(POSTGRES_SOURCE_DB, async (client) => {
    await client.query(
      `CREATE TABLE public.tickets (id serial PRIMARY KEY, subject text NOT NULL, body text, opened_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query(
      `INSERT INTO public.tickets (subject, body) SELECT 'Ticket ' || n, 'Body ' || n FROM generate_series(1, 25) AS n`,
    );
    await client.query('ANALYZE public.tickets');
  });
}

export function dropPostgresSource(): Promise<void> {
  return dropPostgres(POSTGRES_SOURCE_DB);
}

/**
 * Databases for the source step's table list, named after this run's test database so parallel
 * runs (another checkout's suite) never drop each other's: a few tables, a view and (Postgres) a
 * second schema, so the list shows what a person may pick and how each is written.
 */
export function tableListingNames(): MariaDbAccount {
  const run = new URL(process.env.DATABASE_URL ?? 'postgresql://x/agentloom_test').pathname
    .slice(1)
    .replace(/[^a-z0-9_]/gi, '_');
  return {
    database: `${run}_tables`,
    user: `al_tables_${run}`.slice(0, 32),
    password: 'Tables-S3cret!pw',
  };
}

export async function createTableListingSources(): Promise<void> {
  const names = tableListingNames();
  const { database } = names;
  await freshMariaDb(names, async (admin) => {
    await admin.query(`CREATE TABLE ${database}.orders (id INT PRIMARY KEY, total DECIMAL(10,2))`);
    await admin.query(`CREATE TABLE ${database}.customers (id INT PRIMARY KEY, name TEXT)`);
    await admin.query(
      `CREATE VIEW ${database}.big_orders AS SELECT id, total FROM ${database}.orders WHERE total > 100`,
    );
  });
  await freshPostgres(database, async (client) => {
    await client.query(`CREATE TABLE public.tickets (id serial PRIMARY KEY, subject text)`);
    await client.query(`CREATE VIEW public.open_tickets AS SELECT * FROM public.tickets`);
    await client.query(`CREATE SCHEMA sales`);
    await client.query(`CREATE TABLE sales.invoices (id serial PRIMARY KEY, amount numeric)`);
    await client.query(
      `CREATE TABLE sales.events (id int, at date NOT NULL) PARTITION BY RANGE (at)`,
    );
    await client.query(
      `CREATE TABLE sales.events_2026 PARTITION OF sales.events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01')`,
    );
  });
}

export async function dropTableListingSources(): Promise<void> {
  const names = tableListingNames();
  await dropMariaDb(names);
  await dropPostgres(names.database);
}
