import { ParsedDatabaseUri } from './database-uri';
import { InvalidDataSourceError, UnreachableDataSourceError } from './errors';
import { listMongoCollections, probeMongo } from './probe-mongo';
import { listMysqlTables, probeMysql } from './probe-mysql';
import { listPostgresTables, probePostgres } from './probe-postgres';
import { DatabaseProbeReport, ProbeOptions, ProbeTarget } from './probe-support';

export type { DatabaseProbeReport, ProbeOptions, ProbeTarget } from './probe-support';

/**
 * Connects to the first checked address (IPv4 first), confirms the table or collection exists and
 * reports its columns and approximate row count. Call checkDataSourceTarget first and pass its
 * result as `addresses`: the probe never resolves a name itself.
 */
export async function probeDatabase(
  parsed: ParsedDatabaseUri,
  target: ProbeTarget,
  options: ProbeOptions,
): Promise<DatabaseProbeReport> {
  if (parsed.type === 'sqlite') {
    // The path names a file where the generated agent runs, not on the gateway: nothing to open.
    return { columns: null, approximateRows: null };
  }
  const checked = checkTarget(target);
  const endpoint = options.addresses[0];
  if (!endpoint) {
    throw new Error('probeDatabase needs the addresses returned by checkDataSourceTarget.');
  }
  switch (parsed.type) {
    case 'postgres':
      return probePostgres(parsed, checked, options, endpoint);
    case 'mysql':
      return probeMysql(parsed, checked, options, endpoint);
    case 'mongo':
      return probeMongo(parsed, checked, options, endpoint);
  }
}

/**
 * The tables (views, collections) of a database, named as the probe takes them, for the wizard to
 * offer. Same rules as probeDatabase: pass checkDataSourceTarget's addresses; the name is never
 * resolved here. A SQLite file lives where the agent runs, so it cannot be listed.
 */
export async function listDatabaseTables(
  parsed: ParsedDatabaseUri,
  database: string,
  options: ProbeOptions,
): Promise<string[]> {
  if (parsed.type === 'sqlite') {
    throw new UnreachableDataSourceError(
      'The SQLite file is opened where the agent runs, so its tables cannot be listed here. Type the table name instead.',
    );
  }
  const name = database.trim();
  if (!name) {
    throw new InvalidDataSourceError('Enter the name of the database.');
  }
  const endpoint = options.addresses[0];
  if (!endpoint) {
    throw new Error('listDatabaseTables needs the addresses returned by checkDataSourceTarget.');
  }
  switch (parsed.type) {
    case 'postgres':
      return listPostgresTables(parsed, name, options, endpoint);
    case 'mysql':
      return listMysqlTables(parsed, name, options, endpoint);
    case 'mongo':
      return listMongoCollections(parsed, name, options, endpoint);
  }
}

function checkTarget(target: ProbeTarget): ProbeTarget {
  const database = target.database.trim();
  const table = target.table.trim();
  if (!database) {
    throw new InvalidDataSourceError('Enter the name of the database.');
  }
  if (!table) {
    throw new InvalidDataSourceError('Enter the name of the table or collection.');
  }
  return { database, table };
}
