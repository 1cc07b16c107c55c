import { sqliteFileSqlEngine } from '@agentloom/agent-runtime';
import type { TDatabaseSourceType } from '@agentloom/contracts';
import {
  checkWebSource,
  DataSourceAccess,
  InvalidDataSourceError,
  MAX_LISTED_TABLES,
  parseDatabaseUri,
  RefusedDataSourceError,
  UnreachableDataSourceError,
  UnusableDataSourceError,
  type CheckedDatabaseSource,
} from '@agentloom/data-sources';
import {
  BadRequestException,
  Inject,
  Injectable,
  UnprocessableEntityException,
} from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/env';

export type { CheckedDatabaseSource } from '@agentloom/data-sources';

/**
 * The gateway's door to users' databases: @agentloom/data-sources' checks (the URI's form, the
 * network guard against SSRF into the platform or cloud metadata, the table itself, each within a
 * short timeout), with its failures as HTTP errors: 400 for a malformed URI, 422 for a refused,
 * unreachable or unusable one. None repeats the password.
 */
@Injectable()
export class DataSourcesService {
  private readonly access: DataSourceAccess;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.access = new DataSourceAccess({
      platformUrls: { database: config.DATABASE_URL, redis: config.REDIS_URL },
      strict: config.DATA_SOURCE_STRICT,
      allowedHosts: config.DATA_SOURCE_ALLOWED_HOSTS,
      timeoutMs: config.DATA_SOURCE_TIMEOUT_MS,
      sqliteDir: config.SQLITE_PREVIEW_DIR,
    });
  }

  /** A connection URI for a live preview's queries, pinned to the address the guard approved. */
  connectionUri(type: 'postgres' | 'mysql', uri: string, database: string): Promise<string> {
    return asHttp(this.access.connectionUri(type, uri, database));
  }

  /** The SQLite file a source names, only inside the folder shared for previews. */
  sqliteFile(uri: string): Promise<string> {
    return asHttp(this.access.sqliteFile(uri));
  }

  check(
    type: TDatabaseSourceType,
    uri: string,
    database: string,
    table: string,
  ): Promise<CheckedDatabaseSource> {
    return asHttp(this.access.check(type, uri, database, table));
  }

  /**
   * A web source's address, checked before anything connects to it: its form, then the network
   * guard's decision on every address its host resolves to (the platform's own services always
   * refused, private ranges in strict mode).
   */
  checkWeb(url: string): Promise<{ url: string }> {
    return asHttp(
      checkWebSource(url, {
        platformUrls: { database: this.config.DATABASE_URL, redis: this.config.REDIS_URL },
        platformHttpUrls: [this.config.PUBLIC_URL, `http://127.0.0.1:${this.config.PORT}`],
        strict: this.config.DATA_SOURCE_STRICT,
        allowedHosts: this.config.DATA_SOURCE_ALLOWED_HOSTS,
        timeoutMs: this.config.DATA_SOURCE_TIMEOUT_MS,
      }),
    );
  }

  /** The tables a database offers, for the wizard's choice list. */
  async listTables(type: TDatabaseSourceType, uri: string, database: string): Promise<string[]> {
    if (type === 'sqlite' && this.config.SQLITE_PREVIEW_DIR) {
      await asHttp(Promise.resolve().then(() => parseDatabaseUri('sqlite', uri)));
      return this.sqliteTables(uri);
    }
    return asHttp(this.access.listTables(type, uri, database));
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
}

/** 400 for a malformed URI, 422 for a refused, unreachable or unusable one. */
async function asHttp<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof InvalidDataSourceError) throw new BadRequestException(error.message);
    if (
      error instanceof RefusedDataSourceError ||
      error instanceof UnreachableDataSourceError ||
      error instanceof UnusableDataSourceError
    ) {
      throw new UnprocessableEntityException(error.message);
    }
    throw error;
  }
}
