import type { SqliteValue } from './file-table';
import type { QueryResult } from './sql-engine';
import { ThreadRequests } from './thread-requests';

/** Thrown when a query ran past its time limit and was stopped. */
export class SqlTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`The query took longer than ${timeoutMs} ms and was stopped.`);
    this.name = 'SqlTimeoutError';
  }
}

/**
 * The worker's code. sql.js is synchronous and exposes neither sqlite3_progress_handler nor
 * sqlite3_interrupt, so a query cannot be stopped from inside: one step of
 * `SELECT COUNT(*) FROM t, t, t` can run for hours. Running SQLite in a worker thread keeps that
 * off the gateway's event loop, and the only reliable stop — terminating the worker — is then
 * available. The host keeps the database's bytes to start a fresh worker after one.
 *
 * Messages: {id, op: 'exec' | 'insert' | 'seal' | 'query', …} → {id, ok, result | message}.
 * It is plain JavaScript in a string so the same code runs from dist/ and from the TypeScript
 * sources under jest; sql.js is required by the absolute path the host resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const initSqlJs = require(workerData.sqlJsPath);

// Read-only from the start when opened from a file; after 'seal' when loaded row by row.
let readOnly = Boolean(workerData.bytes);
const ready = initSqlJs().then((SQL) => {
  const db = new SQL.Database(workerData.bytes || undefined);
  // The cap on SQLite's own allocations (process-wide inside this worker's WebAssembly module):
  // a value, sort or temporary table that would need more fails with "out of memory" instead of
  // growing the heap — SELECT zeroblob(900000000) took the gateway to 1.9 GB before.
  db.run('PRAGMA hard_heap_limit = ' + workerData.heapLimitBytes);
  return db;
});

function cell(value) {
  return value instanceof Uint8Array ? '<' + value.length + ' bytes>' : value;
}

const handlers = {
  exec(db, { sql }) {
    db.run(sql);
  },
  insert(db, { sql, rows }) {
    const statement = db.prepare(sql);
    try {
      for (const row of rows) statement.run(row);
    } finally {
      statement.free();
    }
  },
  // Commits the load and returns the database file.
  seal(db) {
    db.run('COMMIT');
    readOnly = true;
    return db.export();
  },
  // query_only is set again before every query, because a query may be "PRAGMA query_only = OFF";
  // prepare() compiles the first statement only, so nothing can follow that in the same query.
  // (export() reopens the database, which resets its pragmas: another reason to set it here.)
  query(db, { sql, maxRows }) {
    // Temporary tables and sorts in memory count against the heap limit (files would not).
    db.run('PRAGMA temp_store = MEMORY');
    if (readOnly) db.run('PRAGMA query_only = ON');
    const statement = db.prepare(sql);
    try {
      const columns = statement.getColumnNames();
      const rows = [];
      while ((maxRows === null || rows.length < maxRows) && statement.step()) {
        rows.push(statement.get().map(cell));
      }
      return { columns, rows };
    } finally {
      statement.free();
    }
  },
};

parentPort.on('message', async (message) => {
  try {
    const result = handlers[message.op](await ready, message);
    parentPort.postMessage({ id: message.id, ok: true, result });
  } catch (error) {
    parentPort.postMessage({ id: message.id, ok: false, message: String(error && error.message || error) });
  }
});
`;

/** SQLite's heap inside one preview's worker unless told otherwise. */
export const DEFAULT_SQLITE_HEAP_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * The worker's JavaScript heap (rows in flight, messages): beyond it the worker is stopped by
 * Node and the next request starts a fresh one.
 */
const WORKER_JS_HEAP_MB = 256;

type Request =
  | { op: 'exec'; sql: string }
  | { op: 'insert'; sql: string; rows: SqliteValue[][] }
  | { op: 'seal' }
  | { op: 'query'; sql: string; maxRows: number | null };

/**
 * An SQLite database in a worker thread. Requests run one at a time, in order; a query's time
 * limit counts from when it starts, not from when it was queued.
 */
export class SqliteWorker {
  private readonly thread = new ThreadRequests<{ result: unknown }>({
    source: WORKER_SOURCE,
    workerData: () => ({
      sqlJsPath: require.resolve('sql.js'),
      bytes: this.bytes,
      heapLimitBytes: this.heapLimitBytes,
    }),
    resourceLimits: { maxOldGenerationSizeMb: WORKER_JS_HEAP_MB },
    crashMessage: 'The SQL engine stopped unexpectedly.',
  });
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** How many times a worker was stopped for growing past its memory cap. */
  recycled = 0;

  /**
   * @param bytes The database file to open read-only, or undefined for an empty database to load
   *   (writable until `seal`).
   * @param heapLimitBytes SQLite's hard heap limit inside the worker.
   */
  constructor(
    private bytes: Uint8Array | undefined,
    readonly heapLimitBytes = DEFAULT_SQLITE_HEAP_LIMIT_BYTES,
  ) {}

  exec(sql: string): Promise<void> {
    return this.run({ op: 'exec', sql }).then(() => undefined);
  }

  insert(sql: string, rows: SqliteValue[][]): Promise<void> {
    return this.run({ op: 'insert', sql, rows }).then(() => undefined);
  }

  /** Ends loading: commits, keeps the database's bytes for restarts, and makes it read-only. */
  async seal(): Promise<void> {
    this.bytes = (await this.run({ op: 'seal' })) as Uint8Array;
  }

  /**
   * A query that hits the heap limit has grown the worker's WebAssembly memory, which never
   * shrinks: the worker is recycled (stopped; the next request starts a fresh one from the
   * sealed bytes) so one such question does not keep its memory for the preview's lifetime.
   */
  async query(sql: string, o: { timeoutMs: number; maxRows?: number }): Promise<QueryResult> {
    const request: Request = { op: 'query', sql, maxRows: o.maxRows ?? null };
    try {
      return (await this.run(request, o.timeoutMs)) as QueryResult;
    } catch (error) {
      if (this.bytes && /out of memory/i.test((error as Error).message)) {
        this.recycled += 1;
        await this.thread.stop(new Error('The SQL engine was recycled.'));
        throw new Error(
          `The query needed more than the ${Math.round(this.heapLimitBytes / 1024 / 1024)} MB a preview may use.`,
        );
      }
      throw error;
    }
  }

  /** The database file's size; the worker holds about as much again in its WebAssembly heap. */
  databaseBytes(): number {
    return this.bytes?.byteLength ?? 0;
  }

  /** At most what this engine may hold: the kept bytes, the worker's copy, SQLite's heap cap. */
  memoryCapBytes(): number {
    return 2 * this.databaseBytes() + this.heapLimitBytes;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.thread.stop(new Error('The SQL engine was closed.'));
  }

  private run(request: Request, timeoutMs?: number): Promise<unknown> {
    const result = this.queue.then(() => this.send(request, timeoutMs));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async send(request: Request, timeoutMs?: number): Promise<unknown> {
    if (this.closed) throw new Error('The SQL engine was closed.');
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => void this.thread.stop(new SqlTimeoutError(timeoutMs)), timeoutMs);
    try {
      return (await this.thread.call(request)).result;
    } finally {
      clearTimeout(timer);
    }
  }
}
