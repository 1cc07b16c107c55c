import { Socket } from 'node:net';
import type { Connection as CoreConnection } from 'mysql2';
import { Connection, createConnection, RowDataPacket, SslOptions } from 'mysql2/promise';
import { z } from 'zod';
import { DatabaseUriParts, ParsedDatabaseUri, splitDatabaseUri } from './database-uri';
import { InvalidDataSourceError } from './errors';
import { CheckedTarget } from './network-guard';
import {
  closeWithin,
  DatabaseProbeReport,
  Deadline,
  driverTimeoutMs,
  MAX_LISTED_TABLES,
  ProbeOptions,
  privilegeWarning,
  ProbeTarget,
  RowBatch,
  runProbe,
  tableNotFound,
  DatabaseDriver,
} from './probe-support';

const TABLE_SQL = `
  SELECT TABLE_ROWS AS tableRows
  FROM information_schema.TABLES
  WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?`;

// The server lists only what the login has some privilege on.
const LIST_SQL = `
  SELECT TABLE_NAME AS name
  FROM information_schema.TABLES
  WHERE TABLE_SCHEMA = ?
  ORDER BY TABLE_NAME
  LIMIT ${MAX_LISTED_TABLES}`;

const ZListed = z.object({ name: z.string() });

// COLUMN_TYPE rather than DATA_TYPE: it keeps lengths, precisions and enum values.
const COLUMNS_SQL = `
  SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type
  FROM information_schema.COLUMNS
  WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?
  ORDER BY ORDINAL_POSITION`;

// TABLE_ROWS is InnoDB's estimate for tables and NULL for views.
const ZTable = z.object({ tableRows: z.union([z.number(), z.string()]).nullable() });
const ZColumn = z.object({ name: z.string(), type: z.string() });

type SslMode = 'disabled' | 'required' | 'verify-ca' | 'verify-identity';

// The columns of the table's primary key, in key order.
const PRIMARY_KEY_SQL = `
  SELECT COLUMN_NAME AS name
  FROM information_schema.KEY_COLUMN_USAGE
  WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND CONSTRAINT_NAME = 'PRIMARY'
  ORDER BY ORDINAL_POSITION`;

/** Rows handed on at a time while the server streams them. */
const BATCH_ROWS = 1000;

export const mysqlDriver: DatabaseDriver<Connection> = {
  open: withMysql,
  inspect,
  listTables,
  readRows,
};

/**
 * Every row in one read-only transaction, streamed as the server sends it (mysql2's row stream,
 * paused while a batch is handed on): the table is never held whole. `??` has mysql2 quote the
 * table's name as an identifier.
 */
async function readRows(
  connection: Connection,
  target: ProbeTarget,
  each: (batch: RowBatch) => Promise<void>,
): Promise<void> {
  const values = [target.database, target.table];
  const [columnRows] = await connection.execute<RowDataPacket[]>({ sql: COLUMNS_SQL, values });
  const columns = z
    .array(ZColumn)
    .parse(columnRows)
    .map((column) => column.name);
  if (columns.length === 0) throw tableNotFound(target);
  const [keyRows] = await connection.execute<RowDataPacket[]>({ sql: PRIMARY_KEY_SQL, values });
  const keyColumns = z
    .array(ZListed)
    .parse(keyRows)
    .map((row) => row.name);
  await connection.query('START TRANSACTION READ ONLY');
  try {
    // The promise wrapper does not stream; its callback connection (untyped there) does.
    const core = (connection as unknown as { connection: CoreConnection }).connection;
    const stream = core
      .query({ sql: 'SELECT * FROM ??', values: [target.table] })
      .stream({ highWaterMark: BATCH_ROWS });
    let rows: Record<string, unknown>[] = [];
    for await (const row of stream as AsyncIterable<Record<string, unknown>>) {
      rows.push(row);
      if (rows.length === BATCH_ROWS) {
        await each({ columns, keyColumns, rows });
        rows = [];
      }
    }
    if (rows.length > 0) await each({ columns, keyColumns, rows });
  } finally {
    await connection.query('ROLLBACK').catch(() => undefined);
  }
}

/** The tables and views of the database that the login can see. */
async function listTables(
  connection: Connection,
  database: string,
  deadline: Deadline,
): Promise<string[]> {
  const [rows] = await connection.execute<RowDataPacket[]>({
    sql: LIST_SQL,
    values: [database],
    timeout: deadline.remainingMs(),
  });
  return z
    .array(ZListed)
    .parse(rows)
    .map((row) => row.name);
}

