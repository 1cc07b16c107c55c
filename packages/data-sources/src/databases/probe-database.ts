import { ParsedDatabaseUri } from './database-uri';
import { InvalidDataSourceError, UnreachableDataSourceError } from './errors';
import { mongoDriver } from './probe-mongo';
import { mysqlDriver } from './probe-mysql';
import { postgresDriver } from './probe-postgres';
import {
  DatabaseDriver,
  DatabaseProbeReport,
  ProbeOptions,
  ProbeTarget,
  RowBatch,
} from './probe-support';

export type { DatabaseProbeReport, ProbeOptions, ProbeTarget, RowBatch } from './probe-support';

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
  const driver = driverFor(parsed.type);
  driver.checkTableName?.(checked);
  return driver.open(parsed, checked.database, options, endpoint, (session, deadline) =>
    driver.inspect(session, checked, deadline),
  );
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
  const driver = driverFor(parsed.type);
  return driver.open(parsed, name, options, endpoint, (session, deadline) =>
    driver.listTables(session, name, deadline),
  );
}

/**
 * Every row of a table (or document of a collection), streamed a batch at a time to `each` in a
 * read-only session on the first checked address: the builder reads a table source this way.
 * Same rules as probeDatabase: pass checkDataSourceTarget's addresses; the name is never
 * resolved here. `options.sessionMs` bounds the whole read, `timeoutMs` each step of it.
 */
export async function readTableRows(
  parsed: ParsedDatabaseUri,
  target: ProbeTarget,
  options: ProbeOptions,
  each: (batch: RowBatch) => Promise<void>,
): Promise<void> {
  if (parsed.type === 'sqlite') {
    throw new Error('SQLite tables are read from their file: see readSqliteRows.');
  }
  const checked = checkTarget(target);
  const endpoint = options.addresses[0];
  if (!endpoint) {
    throw new Error('readTableRows needs the addresses returned by checkDataSourceTarget.');
  }
  const driver = driverFor(parsed.type);
  driver.checkTableName?.(checked);
  await driver.open(parsed, checked.database, options, endpoint, (session) =>
    driver.readRows(session, checked, each),
  );
}

type ServerType = Exclude<ParsedDatabaseUri['type'], 'sqlite'>;

/**
 * Each driver is typed by its own session (a pg Client, a mysql2 Connection, a Mongo Db); here
 * only the pairing matters: the session open() hands to its work goes back to the same driver.
 */
const DRIVERS: Record<ServerType, DatabaseDriver<unknown>> = {
  postgres: postgresDriver,
  mysql: mysqlDriver,
  mongo: mongoDriver,
};

function driverFor(type: ServerType): DatabaseDriver<unknown> {
  return DRIVERS[type];
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
