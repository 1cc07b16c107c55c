import { isIP, Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { Client, ClientConfig } from 'pg';
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
  splitQualifiedName,
  tableNotFound,
  DatabaseDriver,
} from './probe-support';

// Views, materialized views, foreign and partitioned tables are as queryable as plain tables.
const RELATION_SQL = `
  SELECT c.oid, c.reltuples::float8 AS reltuples
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p', 'v', 'm', 'f')`;

// pg_attribute rather than information_schema.columns, which leaves out materialized views;
// format_type keeps lengths and precisions (numeric(10,2), character varying(40)).
const COLUMNS_SQL = `
  SELECT a.attname AS name, pg_catalog.format_type(a.atttypid, a.atttypmod) AS type
  FROM pg_catalog.pg_attribute a
  WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
  ORDER BY a.attnum`;

// An exact count needs the table's name inside SQL. query_to_xml runs it on the server and
// format('%I') quotes the identifiers there, so no name is ever spliced into SQL text here.
const COUNT_SQL = `
  SELECT (pg_catalog.xpath('/row/n/text()', pg_catalog.query_to_xml(
    pg_catalog.format('SELECT count(*) AS n FROM %I.%I', $1::text, $2::text), false, true, ''
  )))[1]::text AS n`;

const SET_STATEMENT_TIMEOUT_SQL = `SELECT pg_catalog.set_config('statement_timeout', $1, false)`;

const ZRelation = z.object({ oid: z.union([z.number(), z.string()]), reltuples: z.number() });
const ZColumn = z.object({ name: z.string(), type: z.string() });
const ZColumnName = z.object({ name: z.string() });
const ZCount = z.object({ n: z.string().nullable() });

// What the probe accepts, in the form it accepts it: a bare name in public, else schema.table.
// Partitions are left out (their parent is the table), and so are schemas the login cannot use.
const LIST_SQL = `
  SELECT CASE WHEN n.nspname = 'public' THEN c.relname ELSE n.nspname || '.' || c.relname END AS name
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition
    AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
    AND pg_catalog.has_schema_privilege(n.oid, 'USAGE')
  ORDER BY n.nspname <> 'public', n.nspname, c.relname
  LIMIT $1`;

const ZListed = z.object({ name: z.string() });

// The columns of the relation's primary key, in key order.
const PRIMARY_KEY_SQL = `
  SELECT a.attname AS name
  FROM pg_catalog.pg_index i
  JOIN pg_catalog.pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
  WHERE i.indrelid = $1 AND i.indisprimary
  ORDER BY pg_catalog.array_position(i.indkey::int2[], a.attnum)`;

/** Rows fetched from the cursor at a time. */
const FETCH_ROWS = 1000;

export const postgresDriver: DatabaseDriver<Client> = {
  open: withPostgres,
  checkTableName: (target) => void splitQualifiedName(target.table, 'public'),
  inspect,
  listTables,
  readRows,
};

/**
 * Every row through a server-side cursor in a read-only transaction, FETCH_ROWS at a time: the
 * table is never held whole, on either side. The names are quoted by pg's escapeIdentifier after
 * the relation was found by name in the catalogue.
 */
async function readRows(
  client: Client,
  target: ProbeTarget,
  each: (batch: RowBatch) => Promise<void>,
): Promise<void> {
  const { schema, table } = splitQualifiedName(target.table, 'public');
  const found = await client.query(RELATION_SQL, [schema, table]);
  const relation = found.rows[0] === undefined ? undefined : ZRelation.parse(found.rows[0]);
  if (!relation) throw tableNotFound(target);
  const keyRows = await client.query(PRIMARY_KEY_SQL, [relation.oid]);
  const keyColumns = z
    .array(ZColumnName)
    .parse(keyRows.rows)
    .map((row) => row.name);
  const name = `${client.escapeIdentifier(schema)}.${client.escapeIdentifier(table)}`;
  await client.query('BEGIN TRANSACTION READ ONLY');
  try {
    await client.query(`DECLARE agentloom_rows NO SCROLL CURSOR FOR SELECT * FROM ${name}`);
    for (;;) {
      const result = await client.query<Record<string, unknown>>(
        `FETCH ${FETCH_ROWS} FROM agentloom_rows`,
      );
      const columns = result.fields.map((field) => field.name);
      if (result.rows.length > 0) await each({ columns, keyColumns, rows: result.rows });
      if (result.rows.length < FETCH_ROWS) break;
    }
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
  }
}