/** One connection under the probe's deadline and error wording, for `work` to use. */
async function withMysql<T>(
  parsed: ParsedDatabaseUri,
  database: string,
  options: ProbeOptions,
  endpoint: CheckedTarget,
  work: (connection: Connection, deadline: Deadline) => Promise<T>,
): Promise<T> {
  const parts = splitDatabaseUri(parsed);
  const ssl = tlsOptions(parts.params);
  // mysql2 would connect to `host`; handing it a socket already aimed at the checked address keeps
  // `host` as the name for SNI and the certificate check.
  const socket = new Socket().setNoDelay(true).connect(endpoint.port, endpoint.address);
  socket.on('error', () => undefined);
  let connection: Connection | null = null;
  return runProbe(
    { label: 'MySQL', endpoint, credentials: parts },
    options,
    async (step) => {
      const opened = await createConnection({
        host: endpoint.host,
        port: endpoint.port,
        user: parts.username ?? '',
        password: parts.password ?? '',
        database,
        ssl,
        connectTimeout: driverTimeoutMs(options.timeoutMs),
        stream: () => socket,
        // LOAD DATA LOCAL lets a hostile server ask for the gateway's files.
        flags: ['-LOCAL_FILES'],
      });
      connection = opened;
      // Failures reach us through the awaited calls; an unheard 'error' event would crash the process.
      opened.on('error', () => undefined);
      step.connected = true;
      return work(opened, step.deadline);
    },
    async (succeeded) => {
      const opened: Connection | null = connection;
      if (succeeded && opened) {
        await closeWithin(() => opened.end());
      }
      socket.destroy();
    },
  );
}

async function inspect(
  connection: Connection,
  target: ProbeTarget,
  deadline: Deadline,
): Promise<DatabaseProbeReport> {
  const values = [target.database, target.table];
  const [tables] = await connection.execute<RowDataPacket[]>({
    sql: TABLE_SQL,
    values,
    timeout: deadline.remainingMs(),
  });
  const table = tables[0] === undefined ? undefined : ZTable.parse(tables[0]);
  if (!table) {
    throw tableNotFound(target);
  }
  const [columns] = await connection.execute<RowDataPacket[]>({
    sql: COLUMNS_SQL,
    values,
    timeout: deadline.remainingMs(),
  });
  return {
    columns: z.array(ZColumn).parse(columns),
    approximateRows: table.tableRows === null ? null : Number(table.tableRows),
    privilegeWarning: await mysqlPrivileges(connection, target, deadline),
  };
}

/** A probe that found the table does not fail on this check: no answer, no warning. */
async function mysqlPrivileges(
  connection: Connection,
  target: ProbeTarget,
  deadline: Deadline,
): Promise<string | null> {
  const [grants] = await connection
    .query<RowDataPacket[]>({
      sql: 'SHOW GRANTS FOR CURRENT_USER()',
      timeout: deadline.remainingMs(),
    })
    .catch(() => [[] as RowDataPacket[]]);
  const text = grants.map((row) => String(Object.values(row)[0] ?? '')).join('\n');
  const has = (pattern: RegExp) => pattern.test(text);
  const powers = [
    ...(has(/\b(ALL PRIVILEGES|SUPER)\b/) ? ['do anything on the server'] : []),
    ...(has(/\bFILE\b/) ? ['read and write files on the server'] : []),
    ...(has(/\b(INSERT|UPDATE|DELETE|DROP|ALTER|CREATE)\b/) ? ['change data'] : []),
  ];
  const name = (text: string) => `\`${text.replace(/`/g, '``')}\``;
  return privilegeWarning(
    powers,
    `CREATE USER 'agent_reader'@'%' IDENTIFIED BY '…'; GRANT SELECT ON ${name(target.database)}.${name(target.table)} TO 'agent_reader'@'%';`,
  );
}

/**
 * `ssl-mode` (MySQL's names, also spelled `sslmode`) or mysql2's `ssl` (`true` or a JSON object
 * with rejectUnauthorized). PREFERRED connects in plain text: mysql2 cannot fall back.
 */
function tlsOptions(params: DatabaseUriParts['params']): SslOptions | undefined {
  const mode = sslMode(params);
  switch (mode) {
    case 'disabled':
      return undefined;
    case 'required':
      return { rejectUnauthorized: false };
    case 'verify-ca':
      return { rejectUnauthorized: true, verifyIdentity: false };
    case 'verify-identity':
      return { rejectUnauthorized: true, verifyIdentity: true };
  }
}

function sslMode(params: DatabaseUriParts['params']): SslMode {
  const named = params.get('ssl-mode') ?? params.get('sslmode');
  if (named !== null) {
    return sslModeByName(named);
  }
  const flag = params.get('ssl');
  if (flag === null || flag === 'false' || flag === '0') {
    return 'disabled';
  }
  if (flag === 'true' || flag === '1') {
    return 'verify-identity';
  }
  return sslModeFromJson(flag);
}

function sslModeByName(name: string): SslMode {
  switch (name.toLowerCase().replace(/_/g, '-')) {
    case 'disabled':
    case 'disable':
    case 'preferred':
    case 'prefer':
      return 'disabled';
    case 'required':
    case 'require':
      return 'required';
    case 'verify-ca':
      return 'verify-ca';
    case 'verify-identity':
    case 'verify-full':
      return 'verify-identity';
    default:
      throw new InvalidDataSourceError(
        'The ssl-mode in the connection URI must be DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY.',
      );
  }
}

function sslModeFromJson(flag: string): SslMode {
  const parsed = z
    .object({ rejectUnauthorized: z.boolean().optional() })
    .safeParse(parseJson(flag));
  if (!parsed.success) {
    throw new InvalidDataSourceError(
      'The ssl option in the connection URI must be true, false or a JSON object such as {"rejectUnauthorized":true}.',
    );
  }
  return parsed.data.rejectUnauthorized === false ? 'required' : 'verify-identity';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
