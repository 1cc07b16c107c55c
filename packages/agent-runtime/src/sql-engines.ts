import { readableSize } from '@agentloom/contracts';
import { readCsvRecords, readExcelRecords } from '@agentloom/source-readers';
import { readFile, stat } from 'node:fs/promises';
import {
  ColumnInference,
  sqliteValue,
  tableNameOf,
  type FileColumn,
  type SqliteValue,
} from './file-table';
import { messageOf } from './error-messages';
import {
  DESCRIBE_TIMEOUT_MS,
  type QueryOptions,
  type QueryResult,
  type SqlEngine,
  type TableSchema,
} from './sql-engine';
import { SqlTimeoutError, SqliteWorker } from './sqlite-worker';

export { SqlTimeoutError } from './sqlite-worker';
export type { QueryOptions, QueryResult, SqlEngine, TableSchema } from './sql-engine';
export { cellValue } from './sql-engine';
export { mysqlSqlEngine, postgresSqlEngine } from './database-sql-engines';

// --- Files: SQLite (sql.js) in a worker thread ---------------------------------------------------

/** Rows per insert message to the worker: large enough to be quick, small enough to stream. */
const INSERT_BATCH = 1000;

/** The Excel zip-bomb guard's default limit, the same as the gateway's and the builder's. */
const DEFAULT_MAX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024;

export interface FileSqlEngineOptions {
  kind: 'csv' | 'excel';
  path: string;
  /** The upload's name, e.g. "sales.csv"; the table is named after it (sales). */
  tableName: string;
  /** Excel: the sheet to load (default: the first). */
  sheet?: string;
  /** Excel: the zip-bomb guard's limit. */
  maxUncompressedBytes?: number;
}

/**
 * A CSV file or Excel sheet as one SQLite table in memory. The file is read twice as a stream —
 * once to learn the columns and their types, once to insert the rows in one transaction with a
 * prepared statement — so its size never decides the memory the reading takes.
 */
export async function fileSqlEngine(o: FileSqlEngineOptions): Promise<SqlEngine> {
  const records = () =>
    o.kind === 'csv'
      ? readCsvRecords(o.path)
      : readExcelRecords(o.path, o.maxUncompressedBytes ?? DEFAULT_MAX_UNCOMPRESSED_BYTES, o.sheet);
  const inference = new ColumnInference();
  for await (const record of records()) inference.add(record);
  const columns = inference.columns();
  if (inference.rows === 0 || columns.length === 0) {
    throw new Error('The file has no data rows to query.');
  }
  const table = tableNameOf(o.tableName);
  const worker = new SqliteWorker(undefined);
  try {
    await worker.exec(
      `CREATE TABLE ${table} (${columns.map((column) => `${column.name} ${column.type}`).join(', ')})`,
    );
    await worker.exec('BEGIN');
    const insert = `INSERT INTO ${table} VALUES (${columns.map(() => '?').join(', ')})`;
    let batch: SqliteValue[][] = [];
    for await (const record of records()) {
      batch.push(rowOf(record, columns));
      if (batch.length === INSERT_BATCH) {
        await worker.insert(insert, batch);
        batch = [];
      }
    }
    if (batch.length) await worker.insert(insert, batch);
    await worker.seal();
  } catch (error) {
    await worker.close();
    throw error;
  }
  return new SqliteEngine(worker);
}

function rowOf(record: Record<string, string>, columns: FileColumn[]): SqliteValue[] {
  return columns.map((column) => sqliteValue(record[column.header], column.type));
}

/** Files larger than this are not copied into memory for a preview (about twice this is held). */
const DEFAULT_MAX_SQLITE_BYTES = 256 * 1024 * 1024;

export interface SqliteFileSqlEngineOptions {
  path: string;
  /** The one table the agent works with; every table when absent. */
  table?: string;
  maxBytes?: number;
}

/**
 * An SQLite database file, opened read-only: sql.js works on a copy of its bytes, so nothing the
 * agent runs can change the file.
 */
export async function sqliteFileSqlEngine(o: SqliteFileSqlEngineOptions): Promise<SqlEngine> {
  const maxBytes = o.maxBytes ?? DEFAULT_MAX_SQLITE_BYTES;
  const { size } = await stat(o.path);
  if (size > maxBytes) {
    throw new Error(
      `The SQLite file is ${readableSize(size)}; previews open files up to ${readableSize(maxBytes)}.`,
    );
  }
  const bytes = await readFile(o.path);
  const engine = new SqliteEngine(new SqliteWorker(bytes), o.table);
  try {
    // Opening proves the file is a database, and holds the table, now rather than at the first
    // question.
    const tables = await engine.describe();
    if (o.table !== undefined && tables.length === 0) {
      throw new Error(`it has no table named ${o.table}`);
    }
  } catch (error) {
    await engine.close();
    throw new Error(`The SQLite file could not be opened: ${messageOf(error)}`);
  }
  return engine;
}

class SqliteEngine implements SqlEngine {
  readonly dialect = 'sqlite';

  /** `table`: describe only this table (or view), as the database engines describe theirs. */
  constructor(
    private readonly worker: SqliteWorker,
    private readonly table?: string,
  ) {}

  async describe(): Promise<TableSchema[]> {
    const only = this.table === undefined ? '' : ` AND name = ${sqlString(this.table)}`;
    const tables = await this.worker.query(
      `SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND substr(name, 1, 7) <> 'sqlite_'${only} ORDER BY name`,
      { timeoutMs: DESCRIBE_TIMEOUT_MS },
    );
    const schemas: TableSchema[] = [];
    for (const [name] of tables.rows) {
      const info = await this.worker.query(
        `SELECT name, type FROM pragma_table_info(${sqlString(String(name))})`,
        { timeoutMs: DESCRIBE_TIMEOUT_MS },
      );
      schemas.push({
        name: String(name),
        columns: info.rows.map(([column, type]) => ({
          name: String(column),
          type: String(type ?? ''),
        })),
      });
    }
    return schemas;
  }

  query(sql: string, o: QueryOptions): Promise<QueryResult> {
    return this.worker.query(sql, o).catch((error: unknown) => {
      throw error instanceof SqlTimeoutError
        ? error
        : new Error(`SQLite refused the query: ${messageOf(error)}`);
    });
  }

  /** The kept copy of the database, the worker's own, and SQLite's heap cap inside it. */
  memoryBytes(): number {
    return this.worker.memoryCapBytes();
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}

function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
