import type { SqlDialect } from './sql-dialect';

/**
 * What every SQL engine is (files in SQLite: sql-engines.ts; PostgreSQL and MySQL/MariaDB:
 * database-sql-engines.ts), and the helpers they share.
 */

export interface TableSchema {
  name: string;
  columns: { name: string; type: string }[];
}

export interface QueryResult {
  columns: string[];
  rows: (string | number | null)[][];
}

export interface QueryOptions {
  /** The server stops the query after this long (SQLite: its worker thread is terminated). */
  timeoutMs: number;
  /** Rows read at most, whatever the SQL says; all of them when absent. */
  maxRows?: number;
}

/**
 * Where an SQL agent's queries run. Every engine only reads: writes fail in the database itself
 * (read-only transaction or connection), not just in the guard in front of it.
 */
export interface SqlEngine {
  readonly dialect: SqlDialect;
  /** The tables the agent may query, with their columns. */
  describe(): Promise<TableSchema[]>;
  query(sql: string, o: QueryOptions): Promise<QueryResult>;
  /** Approximate memory the engine holds in this process. */
  memoryBytes(): number;
  close(): Promise<void>;
}

/** The longest an engine waits to list its table's columns. */
export const DESCRIBE_TIMEOUT_MS = 10_000;

export function tableSchemas(table: string, columns: [string, string][]): TableSchema[] {
  if (columns.length === 0) return [];
  return [{ name: table, columns: columns.map(([name, type]) => ({ name, type })) }];
}

export function tableNotFound(table: string): Error {
  return new Error(`The table ${table} was not found, or this user cannot read it.`);
}

export function wholeMs(ms: number): number {
  return Math.max(1, Math.round(ms));
}

/** Drivers sometimes echo the connection string; its password never leaves this package. */
export function redactPassword(uri: string, message: string): string {
  let password = '';
  try {
    password = new URL(uri).password;
  } catch {
    return message;
  }
  if (!password) return message;
  return [password, decodeURIComponent(password)].reduce(
    (text, secret) => text.replaceAll(secret, '****'),
    message,
  );
}

/** What a result cell becomes for the preview: numbers stay numbers, everything else is text. */
export function cellValue(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') {
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'object') return JSON.stringify(value);
  return null; // functions and symbols do not come out of a database
}
