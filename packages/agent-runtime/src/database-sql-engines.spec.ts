import mysql from 'mysql2/promise';
import pg from 'pg';
import { mysqlSqlEngine, postgresSqlEngine, SqlTimeoutError, type SqlEngine } from './sql-engines';
import {
  MYSQL_URI,
  POSTGRES_URI,
  resetMysqlPeople,
  resetPostgresPeople,
} from './test-databases.spec-helper';

const TABLE = 'engine_people';

async function postgresCount(): Promise<number> {
  const client = new pg.Client({ connectionString: POSTGRES_URI });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM ${TABLE}`);
    return result.rows[0]!.n;
  } finally {
    await client.end();
  }
}

async function mysqlCount(): Promise<number> {
  const connection = await mysql.createConnection(MYSQL_URI);
  try {
    const [rows] = await connection.query<mysql.RowDataPacket[]>(
      `SELECT COUNT(*) AS n FROM ${TABLE}`,
    );
    return Number(rows[0]!.n);
  } finally {
    await connection.end();
  }
}

const databases = [
  {
    name: 'postgresSqlEngine',
    reset: resetPostgresPeople,
    open: (table: string) => postgresSqlEngine({ uri: POSTGRES_URI, table }),
    count: postgresCount,
    sleep: 'SELECT pg_sleep(5)',
    types: ['integer', 'text', 'integer', 'text'],
  },
  {
    name: 'mysqlSqlEngine',
    reset: resetMysqlPeople,
    open: (table: string) => mysqlSqlEngine({ uri: MYSQL_URI, table }),
    count: mysqlCount,
    sleep: 'SELECT SLEEP(5)',
    types: ['int(11)', 'varchar(100)', 'int(11)', 'varchar(100)'],
  },
];

describe.each(databases)('$name', ({ reset, open, count, sleep, types }) => {
  let engine: SqlEngine;

  beforeAll(async () => {
    await reset(TABLE);
    engine = await open(TABLE);
  });

  afterAll(() => engine.close());

  it('describes the configured table only', async () => {
    const [table, ...others] = await engine.describe();
    expect(others).toEqual([]);
    expect(table?.name).toBe(TABLE);
    expect(table?.columns.map((column) => column.name)).toEqual(['id', 'name', 'age', 'city']);
    // MySQL 8 writes int without a display width; MariaDB writes int(11).
    expect(table?.columns.map((column) => column.type.replace(/^int$/, 'int(11)'))).toEqual(types);
  });

  it('answers a count query with a number', async () => {
    expect(
      await engine.query(`SELECT COUNT(*) AS people FROM ${TABLE}`, { timeoutMs: 5000 }),
    ).toEqual({ columns: ['people'], rows: [[5]] });
  });

  it('reads at most maxRows rows', async () => {
    const result = await engine.query(`SELECT name FROM ${TABLE} ORDER BY id`, {
      timeoutMs: 5000,
      maxRows: 2,
    });
    expect(result.rows).toEqual([['Ada'], ['Bob']]);
  });

  it('refuses writes in the database itself, and the table stays intact', async () => {
    for (const write of [
      `DELETE FROM ${TABLE}`,
      `UPDATE ${TABLE} SET name = 'x'`,
      `INSERT INTO ${TABLE} (id, name, age, city) VALUES (99, 'Mallory', 1, 'Nowhere')`,
      `DROP TABLE ${TABLE}`,
      `SELECT 1; DELETE FROM ${TABLE}`,
    ]) {
      await expect(engine.query(write, { timeoutMs: 5000 })).rejects.toThrow(
        /^The database refused the query: /,
      );
    }
    expect(await count()).toBe(5);
  });

  it('stops a query at its time limit', async () => {
    await expect(engine.query(sleep, { timeoutMs: 300 })).rejects.toThrow(SqlTimeoutError);
    expect((await engine.query(`SELECT COUNT(*) FROM ${TABLE}`, { timeoutMs: 5000 })).rows).toEqual(
      [[5]],
    );
  });

  it('refuses a table that does not exist, by name', async () => {
    await expect(open('no_such_table')).rejects.toThrow(
      'The table no_such_table was not found, or this user cannot read it.',
    );
  });
});

describe('PostgreSQL quoting the guard cannot see', () => {
  it('refuses a second statement hidden behind a backslash the parser reads as an escape', async () => {
    // PostgreSQL reads 'a\' as a whole string (standard_conforming_strings), so to the server this
    // is two statements; the extended protocol refuses them.
    await resetPostgresPeople(TABLE);
    const engine = await postgresSqlEngine({ uri: POSTGRES_URI, table: TABLE });
    try {
      await expect(
        engine.query(`SELECT 'a\\' ; DELETE FROM ${TABLE}; --'`, { timeoutMs: 5000 }),
      ).rejects.toThrow(/^The database refused the query: /);
    } finally {
      await engine.close();
    }
    expect(await postgresCount()).toBe(5);
  });
});

describe('connection failures', () => {
  it('say what went wrong', async () => {
    await expect(
      postgresSqlEngine({
        uri: 'postgres://postgres@127.0.0.1:1/agentloom_runtime_test',
        table: TABLE,
      }),
    ).rejects.toThrow(/^Could not connect to the database: connect ECONNREFUSED 127\.0\.0\.1:1$/);
  });

  it('never show the password, even where the driver echoes the connection string', async () => {
    // mysql2 quotes the ssl parameter back ("Unknown SSL profile '…'"); here it holds the password.
    const secret = 'S3cret-Passw0rd';
    const failure = mysqlSqlEngine({
      uri: `mysql://root:${secret}@127.0.0.1:3306/agentloom_runtime_test?ssl=${secret}`,
      table: TABLE,
    });
    await expect(failure).rejects.toThrow(
      "Could not connect to the database: Unknown SSL profile '****'",
    );
  });
});
