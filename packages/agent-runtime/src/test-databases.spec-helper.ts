// The local Postgres and MariaDB/MySQL the tests use:
// one database, agentloom_runtime_test, created when missing; each spec uses its own tables.
import mysql from 'mysql2/promise';
import pg from 'pg';

export const POSTGRES_URI = 'postgres://postgres@127.0.0.1:5432/agentloom_runtime_test';
export const MYSQL_URI = 'mysql://root@127.0.0.1:3306/agentloom_runtime_test';

export const PEOPLE: [number, string, number, string][] = [
  [1, 'Ada', 36, 'London'],
  [2, 'Bob', 41, 'Paris'],
  [3, 'Cé', 29, 'Zürich'],
  [4, 'Dan', 52, 'Oslo'],
  [5, 'Eve', 23, 'Rome'],
];

/** (Re)creates `table` with the five PEOPLE rows. */
export async function resetPostgresPeople(table: string): Promise<void> {
  const admin = new pg.Client({ connectionString: POSTGRES_URI.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  try {
    await admin.query('CREATE DATABASE agentloom_runtime_test');
  } catch (error) {
    // Already there — possibly created this instant by a spec running in parallel.
    if (!['42P04', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ connectionString: POSTGRES_URI });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS ${table}`);
    await client.query(
      `CREATE TABLE ${table} (id integer PRIMARY KEY, name text, age integer, city text)`,
    );
    for (const person of PEOPLE) {
      await client.query(`INSERT INTO ${table} VALUES ($1, $2, $3, $4)`, person);
    }
  } finally {
    await client.end();
  }
}

/** (Re)creates `table` with the five PEOPLE rows. */
export async function resetMysqlPeople(table: string): Promise<void> {
  const connection = await mysql.createConnection(MYSQL_URI.replace(/\/[^/]+$/, '/'));
  try {
    await connection.query('CREATE DATABASE IF NOT EXISTS agentloom_runtime_test');
    await connection.query('USE agentloom_runtime_test');
    await connection.query(`DROP TABLE IF EXISTS ${table}`);
    await connection.query(
      `CREATE TABLE ${table} (id INT PRIMARY KEY, name VARCHAR(100), age INT, city VARCHAR(100))`,
    );
    await connection.query(`INSERT INTO ${table} VALUES ?`, [PEOPLE]);
  } finally {
    await connection.end();
  }
}
