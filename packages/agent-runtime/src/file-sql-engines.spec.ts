import { peopleWorkbook } from '@agentloom/source-readers/testing';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeSqliteFile } from './testing/sqlite-file';
import { fileSqlEngine, sqliteFileSqlEngine, SqlTimeoutError, type SqlEngine } from './sql-engines';

const NEVER_ENDS =
  'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT COUNT(*) FROM n';

let dir: string;
const engines: SqlEngine[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'agent-runtime-sql-'));
});

afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.close()));
  await rm(dir, { recursive: true, force: true });
});

async function open(engine: Promise<SqlEngine>): Promise<SqlEngine> {
  engines.push(await engine);
  return engines.at(-1)!;
}

async function salesCsv(): Promise<string> {
  const file = path.join(dir, 'Sales 2024.csv');
  await writeFile(
    file,
    [
      'Order ID,Customer Name,Amount,Zip,Order,Notes',
      '1,Ada,12.5,01234,3,first',
      '2,Bob,40,75001,1,',
      '3,Cé,7.25,8001,2,"quoted, with comma"',
    ].join('\n'),
  );
  return file;
}

describe('fileSqlEngine over a CSV file', () => {
  it('makes one table with safe names and inferred column types', async () => {
    const engine = await open(
      fileSqlEngine({ kind: 'csv', path: await salesCsv(), tableName: 'Sales 2024.csv' }),
    );
    expect(engine.dialect).toBe('sqlite');
    expect(await engine.describe()).toEqual([
      {
        name: 'sales_2024',
        columns: [
          { name: 'order_id', type: 'INTEGER' },
          { name: 'customer_name', type: 'TEXT' },
          { name: 'amount', type: 'REAL' },
          // A leading zero keeps postcodes as text; "order" is a keyword, so it gets a suffix.
          { name: 'zip', type: 'TEXT' },
          { name: 'order_', type: 'INTEGER' },
          { name: 'notes', type: 'TEXT' },
        ],
      },
    ]);
    expect(engine.memoryBytes()).toBeGreaterThan(0);
  });

  it('answers queries with typed values, NULL for empty cells, and maxRows', async () => {
    const engine = await open(
      fileSqlEngine({ kind: 'csv', path: await salesCsv(), tableName: 'sales.csv' }),
    );
    expect(await engine.query('SELECT COUNT(*) AS n FROM sales', { timeoutMs: 5000 })).toEqual({
      columns: ['n'],
      rows: [[3]],
    });
    const rows = await engine.query(
      'SELECT customer_name, amount, zip, notes FROM sales ORDER BY order_id',
      { timeoutMs: 5000, maxRows: 2 },
    );
    expect(rows.rows).toEqual([
      ['Ada', 12.5, '01234', 'first'],
      ['Bob', 40, '75001', null],
    ]);
  });

  it('stops a query that runs past its time limit, and answers the next one', async () => {
    const engine = await open(
      fileSqlEngine({ kind: 'csv', path: await salesCsv(), tableName: 'sales.csv' }),
    );
    await expect(engine.query(NEVER_ENDS, { timeoutMs: 200 })).rejects.toThrow(SqlTimeoutError);
    await expect(engine.query(NEVER_ENDS, { timeoutMs: 200 })).rejects.toThrow(
      'The query took longer than 200 ms and was stopped.',
    );
    expect((await engine.query('SELECT COUNT(*) FROM sales', { timeoutMs: 5000 })).rows).toEqual([
      [3],
    ]);
  });

  it('cannot write: the connection is read-only whatever SQL reaches it', async () => {
    const engine = await open(
      fileSqlEngine({ kind: 'csv', path: await salesCsv(), tableName: 'sales.csv' }),
    );
    for (const write of [
      'DELETE FROM sales',
      'DROP TABLE sales',
      "INSERT INTO sales (customer_name) VALUES ('Mallory')",
      'UPDATE sales SET amount = 0',
    ]) {
      // Switching read-only off lasts only until the next query.
      await engine.query('PRAGMA query_only = OFF', { timeoutMs: 5000 });
      await expect(engine.query(write, { timeoutMs: 5000 })).rejects.toThrow(
        /SQLite refused the query: attempt to write a readonly database/,
      );
    }
    // prepare() compiles one statement: the DELETE after the SELECT never runs.
    await engine.query('SELECT 1; DELETE FROM sales', { timeoutMs: 5000 });
    expect(
      (await engine.query('SELECT COUNT(*), SUM(amount) FROM sales', { timeoutMs: 5000 })).rows,
    ).toEqual([[3, 59.75]]);
  });

  it('refuses a file without data rows, with a reason', async () => {
    const file = path.join(dir, 'empty.csv');
    await writeFile(file, 'a,b\n');
    await expect(
      fileSqlEngine({ kind: 'csv', path: file, tableName: 'empty.csv' }),
    ).rejects.toThrow('The file has no data rows to query.');
  });
});

