import mysql from 'mysql2/promise';
import pg from 'pg';
import { messageOf } from './error-messages';
import {
  cellValue,
  DESCRIBE_TIMEOUT_MS,
  redactPassword,
  tableNotFound,
  tableSchemas,
  wholeMs,
  type QueryOptions,
  type QueryResult,
  type SqlEngine,
  type TableSchema,
} from './sql-engine';
import { SqlTimeoutError } from './sqlite-worker';

// --- Databases: PostgreSQL and MySQL/MariaDB ----------------------------------------------------

const CONNECT_TIMEOUT_MS = 10_000;

/** How long after the server's own time limit the driver gives up on a server gone silent. */
const CLIENT_TIMEOUT_GRACE_MS = 2000;

/**
 * `schema.table` or a bare table name, as the wizard recorded it. A bare name is looked up where
 * unqualified SQL would find it (PostgreSQL's search path, MySQL's current database).
 */
function splitTableName(table: string): { schema?: string; name: string } {
  const dot = table.indexOf('.');
  return dot > 0 && dot === table.lastIndexOf('.')
    ? { schema: table.slice(0, dot), name: table.slice(dot + 1) }
    : { name: table };
}

/**
 * A PostgreSQL table. Each call opens its own connection and closes it after: previews are
 * sparse, and no session state (or idle connection to the user's server) outlives a question.
 */
export async function postgresSqlEngine(o: { uri: string; table: string }): Promise<SqlEngine> {
  const engine = new PostgresEngine(o.uri, o.table);
  await engine.requireTable();
  return engine;
}

class PostgresEngine implements SqlEngine {
  readonly dialect = 'postgresql';
  private readonly open = new Set<pg.Client>();

  constructor(
    private readonly uri: string,
    private readonly table: string,
  ) {}

  async requireTable(): Promise<void> {
    if ((await this.describe()).length === 0) throw tableNotFound(this.table);
  }

  /** The table's columns; a bare name is the table unqualified SQL finds first on the search path. */
  describe(): Promise<TableSchema[]> {
    const { schema, name } = splitTableName(this.table);
    return this.session(DESCRIBE_TIMEOUT_MS, async (client) => {
      const result = await client.query<{ column_name: string; data_type: string }>(
        `SELECT column_name, data_type FROM information_schema.columns
         WHERE table_name = $1 AND table_schema = COALESCE($2::text, (
           SELECT path.schema FROM unnest(current_schemas(false)) WITH ORDINALITY AS path(schema, position)
           WHERE EXISTS (SELECT 1 FROM information_schema.tables AS t
                         WHERE t.table_schema = path.schema AND t.table_name = $1)
           ORDER BY path.position LIMIT 1))
         ORDER BY ordinal_position`,
        [name, schema ?? null],
      );
      return tableSchemas(
        this.table,
        result.rows.map((row) => [row.column_name, row.data_type]),
      );
    });
  }

  /**
   * Runs in a READ ONLY transaction with a statement timeout, rolled back after. The SQL becomes a
   * cursor's query — PostgreSQL itself then refuses anything but a plain query (a data-modifying
   * WITH included) — sent with the extended protocol, which refuses a second statement; FETCH
   * then reads at most maxRows.
   */
  query(sql: string, o: QueryOptions): Promise<QueryResult> {
    return this.session(o.timeoutMs, async (client) => {
      await client.query('BEGIN READ ONLY');
      try {
        await client.query(`SET LOCAL statement_timeout = ${wholeMs(o.timeoutMs)}`);
        const declare: pg.QueryConfig & { queryMode: 'extended' } = {
          text: `DECLARE agentloom_rows NO SCROLL CURSOR FOR ${sql}`,
          queryMode: 'extended',
        };
        await client.query(declare);
        const result = await client.query({
          text: `FETCH FORWARD ${o.maxRows ?? 'ALL'} FROM agentloom_rows`,
          rowMode: 'array',
        });
        // pg gives int8 (COUNT(*), sums of integers) as text, because it may not fit a double.
        const int8 = result.fields.map((field) => field.dataTypeID === INT8_TYPE_ID);
        return {
          columns: result.fields.map((field) => field.name),
          rows: (result.rows as unknown[][]).map((row) =>
            row.map((value, index) =>
              cellValue(int8[index] && typeof value === 'string' ? BigInt(value) : value),
            ),
          ),
        };
      } catch (error) {
        // 57014: statement_timeout; the other is pg's own timeout, for a server gone silent.
        const timedOut =
          (error as { code?: string }).code === '57014' ||
          messageOf(error) === 'Query read timeout';
        if (timedOut) throw new SqlTimeoutError(o.timeoutMs);
        throw new Error(`The database refused the query: ${this.redact(error)}`);
      } finally {
        await client.query('ROLLBACK').catch(() => undefined);
      }
    });
  }

  memoryBytes(): number {
    return 0; // rows are held only while a query runs
  }

  async close(): Promise<void> {
    await Promise.all([...this.open].map((client) => client.end().catch(() => undefined)));
  }

  private async session<T>(timeoutMs: number, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({
      connectionString: this.uri,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: timeoutMs + CLIENT_TIMEOUT_GRACE_MS,
      application_name: 'agentloom-preview',
    });
    // pg emits 'error' when the server drops the connection; unheard, it would crash the process.
    // The query under way rejects as well, and that is where it is reported.
    client.on('error', () => undefined);
    this.open.add(client);
    try {
      try {
        await client.connect();
      } catch (error) {
        throw new Error(`Could not connect to the database: ${this.redact(error)}`);
      }
      return await work(client);
    } finally {
      this.open.delete(client);
      await client.end().catch(() => undefined);
    }
  }

