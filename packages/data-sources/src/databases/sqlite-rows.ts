import { DatabaseSync } from 'node:sqlite';
import { UnreachableDataSourceError } from './errors';
import type { RowBatch } from './probe-support';

/** Rows handed on at a time. */
const BATCH_ROWS = 1000;

/**
 * Every row of a table of a SQLite file, opened read-only (node:sqlite), iterated a batch at a
 * time: never the whole table in memory. The caller has checked the file is one this server may
 * open (DataSourceAccess.sqliteFile).
 */
export async function readSqliteRows(
  file: string,
  table: string,
  each: (batch: RowBatch) => Promise<void>,
): Promise<void> {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    throw new UnreachableDataSourceError(
      `The SQLite file could not be opened: ${(error as Error).message}`,
    );
  }
  try {
    const found = db
      .prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?`)
      .get(table);
    if (!found) throw new UnreachableDataSourceError(`The table "${table}" was not found.`);
    const described = db.prepare('SELECT name, pk FROM pragma_table_info(?)').all(table) as {
      name: string;
      pk: number;
    }[];
    const columns = described.map((column) => column.name);
    const keyColumns = described
      .filter((column) => column.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((column) => column.name);
    const quoted = `"${table.replaceAll('"', '""')}"`;
    let rows: Record<string, unknown>[] = [];
    for (const row of db.prepare(`SELECT * FROM ${quoted}`).iterate()) {
      rows.push(row);
      if (rows.length === BATCH_ROWS) {
        await each({ columns, keyColumns, rows });
        rows = [];
      }
    }
    if (rows.length > 0) await each({ columns, keyColumns, rows });
  } finally {
    db.close();
  }
}