describe('fileSqlEngine over an Excel sheet', () => {
  it('loads the first sheet by default, or the one named', async () => {
    const workbook = await peopleWorkbook(dir, 'people.xlsx');
    const people = await open(
      fileSqlEngine({ kind: 'excel', path: workbook, tableName: 'people.xlsx' }),
    );
    expect(await people.describe()).toEqual([
      {
        name: 'people',
        columns: [
          { name: 'name', type: 'TEXT' },
          { name: 'age', type: 'INTEGER' },
          { name: 'city', type: 'TEXT' },
        ],
      },
    ]);
    const oldest = await people.query('SELECT name, age, city FROM people ORDER BY age DESC', {
      timeoutMs: 5000,
      maxRows: 1,
    });
    expect(oldest).toEqual({ columns: ['name', 'age', 'city'], rows: [['Dan', 52, 'Oslo']] });

    // The "Notes" sheet has a header and nothing under it.
    await expect(
      fileSqlEngine({ kind: 'excel', path: workbook, tableName: 'people.xlsx', sheet: 'Notes' }),
    ).rejects.toThrow('The file has no data rows to query.');
  });
});

describe('sqliteFileSqlEngine', () => {
  it('opens a database file read-only', async () => {
    const file = path.join(dir, 'cities.sqlite');
    await writeSqliteFile(file, [
      'CREATE TABLE cities (name TEXT, population INTEGER)',
      "INSERT INTO cities VALUES ('Oslo', 700000), ('Rome', 2800000)",
    ]);

    const engine = await open(sqliteFileSqlEngine({ path: file }));
    expect(await engine.describe()).toEqual([
      {
        name: 'cities',
        columns: [
          { name: 'name', type: 'TEXT' },
          { name: 'population', type: 'INTEGER' },
        ],
      },
    ]);
    await expect(engine.query('DELETE FROM cities', { timeoutMs: 5000 })).rejects.toThrow(
      /readonly/,
    );
    expect(
      (await engine.query('SELECT SUM(population) FROM cities', { timeoutMs: 5000 })).rows,
    ).toEqual([[3500000]]);
  });

  it('describes only the chosen table, refuses a missing one and a file over the size cap', async () => {
    const file = path.join(dir, 'two-tables.sqlite');
    await writeSqliteFile(file, [
      'CREATE TABLE cities (name TEXT)',
      'CREATE TABLE secrets (token TEXT)',
    ]);

    const engine = await open(sqliteFileSqlEngine({ path: file, table: 'cities' }));
    expect((await engine.describe()).map((table) => table.name)).toEqual(['cities']);
    await expect(sqliteFileSqlEngine({ path: file, table: 'towns' })).rejects.toThrow(
      'The SQLite file could not be opened: it has no table named towns',
    );
    await expect(sqliteFileSqlEngine({ path: file, maxBytes: 4096 })).rejects.toThrow(
      /^The SQLite file is \d+ KB; previews open files up to 4 KB\.$/,
    );
  });

  it('refuses a file that is not a database', async () => {
    const file = path.join(dir, 'not-a-db.sqlite');
    await writeFile(file, 'hello, this is text');
    await expect(sqliteFileSqlEngine({ path: file })).rejects.toThrow(
      /^The SQLite file could not be opened: /,
    );
  });
});
