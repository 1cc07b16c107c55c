import type { TDatabaseSource, TDatabaseSourceType } from '@agentloom/contracts';
import {
  BadRequestException,
  Inject,
  Injectable,
  UnprocessableEntityException,
} from '@nestjs/common';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { sqliteFileSqlEngine } from '@agentloom/agent-runtime';
import { withDeadline } from '../common/deadline';
import { APP_CONFIG, AppConfig } from '../config/env';
import {
  checkDataSourceTarget,
  InvalidDataSourceError,
  listDatabaseTables,
  MAX_LISTED_TABLES,
  parseDatabaseUri,
  probeDatabase,
  splitDatabaseUri,
  redactSecret,
  RefusedDataSourceError,
  UnreachableDataSourceError,
  type CheckedTarget,
  type ParsedDatabaseUri,
} from './databases';

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
 * Checks a database the user wants as a data source: the URI's form, the network target
 * (no SSRF into the platform or cloud metadata), then the table itself, within a short timeout.
 * Failures become 400 (bad form) or 422 (refused or unreachable); none repeats the password.
 */
@Injectable()
export class DataSourcesService {
  private readonly platformEndpoints: { host: string; port: number }[];

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.platformEndpoints = [
      endpointOf(config.DATABASE_URL, 5432),
      endpointOf(config.REDIS_URL, 6379),
    ];
  }

  /**
   * A connection URI for a live preview's queries, checked by the same rules as the wizard and
   * pinned to the address the check approved (a DNS answer that changes afterwards cannot
   * redirect it), naming the chosen database. Only Postgres and MySQL sources are queried live.
   */
  async connectionUri(type: 'postgres' | 'mysql', uri: string, database: string): Promise<string> {
    let password: string | null = null;
    try {
      const parsed = parseDatabaseUri(type, uri);
      password = parsed.password;
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
    } catch (error) {
      throw this.asHttpError(error, password);
    }
  }

  /**
   * The file a SQLite source names, for a live preview. That file lives where the agent runs, so
   * the gateway opens one only inside SQLITE_PREVIEW_DIR, a folder an operator who keeps the
   * databases beside Agentloom chose to share. Relative paths are taken from that folder; a path
   * or symlink that leads out of it is refused, so a URI can never make the gateway read any
   * other file.
   */
  async sqliteFile(uri: string): Promise<string> {
    const folder = this.config.SQLITE_PREVIEW_DIR;
    if (!folder) {
      throw new UnprocessableEntityException(
        'SQLite agents cannot be previewed on this server: the database file lives where the agent runs. Download the agent to try it.',
      );
    }
    let named: string;
    try {
      named = parseDatabaseUri('sqlite', uri).sqlitePath ?? '';
    } catch (error) {
      throw this.asHttpError(error, null);
    }
    const outside = new UnprocessableEntityException(
      `The SQLite file ${named} is outside the folder this server shares for previews. Download the agent to try it.`,
    );
    const root = await realpath(folder).catch(() => {
      throw new UnprocessableEntityException(
        'The folder this server shares for SQLite previews is missing; ask its operator.',
      );
    });
    // First by name, so nothing is learned about files elsewhere; then the real path, so a
    // symlink inside the folder cannot lead out of it.
    const resolved = path.resolve(root, named);
    if (!isInside(root, resolved)) throw outside;
    const file = await realpath(resolved).catch(() => null);
    if (!file || !(await stat(file)).isFile()) {
      throw new UnprocessableEntityException(
        `The SQLite file ${named} was not found in the folder this server shares for previews.`,
      );
    }
    if (!isInside(root, file)) throw outside;
    return file;
  }

  async check(
    type: TDatabaseSourceType,
    uri: string,
    database: string,
    table: string,
  ): Promise<CheckedDatabaseSource> {
    let password: string | null = null;
    try {
      const parsed = parseDatabaseUri(type, uri);
      password = parsed.password;
      const addresses = await this.allowedTargets(parsed);
      const report = await probeDatabase(
        parsed,
        { database, table },
        { timeoutMs: this.config.DATA_SOURCE_TIMEOUT_MS, addresses },
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
    } catch (error) {
      throw this.asHttpError(error, password);
    }
  }

  /**
   * The tables a database offers, for the wizard's choice list: the URI passes the same form and
   * network checks as `check`, and the listing runs under the same timeout.
   */
  async listTables(type: TDatabaseSourceType, uri: string, database: string): Promise<string[]> {
    let password: string | null = null;
    try {
      const parsed = parseDatabaseUri(type, uri);
      password = parsed.password;
      if (parsed.type === 'sqlite' && this.config.SQLITE_PREVIEW_DIR) {
        return await this.sqliteTables(uri);
      }
      const addresses = await this.allowedTargets(parsed);
      return await listDatabaseTables(parsed, database, {
        timeoutMs: this.config.DATA_SOURCE_TIMEOUT_MS,
        addresses,
      });
    } catch (error) {
      throw this.asHttpError(error, password);
    }
  }

  /** Only a file inside the folder shared for previews is opened (see sqliteFile), read-only. */
  private async sqliteTables(uri: string): Promise<string[]> {
    const file = await this.sqliteFile(uri);
    const engine = await sqliteFileSqlEngine({ path: file }).catch((error: unknown) => {
      throw new UnprocessableEntityException(
        error instanceof Error ? error.message : 'The SQLite file could not be opened.',
      );
    });
    try {
      const tables = await engine.describe();
      return tables.map((table) => table.name).slice(0, MAX_LISTED_TABLES);
    } finally {
      await engine.close();
    }
  }

  /**
   * The addresses the URI's hosts resolve to, each checked against the SSRF rules. DNS has no
   * deadline of its own; a host that never resolves must not hold the request.
   */
  private allowedTargets(parsed: ParsedDatabaseUri): Promise<CheckedTarget[]> {
    const timeoutMs = this.config.DATA_SOURCE_TIMEOUT_MS;
    return withDeadline(
      checkDataSourceTarget(parsed, {
        strict: this.config.DATA_SOURCE_STRICT,
        allowedHosts: this.config.DATA_SOURCE_ALLOWED_HOSTS,
        platformEndpoints: this.platformEndpoints,
      }),
      timeoutMs,
      () =>
        new UnreachableDataSourceError(
          `Looking up the database host took longer than ${timeoutMs / 1000} s.`,
        ),
    );
  }

  /** 400 for a malformed URI, 422 for a refused or unreachable one; never with the password. */
  private asHttpError(error: unknown, password: string | null): unknown {
    if (error instanceof InvalidDataSourceError) {
      return new BadRequestException(redactSecret(error.message, password));
    }
    if (error instanceof RefusedDataSourceError || error instanceof UnreachableDataSourceError) {
      return new UnprocessableEntityException(redactSecret(error.message, password));
    }
    return error;
  }
}
