/**
 * The driver adapter Prisma Migrate uses (prisma.config.ts, `engine: "js"`).
 *
 * Prisma 6.19's schema engine ships as WASM and reaches Postgres through a JS driver adapter,
 * which is what lets `migrate deploy` run with no engine download. `@prisma/adapter-pg@6.19.3`
 * has four defects on that path (see shared/notes/toolchain-offline.md); each is handled here:
 *  1. catalog columns of type "char" (OID 18) and name (OID 19) are unmappable → reported as text;
 *  2. a connectionString overrides the shadow database name → we pass discrete fields;
 *  3. the shadow database is dropped while its pool is still connected → pool ends first;
 *  4. executeScript splits on `;` (breaks `$$` bodies, literals) → the script is sent whole.
 * The application itself uses the stock PrismaPg adapter (packages/db).
 */
import { PrismaPg } from '@prisma/adapter-pg';
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import { randomUUID } from 'node:crypto';
import pg from 'pg';

const PG_CHAR_OID = 18;
const PG_NAME_OID = 19;
const PG_TEXT_OID = 25;

type QueryResultLike = { fields?: Array<{ dataTypeID: number }> };

function reportCatalogTypesAsText<T>(result: T): T {
  const fields = (result as QueryResultLike | undefined)?.fields;
  if (fields) {
    for (const field of fields) {
      if (field.dataTypeID === PG_CHAR_OID || field.dataTypeID === PG_NAME_OID) {
        field.dataTypeID = PG_TEXT_OID;
      }
    }
  }
  return result;
}

/** pg client whose results never carry the two catalog types adapter-pg cannot map. */
class CatalogTextClient extends pg.Client {
  // pg's query() has many overloads (promise or callback); whichever was used, the result is
  // post-processed the same way.
  // @ts-expect-error -- one variadic signature stands in for pg's overload set
  override query(...args: unknown[]): unknown {
    const query = super.query.bind(this) as (...queryArgs: unknown[]) => unknown;
    const last = args.at(-1);
    if (typeof last === 'function') {
      const callback = last as (error: Error | null, result: unknown) => void;
      return query(...args.slice(0, -1), (error: Error | null, result: unknown) =>
        callback(error, error ? result : reportCatalogTypesAsText(result)),
      );
    }
    const result = query(...args);
    return result instanceof Promise ? result.then(reportCatalogTypesAsText) : result;
  }
}

function poolConfigFromUrl(databaseUrl: string, database?: string): pg.PoolConfig {
  const url = new URL(databaseUrl);
  return {
    host: decodeURIComponent(url.hostname),
    port: url.port ? Number(url.port) : 5432,
    user: decodeURIComponent(url.username) || undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: database ?? decodeURIComponent(url.pathname.replace(/^\//, '')),
    max: 2,
    // The override keeps pg.Client's runtime contract; only its declared overloads differ.
    Client: CatalogTextClient as unknown as typeof pg.Client,
  };
}

/** Sends a script as one simple-protocol query, which Postgres runs statement by statement. */
function sendScriptsWhole(adapter: SqlDriverAdapter, pool: pg.Pool): SqlDriverAdapter {
  adapter.executeScript = async (script: string) => {
    await pool.query(script);
  };
  return adapter;
}

export class MigrationAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';

  constructor(private readonly databaseUrl: string) {}

  async connect(): Promise<SqlDriverAdapter> {
    const pool = new pg.Pool(poolConfigFromUrl(this.databaseUrl));
    const adapter = await new PrismaPg(pool, { disposeExternalPool: true }).connect();
    return sendScriptsWhole(adapter, pool);
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const name = `prisma_migrate_shadow_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client(poolConfigFromUrl(this.databaseUrl));
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const pool = new pg.Pool(poolConfigFromUrl(this.databaseUrl, name));
    const adapter = await new PrismaPg(pool, { disposeExternalPool: true }).connect();
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose(); // ends the shadow pool before the database goes away
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
      } finally {
        await admin.end();
      }
    };
    return sendScriptsWhole(adapter, pool);
  }
}