/** The tables and views the login can reach (the session's database), `schema.table` outside `public`. */
async function listTables(client: Client): Promise<string[]> {
  const found = await client.query(LIST_SQL, [MAX_LISTED_TABLES]);
  return z
    .array(ZListed)
    .parse(found.rows)
    .map((row) => row.name);
}

/** One connection under the probe's deadline and error wording, for `work` to use. */
async function withPostgres<T>(
  parsed: ParsedDatabaseUri,
  database: string,
  options: ProbeOptions,
  endpoint: CheckedTarget,
  work: (client: Client, deadline: Deadline) => Promise<T>,
): Promise<T> {
  const parts = splitDatabaseUri(parsed);
  // Our own socket, so a failed probe can be cut at once whatever state pg is in.
  const socket = new Socket();
  const client = new Client({
    ...clientConfig(parts, endpoint, database, options.timeoutMs),
    stream: () => socket,
  });
  // Failures reach us through the awaited calls; an unheard 'error' event would crash the process.
  client.on('error', () => undefined);
  return runProbe(
    { label: 'PostgreSQL', endpoint, credentials: parts },
    options,
    async (step) => {
      await client.connect();
      step.connected = true;
      return work(client, step.deadline);
    },
    async (succeeded) => {
      if (succeeded) {
        await closeWithin(() => client.end());
      }
      socket.destroy();
    },
  );
}

function clientConfig(
  parts: DatabaseUriParts,
  endpoint: CheckedTarget,
  database: string,
  timeoutMs: number,
): ClientConfig {
  if (!parts.username) {
    // pg would otherwise sign in as PGUSER or the gateway's OS user.
    throw new InvalidDataSourceError(
      'The Postgres connection URI needs a user name (for example postgresql://user:password@host:5432/dbname).',
    );
  }
  return {
    host: endpoint.address,
    port: endpoint.port,
    user: parts.username,
    // A function, because pg replaces an empty password with PGPASSWORD or ~/.pgpass — the
    // gateway's own credentials, which must never be offered to a user's server.
    password: () => parts.password ?? '',
    database,
    ssl: tlsOptions(parts.params, endpoint.host),
    sslnegotiation: 'postgres',
    application_name: 'agentloom-probe',
    connectionTimeoutMillis: driverTimeoutMs(timeoutMs),
    statement_timeout: driverTimeoutMs(timeoutMs),
    query_timeout: driverTimeoutMs(timeoutMs),
  };
}

/**
 * libpq's sslmode meanings (plus pg's `ssl=true` and `no-verify`). The socket goes to an address,
 * so the host name is passed as `servername`: it is both the SNI and the name the certificate is
 * checked against. Certificate files (sslrootcert…) are not read: they name files on the machine
 * where the agent runs, not on the gateway.
 */
function tlsOptions(params: URLSearchParams, host: string): false | ConnectionOptions {
  const mode = (params.get('sslmode') ?? sslmodeFromSslFlag(params.get('ssl'))).toLowerCase();
  const servername = isIP(host) ? {} : { servername: host };
  switch (mode) {
    case 'disable':
    case 'allow':
      return false;
    case 'prefer':
    case 'require':
    case 'no-verify':
      // libpq encrypts without checking the certificate in these modes; pg cannot fall back to plain text.
      return { ...servername, rejectUnauthorized: false };
    case 'verify-ca':
      return { ...servername, checkServerIdentity: () => undefined };
    case 'verify-full':
      return servername;
    default:
      throw new InvalidDataSourceError(
        'The sslmode in the connection URI must be disable, allow, prefer, require, verify-ca or verify-full.',
      );
  }
}

