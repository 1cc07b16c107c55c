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

export async function createMariaDbSource(): Promise<void> {
  const admin = await mysql.createConnection({
    host: MARIADB.host,
    port: MARIADB.port,
    user: 'root',
  });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${MARIADB.database}`);
    await admin.query(`CREATE DATABASE ${MARIADB.database}`);
    await admin.query(
      `CREATE TABLE ${MARIADB.database}.orders (id INT PRIMARY KEY AUTO_INCREMENT, customer VARCHAR(80) NOT NULL, total DECIMAL(10,2) NOT NULL, placed_on DATE NOT NULL)`,
    );
    await admin.query(
      `INSERT INTO ${MARIADB.database}.orders (customer, total, placed_on) VALUES ('Ada', 120.50, '2026-01-03'), ('Grace', 80.00, '2026-02-11'), ('Linus', 42.10, '2026-03-09')`,
    );
    await admin.query(`ANALYZE TABLE ${MARIADB.database}.orders`);
    for (const host of ['%', 'localhost']) {
      await admin.query(`DROP USER IF EXISTS ?@?`, [MARIADB.user, host]);
      await admin.query(`CREATE USER ?@? IDENTIFIED BY ?`, [MARIADB.user, host, MARIADB.password]);
      await admin.query(`GRANT SELECT ON ${MARIADB.database}.* TO ?@?`, [MARIADB.user, host]);
    }
  } finally {
    await admin.end();
  }
}

export async function dropMariaDbSource(): Promise<void> {
  const admin = await mysql.createConnection({
    host: MARIADB.host,
    port: MARIADB.port,
    user: 'root',
  });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${MARIADB.database}`);
    for (const host of ['%', 'localhost'])
      await admin.query(`DROP USER IF EXISTS ?@?`, [MARIADB.user, host]);
  } finally {
    await admin.end();
  }
}

async function withPostgresAdmin(work: (client: Client) => Promise<void>): Promise<void> {
  const client = new Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

export async function createPostgresSource(): Promise<void> {
  await withPostgresAdmin(async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS ${POSTGRES_SOURCE_DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${POSTGRES_SOURCE_DB}`);
  });
  const client = new Client({
    connectionString: `postgresql://postgres@127.0.0.1:5432/${POSTGRES_SOURCE_DB}`,
  });
  await client.connect();
  try {
    await client.query(
      `CREATE TABLE public.tickets (id serial PRIMARY KEY, subject text NOT NULL, body text, opened_at timestamptz NOT NULL DEFAULT now())`,
    );
    await client.query(
      `INSERT INTO public.tickets (subject, body) SELECT 'Ticket ' || n, 'Body ' || n FROM generate_series(1, 25) AS n`,
    );
    await client.query('ANALYZE public.tickets');
  } finally {
    await client.end();
  }
}

export async function dropPostgresSource(): Promise<void> {
  await withPostgresAdmin((admin) =>
    admin.query(`DROP DATABASE IF EXISTS ${POSTGRES_SOURCE_DB} WITH (FORCE)`).then(() => undefined),
  );
}

/**
 * Databases for the source step's table list, named after this run's test database so parallel
 * runs (another checkout's suite) never drop each other's: a few tables, a view and (Postgres) a
 * second schema, so the list shows what a person may pick and how each is written.
 */
export function tableListingNames() {
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
  const admin = await mysql.createConnection({
    host: MARIADB.host,
    port: MARIADB.port,
    user: 'root',
  });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${names.database}`);
    await admin.query(`CREATE DATABASE ${names.database}`);
    await admin.query(
      `CREATE TABLE ${names.database}.orders (id INT PRIMARY KEY, total DECIMAL(10,2))`,
    );
    await admin.query(`CREATE TABLE ${names.database}.customers (id INT PRIMARY KEY, name TEXT)`);
    await admin.query(
      `CREATE VIEW ${names.database}.big_orders AS SELECT id, total FROM ${names.database}.orders WHERE total > 100`,
    );
    for (const host of ['%', 'localhost']) {
      await admin.query(`DROP USER IF EXISTS ?@?`, [names.user, host]);
      await admin.query(`CREATE USER ?@? IDENTIFIED BY ?`, [names.user, host, names.password]);
      await admin.query(`GRANT SELECT ON ${names.database}.* TO ?@?`, [names.user, host]);
    }
  } finally {
    await admin.end();
  }
  await withPostgresAdmin(async (pg) => {
    await pg.query(`DROP DATABASE IF EXISTS ${names.database} WITH (FORCE)`);
    await pg.query(`CREATE DATABASE ${names.database}`);
  });
  const client = new Client({
    connectionString: `postgresql://postgres@127.0.0.1:5432/${names.database}`,
  });
  await client.connect();
  try {
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
  } finally {
    await client.end();
  }
}

export async function dropTableListingSources(): Promise<void> {
  const names = tableListingNames();
  const admin = await mysql.createConnection({
    host: MARIADB.host,
    port: MARIADB.port,
    user: 'root',
  });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${names.database}`);
    for (const host of ['%', 'localhost'])
      await admin.query(`DROP USER IF EXISTS ?@?`, [names.user, host]);
  } finally {
    await admin.end();
  }
  await withPostgresAdmin((pg) =>
    pg.query(`DROP DATABASE IF EXISTS ${names.database} WITH (FORCE)`).then(() => undefined),
  );
}
