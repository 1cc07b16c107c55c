import { writeFile } from 'node:fs/promises';
import initSqlJs from 'sql.js';

/** Writes a real SQLite database file made by running `statements` on an empty database. */
export async function writeSqliteFile(file: string, statements: string[]): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  try {
    for (const statement of statements) db.run(statement);
    await writeFile(file, db.export());
  } finally {
    db.close();
  }
}