function sslmodeFromSslFlag(flag: string | null): string {
  switch (flag?.toLowerCase()) {
    case undefined:
    case 'false':
    case '0':
      return 'disable';
    case 'true':
    case '1':
      return 'verify-full';
    default:
      return flag ?? 'disable';
  }
}

async function inspect(
  client: Client,
  target: ProbeTarget,
  deadline: Deadline,
): Promise<DatabaseProbeReport> {
  const relation = splitQualifiedName(target.table, 'public');
  const found = await client.query(RELATION_SQL, [relation.schema, relation.table]);
  const row = found.rows[0] === undefined ? undefined : ZRelation.parse(found.rows[0]);
  if (!row) {
    throw tableNotFound(target);
  }
  const columns = await client.query(COLUMNS_SQL, [row.oid]);
  return {
    columns: z.array(ZColumn).parse(columns.rows),
    approximateRows: await approximateRows(client, relation, row.reltuples, deadline),
    privilegeWarning: await postgresPrivileges(client, row.oid, relation, target),
  };
}

const PRIVILEGES_SQL = `
  SELECT r.rolsuper AS superuser,
         pg_catalog.pg_has_role(current_user, 'pg_read_server_files', 'USAGE')
           OR pg_catalog.pg_has_role(current_user, 'pg_execute_server_program', 'USAGE') AS files,
         pg_catalog.has_table_privilege($1::oid, 'INSERT')
           OR pg_catalog.has_table_privilege($1::oid, 'UPDATE')
           OR pg_catalog.has_table_privilege($1::oid, 'DELETE') AS writes
  FROM pg_catalog.pg_roles r WHERE r.rolname = current_user`;

const ZPrivileges = z.object({ superuser: z.boolean(), files: z.boolean(), writes: z.boolean() });

/** A probe that found the table does not fail on this check: no answer, no warning. */
async function postgresPrivileges(
  client: Client,
  oid: unknown,
  relation: { schema: string; table: string },
  target: ProbeTarget,
): Promise<string | null> {
  const answer = await client.query(PRIVILEGES_SQL, [oid]).catch(() => null);
  const parsed = ZPrivileges.safeParse(answer?.rows[0]);
  if (!parsed.success) return null;
  const { superuser, files, writes } = parsed.data;
  const powers = [
    ...(superuser ? ['do anything on the server (it is a superuser)'] : []),
    ...(files && !superuser ? ['read files on the server'] : []),
    ...(writes && !superuser ? ['change the table'] : []),
  ];
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return privilegeWarning(
    powers,
    `CREATE ROLE agent_reader LOGIN PASSWORD '…'; GRANT CONNECT ON DATABASE ${quote(target.database)} TO agent_reader; GRANT USAGE ON SCHEMA ${quote(relation.schema)} TO agent_reader; GRANT SELECT ON ${quote(relation.schema)}.${quote(relation.table)} TO agent_reader;`,
  );
}

/**
 * The planner's estimate (pg_class.reltuples) when there is one. It is -1 (PG 14+) or 0 (older)
 * until the table is first analyzed — typical of new and small tables, and always so for views —
 * so then an exact count runs, capped at half the remaining time; a count that is cut short or
 * refused reports null rather than failing a probe that has already found the columns.
 */
async function approximateRows(
  client: Client,
  relation: { schema: string; table: string },
  reltuples: number,
  deadline: Deadline,
): Promise<number | null> {
  if (reltuples > 0) {
    return Math.round(reltuples);
  }
  try {
    const budget = String(Math.max(1, Math.floor(deadline.remainingMs() / 2)));
    await client.query(SET_STATEMENT_TIMEOUT_SQL, [budget]);
    const counted = await client.query(COUNT_SQL, [relation.schema, relation.table]);
    const n = ZCount.parse(counted.rows[0]).n;
    return n === null ? null : Number(n);
  } catch {
    return null;
  }
}
