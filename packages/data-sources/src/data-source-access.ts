import type { TDatabaseSource, TDatabaseSourceType } from '@agentloom/contracts';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  checkDataSourceTarget,
  listDatabaseTables,
  parseDatabaseUri,
  probeDatabase,
  readSqliteRows,
  readTableRows,
  redactSecret,
  splitDatabaseUri,
  UnreachableDataSourceError,
  UnusableDataSourceError,
  type CheckedTarget,
  type ParsedDatabaseUri,
  type RowBatch,
} from './databases';

/** The settings every process that reaches a user's database shares (gateway and worker). */
export interface DataSourceSettings {
  /** The platform's own Postgres and Redis URLs: a source may never point at them. */
  platformUrls: { database: string; redis: string };
  /** DATA_SOURCE_STRICT: refuse loopback and private ranges (hosted deployments). */
  strict: boolean;
  /** DATA_SOURCE_ALLOWED_HOSTS: names, addresses or CIDR ranges strict mode lets through. */
  allowedHosts: string[];
  /** DATA_SOURCE_TIMEOUT_MS: the budget of one lookup, probe or listing (and of each step of a read). */
  timeoutMs: number;
  /** The longest a whole table read may take (a million rows and more); 30 minutes by default. */
  readSessionMs?: number;
  /** SQLITE_PREVIEW_DIR: the one folder whose SQLite files this server may open. */
  sqliteDir?: string;
}

export interface CheckedDatabaseSource {
  /** The URI as given: the caller stores it encrypted and never shows it. */
  uri: string;
  /** What the wizard answers and the configuration keeps. */
  source: TDatabaseSource;
}

const isInside = (folder: string, file: string) => file.startsWith(folder + path.sep);

/** An endpoint of Agentloom's own services, which a data source may never point at. */
function endpointOf(url: string, defaultPort: number) {
  const parsed = new URL(url);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || defaultPort),
  };
}

/**
 * The one door to a user's database, for every process that opens one: the URI's form, the
 * network target (no SSRF into the platform or cloud metadata), then the table itself, each
 * within the configured time. It throws the package's own errors (InvalidDataSourceError for a
 * malformed URI, RefusedDataSourceError, UnreachableDataSourceError, UnusableDataSourceError);
 * callers word them for their audience, and no message ever repeats the password.
 */
export class DataSourceAccess {
  private readonly platformEndpoints: { host: string; port: number }[];

  constructor(private readonly settings: DataSourceSettings) {
    this.platformEndpoints = [
      endpointOf(settings.platformUrls.database, 5432),
      endpointOf(settings.platformUrls.redis, 6379),
    ];
  }

  /**
   * A connection URI checked by the same rules as the wizard and pinned to the address the check
   * approved (a DNS answer that changes afterwards cannot redirect it), naming the chosen
   * database. Postgres and MySQL sources are opened this way.
   */
  connectionUri(type: 'postgres' | 'mysql', uri: string, database: string): Promise<string> {
    return scrubbed(type, uri, async () => {
      const parsed = parseDatabaseUri(type, uri);
      const [target] = await this.allowedTargets(parsed);
      if (!target) throw new UnreachableDataSourceError('The database host has no address.');
      const parts = splitDatabaseUri(parsed);
      const pinned = new URL(`${type === 'postgres' ? 'postgresql' : 'mysql'}://placeholder`);
      pinned.hostname = target.address.includes(':') ? `[${target.address}]` : target.address;
      pinned.port = String(target.port);
      pinned.username = encodeURIComponent(parts.username ?? '');
      pinned.password = encodeURIComponent(parts.password ?? '');
      pinned.pathname = `/${encodeURIComponent(database)}`;
      return pinned.toString();
    });
  }

  /**
   * The file a SQLite source names. That file lives where the agent runs, so this server opens
   * one only inside SQLITE_PREVIEW_DIR, a folder an operator who keeps the databases beside
   * Agentloom chose to share. Relative paths are taken from that folder; a path or symlink that
   * leads out of it is refused, so a URI can never make the server read any other file.
   */
  async sqliteFile(uri: string): Promise<string> {
    const folder = this.settings.sqliteDir;
    if (!folder) {
      throw new UnusableDataSourceError(
        'SQLite agents cannot be previewed on this server: the database file lives where the agent runs. Download the agent to try it.',
      );
    }
    const named = parseDatabaseUri('sqlite', uri).sqlitePath ?? '';
    const outside = new UnusableDataSourceError(
      `The SQLite file ${named} is outside the folder this server shares for previews. Download the agent to try it.`,
    );
    const root = await realpath(folder).catch(() => {
      throw new UnusableDataSourceError(
        'The folder this server shares for SQLite previews is missing; ask its operator.',
      );
    });
    // First by name, so nothing is learned about files elsewhere; then the real path, so a
    // symlink inside the folder cannot lead out of it.
    const resolved = path.resolve(root, named);
    if (!isInside(root, resolved)) throw outside;
    const file = await realpath(resolved).catch(() => null);
    if (!file || !(await stat(file)).isFile()) {
      throw new UnusableDataSourceError(
        `The SQLite file ${named} was not found in the folder this server shares for previews.`,
      );
    }
    if (!isInside(root, file)) throw outside;
    return file;
  }

