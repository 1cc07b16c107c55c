import { SqliteWorker } from './sqlite-worker';

const MB = 1024 * 1024;

/** A sealed one-table database whose worker may use `heapLimitBytes` for SQLite. */
async function sealedWorker(heapLimitBytes: number): Promise<SqliteWorker> {
  const worker = new SqliteWorker(undefined, heapLimitBytes);
  await worker.exec('CREATE TABLE data (name TEXT)');
  await worker.exec('BEGIN');
  await worker.insert('INSERT INTO data VALUES (?)', [['a'], ['b']]);
  await worker.seal();
  return worker;
}

describe('SqliteWorker memory caps', () => {
  let worker: SqliteWorker;
  beforeEach(async () => {
    worker = await sealedWorker(16 * MB);
  });
  afterEach(() => worker.close());

  it.each([
    ['a huge zero-filled blob', 'SELECT zeroblob(900000000)'],
    ['a wide printf', "SELECT printf('%.*c', 300000000, 'x')"],
    [
      'a string doubled by a recursive query (allowed functions only)',
      "WITH RECURSIVE r(x) AS (SELECT 'aaaaaaaaaa' UNION ALL SELECT x || x FROM r WHERE length(x) < 900000000) SELECT length(max(x)) FROM r",
    ],
  ])('stops %s inside SQLite, recycles the worker, and answers the next query', async (_, sql) => {
    await expect(worker.query(sql, { timeoutMs: 60_000 })).rejects.toThrow(
      'The query needed more than the 16 MB a preview may use.',
    );
    expect(worker.recycled).toBe(1);
    await expect(
      worker.query('SELECT count(*) AS n FROM data', { timeoutMs: 60_000 }),
    ).resolves.toEqual({ columns: ['n'], rows: [[2]] });
  });

  it('counts its heap cap in the memory it may hold', () => {
    expect(worker.memoryCapBytes()).toBe(2 * worker.databaseBytes() + 16 * MB);
  });
});
