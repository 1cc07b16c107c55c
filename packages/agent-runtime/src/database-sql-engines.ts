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
import type { SqlDialect } from './sql-dialect';
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
 * What both server engines share: they hold no connection between questions. Each call opens its
 * own (`connect`) and closes it after (`disconnect`) — previews are sparse, and no session state
 * (or idle connection to the user's server) outlives a question — and `close()` cuts the ones a
 * call still holds. Errors quote the server, never the password in the URI.
 */
abstract class ConnectionPerCallEngine<Connection> implements SqlEngine {
  abstract readonly dialect: SqlDialect;
  private readonly open = new Set<Connection>();

  constructor(
    protected readonly uri: string,
    protected readonly table: string,
  ) {}

  abstract describe(): Promise<TableSchema[]>;
  abstract query(sql: string, o: QueryOptions): Promise<QueryResult>;
  protected abstract connect(timeoutMs: number): Promise<Connection>;
  protected abstract disconnect(connection: Connection): Promise<void>;

  /** Refuses a table the login cannot see, so a preview fails at start and not at a question. */
  async requireTable(): Promise<void> {
    if ((await this.describe()).length === 0) throw tableNotFound(this.table);
  }

  memoryBytes(): number {
    return 0; // rows are held only while a query runs
  }

  async close(): Promise<void> {
    const open = [...this.open];
    this.open.clear();
    await Promise.all(open.map((connection) => this.disconnect(connection)));
  }

  protected async session<T>(
    timeoutMs: number,
    work: (connection: Connection) => Promise<T>,
  ): Promise<T> {
    let connection: Connection;
    try {
      connection = await this.connect(timeoutMs);
    } catch (error) {
      throw new Error(`Could not connect to the database: ${this.redact(error)}`);
    }
    this.open.add(connection);
    try {
      return await work(connection);
    } finally {
      this.open.delete(connection);
      await this.disconnect(connection);
    }
  }

  protected redact(error: unknown): string {
    return redactPassword(this.uri, messageOf(error));
  }
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

class PostgresEngine extends ConnectionPerCallEngine<pg.Client> {
  readonly dialect = 'postgresql';

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

  protected async connect(timeoutMs: number): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.uri,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: timeoutMs + CLIENT_TIMEOUT_GRACE_MS,
      application_name: 'agentloom-preview',
    });
    // pg emits 'error' when the server drops the connection; unheard, it would crash the process.
    // The query under way rejects as well, and that is where it is reported.
    client.on('error', () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  protected disconnect(client: pg.Client): Promise<void> {
    return client.end().catch(() => undefined);
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

class MysqlEngine extends ConnectionPerCallEngine<mysql.Connection> {
  readonly dialect = 'mysql';
  private mariaDb = false;

  override async requireTable(): Promise<void> {
    this.mariaDb = await this.session(DESCRIBE_TIMEOUT_MS, async (connection) => {
      const [rows] = await connection.query<mysql.RowDataPacket[]>('SELECT VERSION() AS version');
      return String(rows[0]?.version).includes('MariaDB');
    });
    await super.requireTable();
  }

  describe(): Promise<TableSchema[]> {
    const { schema, name } = splitTableName(this.table);
    return this.session(DESCRIBE_TIMEOUT_MS, async (connection) => {
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
    return this.session(o.timeoutMs, async (connection) => {
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

  protected async connect(): Promise<mysql.Connection> {
    const connection = await mysql.createConnection({
      uri: this.uri,
      connectTimeout: CONNECT_TIMEOUT_MS,
      multipleStatements: false,
      dateStrings: true,
      supportBigNumbers: true,
    });
    // Like pg, mysql2 reports a dropped connection as an 'error' event besides the failed query.
    connection.on('error', () => undefined);
    return connection;
  }

  /** destroy(), not end(): a query that is still running must not hold the close up. */
  protected disconnect(connection: mysql.Connection): Promise<void> {
    connection.destroy();
    return Promise.resolve();
  }
}

/** MariaDB's and MySQL's "statement time exceeded", and mysql2's own timeout. */
function isMysqlTimeout(error: unknown): boolean {
  const { errno, code } = error as { errno?: number; code?: string };
  return errno === 1969 || errno === 3024 || code === 'PROTOCOL_SEQUENCE_TIMEOUT';
}