  /** Checks a database and table the user wants as a data source, and says what it holds. */
  check(
    type: TDatabaseSourceType,
    uri: string,
    database: string,
    table: string,
  ): Promise<CheckedDatabaseSource> {
    return scrubbed(type, uri, () => this.checked(type, uri, database, table));
  }

  private async checked(
    type: TDatabaseSourceType,
    uri: string,
    database: string,
    table: string,
  ): Promise<CheckedDatabaseSource> {
    const parsed = parseDatabaseUri(type, uri);
    const addresses = await this.allowedTargets(parsed);
    const report = await probeDatabase(
      parsed,
      { database, table },
      { timeoutMs: this.settings.timeoutMs, addresses },
    );
    return {
      uri: parsed.uri,
      source: {
        type,
        uri: parsed.redactedUri,
        database,
        table,
        columns: report.columns,
        approximate_rows: report.approximateRows,
        privilege_warning: report.privilegeWarning ?? null,
        checked_at: new Date().toISOString(),
      },
    };
  }

  /**
   * The tables a database offers, for the wizard's choice list: the URI passes the same form and
   * network checks as `check`, and the listing runs under the same timeout. (SQLite files are
   * listed by whoever can open them: see `sqliteFile`.)
   */
  listTables(type: TDatabaseSourceType, uri: string, database: string): Promise<string[]> {
    return scrubbed(type, uri, async () => {
      const parsed = parseDatabaseUri(type, uri);
      const addresses = await this.allowedTargets(parsed);
      return listDatabaseTables(parsed, database, {
        timeoutMs: this.settings.timeoutMs,
        addresses,
      });
    });
  }

  /**
   * Every row of a table (or document of a collection), streamed a batch at a time to `each`,
   * read-only, through the same checks as `check`: the builder reads a table source this way.
   */
  readTable(
    source: { type: TDatabaseSourceType; uri: string; database: string; table: string },
    each: (batch: RowBatch) => Promise<void>,
  ): Promise<void> {
    return scrubbed(source.type, source.uri, async () => {
      if (source.type === 'sqlite') {
        return readSqliteRows(await this.sqliteFile(source.uri), source.table, each);
      }
      const parsed = parseDatabaseUri(source.type, source.uri);
      const addresses = await this.allowedTargets(parsed);
      return readTableRows(
        parsed,
        { database: source.database, table: source.table },
        {
          timeoutMs: this.settings.timeoutMs,
          sessionMs: this.settings.readSessionMs ?? 30 * 60_000,
          addresses,
        },
        each,
      );
    });
  }

  /**
   * The addresses the URI's hosts resolve to, each checked against the SSRF rules. DNS has no
   * deadline of its own; a host that never resolves must not hold the caller.
   */
  allowedTargets(parsed: ParsedDatabaseUri): Promise<CheckedTarget[]> {
    const timeoutMs = this.settings.timeoutMs;
    return withDeadline(
      checkDataSourceTarget(parsed, {
        strict: this.settings.strict,
        allowedHosts: this.settings.allowedHosts,
        platformEndpoints: this.platformEndpoints,
      }),
      timeoutMs,
      () =>
        new UnreachableDataSourceError(
          `Looking up the database host took longer than ${timeoutMs / 1000} s.`,
        ),
    );
  }
}

/**
 * Runs `work` on a URI and takes the URI's password out of any error's message, whichever step
 * failed (drivers and DNS put what they were given into their messages).
 */
async function scrubbed<T>(
  type: TDatabaseSourceType,
  uri: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Error) {
      let password: string | null = null;
      try {
        password = parseDatabaseUri(type, uri).password;
      } catch {
        // A URI that does not parse failed before anything could quote its password.
      }
      error.message = redactSecret(error.message, password);
    }
    throw error;
  }
}

async function withDeadline<T>(work: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
