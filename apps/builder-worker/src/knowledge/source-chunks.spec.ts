import { DataSourceAccess } from '@agentloom/data-sources';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { tableUnits } from './source-chunks';

/**
 * A table's rows as units of change, read from real SQLite files: each row's key, and the
 * numbering of rows that share one (a primary key's rows are not remembered to number them).
 */
describe('tableUnits', () => {
  let folder: string;
  let access: DataSourceAccess;

  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'agentloom-table-units-'));
    access = new DataSourceAccess({
      platformUrls: { database: 'postgresql://platform/db', redis: 'redis://platform' },
      strict: false,
      allowedHosts: [],
      timeoutMs: 5_000,
      sqliteDir: folder,
    });
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  async function keysOf(table: string, ddl: string, rows: string[]): Promise<string[]> {
    const db = new DatabaseSync(path.join(folder, `${table}.db`));
    db.exec(ddl);
    for (const values of rows) db.exec(`INSERT INTO ${table} VALUES ${values}`);
    db.close();
    const read = {
      type: 'sqlite' as const,
      uri: `sqlite:///${table}.db`,
      database: '',
      table,
      label: table,
    };
    const keys: string[] = [];
    const chunking = { size: 1000, overlap: 0 };
    for await (const batch of tableUnits(access, read, chunking, 's:', () => Promise.resolve())) {
      for (const unit of batch) keys.push(unit.key);
    }
    return keys;
  }

  it('keys rows by their primary key, each once', async () => {
    const keys = await keysOf('parts', 'CREATE TABLE parts (id INTEGER PRIMARY KEY, name TEXT)', [
      "(1, 'bolt')",
      "(2, 'nut')",
      "(3, 'bolt')",
    ]);
    expect(keys).toEqual(['id=1', 'id=2', 'id=3']);
  });

  it('numbers rows that share an id column that is not a key', async () => {
    const keys = await keysOf('notes', 'CREATE TABLE notes (id INTEGER, body TEXT)', [
      "(1, 'first')",
      "(1, 'second')",
      "(2, 'third')",
      "(1, 'fourth')",
    ]);
    expect(keys).toEqual(['id=1', 'id=1 (2)', 'id=2', 'id=1 (3)']);
  });

  it('numbers identical rows of a keyless table', async () => {
    const keys = await keysOf('words', 'CREATE TABLE words (word TEXT)', [
      "('alpha')",
      "('alpha')",
      "('beta')",
    ]);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^#\w+$/);
    expect(keys[1]).toBe(`${keys[0]} (2)`);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it("numbers a SQLite primary key's NULLs, which it lets repeat", async () => {
    const keys = await keysOf('codes', 'CREATE TABLE codes (code TEXT PRIMARY KEY, label TEXT)', [
      "(NULL, 'one')",
      "('a', 'two')",
      "(NULL, 'three')",
    ]);
    expect(keys).toEqual(['code=', 'code=a', 'code= (2)']);
  });
});