  private redact(error: unknown): string {
    return redactPassword(this.uri, messageOf(error));
  }
}

const INT8_TYPE_ID: number = pg.types.builtins.INT8;

/**
 * A MySQL or MariaDB table; like PostgreSQL, one connection per call. Each query runs in a
 * read-only session and transaction with the server's statement time limit (MariaDB's
 * max_statement_time, MySQL's max_execution_time) and mysql2's own timeout behind it; mysql2
 * sends one statement per call (multipleStatements off). Read-only does not cover
 * SELECT … INTO OUTFILE, which writes a file on the server: the guard refuses INTO, and the
 * FILE privilege is the server's own wall.
 */
export async function mysqlSqlEngine(o: { uri: string; table: string }): Promise<SqlEngine> {
  const engine = new MysqlEngine(o.uri, o.table);
  await engine.requireTable();
  return engine;
}

class MysqlEngine implements SqlEngine {
  readonly dialect = 'mysql';
  private readonly open = new Set<mysql.Connection>();
  private mariaDb = false;

  constructor(
    private readonly uri: string,
    private readonly table: string,
  ) {}

  async requireTable(): Promise<void> {
    this.mariaDb = await this.session(async (connection) => {
      const [rows] = await connection.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
      return String(rows[0]?.version).includes('MariaDB');
    });
    if ((await this.describe()).length === 0) throw tableNotFound(this.table);
  }

  describe(): Promise<TableSchema[]> {
    const { schema, name } = splitTableName(this.table);
    return this.session(async (connection) => {
      const [rows] = await connection.query<mysql.RowDataPacket[]>(
        `SELECT COLUMN_NAME AS name, COLUMN_TYPE AS type FROM information_schema.COLUMNS
         WHERE TABLE_SCHEMA = COALESCE(?, DATABASE()) AND TABLE_NAME = ?
         ORDER BY ORDINAL_POSITION`,
        [schema ?? null, name],
      );
      return tableSchemas(
        this.table,
        rows.map((row) => [String(row.name), String(row.type)]),
      );
    });
  }

  query(sql: string, o: QueryOptions): Promise<QueryResult> {
    return this.session(async (connection) => {
      await connection.query(
        this.mariaDb
          ? `SET SESSION max_statement_time = ${wholeMs(o.timeoutMs) / 1000}`
          : `SET SESSION max_execution_time = ${wholeMs(o.timeoutMs)}`,
      );
      // A SELECT without its own LIMIT returns at most this many rows.
      if (o.maxRows !== undefined) {
        await connection.query(`SET SESSION sql_select_limit = ${Math.floor(o.maxRows)}`);
      }
      // DDL commits the open transaction implicitly and runs outside it, so a READ ONLY
      // transaction alone would not stop DROP TABLE; a read-only session default does.
      await connection.query('SET SESSION TRANSACTION READ ONLY');
      await connection.query('START TRANSACTION READ ONLY');
      try {
        const [rows, fields] = await connection.query<mysql.RowDataPacket[][]>({
          sql,
          rowsAsArray: true,
          timeout: o.timeoutMs + CLIENT_TIMEOUT_GRACE_MS,
        });
        // A statement that returns no rows (DO 1, SET …) answers a status object, not a list.
        if (!Array.isArray(rows)) return { columns: [], rows: [] };
        return {
          columns: (fields ?? []).map((field) => field.name),
          rows: rows.slice(0, o.maxRows).map((row) => (row as unknown[]).map(cellValue)),
        };
      } catch (error) {
        if (isMysqlTimeout(error)) throw new SqlTimeoutError(o.timeoutMs);
        throw new Error(`The database refused the query: ${this.redact(error)}`);
      } finally {
        await connection.query('ROLLBACK').catch(() => undefined);
      }
    });
  }

  memoryBytes(): number {
    return 0; // rows are held only while a query runs
  }

  close(): Promise<void> {
    for (const connection of this.open) connection.destroy();
    this.open.clear();
    return Promise.resolve();
  }

  private async session<T>(work: (connection: mysql.Connection) => Promise<T>): Promise<T> {
    let connection: mysql.Connection;
    try {
      connection = await mysql.createConnection({
        uri: this.uri,
        connectTimeout: CONNECT_TIMEOUT_MS,
        multipleStatements: false,
        dateStrings: true,
        supportBigNumbers: true,
      });
    } catch (error) {
      throw new Error(`Could not connect to the database: ${this.redact(error)}`);
    }
    // Like pg, mysql2 reports a dropped connection as an 'error' event besides the failed query.
    connection.on('error', () => undefined);
    this.open.add(connection);
    try {
      return await work(connection);
    } finally {
      this.open.delete(connection);
      connection.destroy();
    }
  }

  private redact(error: unknown): string {
    return redactPassword(this.uri, messageOf(error));
  }
}

/** MariaDB's and MySQL's "statement time exceeded", and mysql2's own timeout. */
function isMysqlTimeout(error: unknown): boolean {
  const { errno, code } = error as { errno?: number; code?: string };
  return errno === 1969 || errno === 3024 || code === 'PROTOCOL_SEQUENCE_TIMEOUT';
}
