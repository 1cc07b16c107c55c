import type { TDatabaseColumn } from '@agentloom/contracts';
import { AuthMechanism, Db, Document, MongoClient, MongoClientOptions } from 'mongodb';
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { DatabaseUriParts, isMongoSrv, ParsedDatabaseUri, splitDatabaseUri } from './database-uri';
import { InvalidDataSourceError } from './errors';
import { CheckedTarget } from './network-guard';
import {
  closeWithin,
  DatabaseProbeReport,
  Deadline,
  driverTimeoutMs,
  formatEndpoint,
  MAX_LISTED_TABLES,
  ProbeOptions,
  ProbeTarget,
  RowBatch,
  runProbe,
  tableNotFound,
  DatabaseDriver,
} from './probe-support';

const SAMPLE_SIZE = 20;

// Other mechanisms sign in with the gateway's own identity (AWS, Kerberos, OIDC from the cloud
// metadata service) or its files (X.509): never on behalf of a user's URI.
const PASSWORD_MECHANISMS = new Set<AuthMechanism>(['DEFAULT', 'SCRAM-SHA-1', 'SCRAM-SHA-256']);

const BSON_TYPE_NAMES: Record<string, string> = {
  ObjectId: 'objectId',
  Decimal128: 'decimal',
  Long: 'long',
  Int32: 'int',
  Double: 'double',
  Binary: 'binData',
  Timestamp: 'timestamp',
  BSONRegExp: 'regex',
  Code: 'javascript',
  MinKey: 'minKey',
  MaxKey: 'maxKey',
};

/** Documents handed on at a time (and fetched per round trip). */
const BATCH_ROWS = 1000;

export const mongoDriver: DatabaseDriver<Db> = {
  open: withMongo,
  inspect,
  listTables,
  readRows,
};

/**
 * Every document of the collection through a cursor, BATCH_ROWS per round trip: never the whole
 * collection in memory. Columns are the fields seen so far, in order of appearance; `_id` keys a
 * document.
 */
async function readRows(
  db: Db,
  target: ProbeTarget,
  each: (batch: RowBatch) => Promise<void>,
): Promise<void> {
  const [info] = await db.listCollections({ name: target.table }, { nameOnly: true }).toArray();
  if (!info) throw tableNotFound(target, 'collection');
  const columns: string[] = [];
  const seen = new Set<string>();
  let rows: Record<string, unknown>[] = [];
  const cursor = db.collection(target.table).find({}, { batchSize: BATCH_ROWS });
  try {
    for await (const document of cursor) {
      for (const field of Object.keys(document)) {
        if (!seen.has(field)) {
          seen.add(field);
          columns.push(field);
        }
      }
      rows.push(document);
      if (rows.length === BATCH_ROWS) {
        await each({ columns: [...columns], keyColumns: ['_id'], rows });
        rows = [];
      }
    }
    if (rows.length > 0) await each({ columns: [...columns], keyColumns: ['_id'], rows });
  } finally {
    await cursor.close().catch(() => undefined);
  }
}

/** The collections and views of the database, without MongoDB's own system collections. */
async function listTables(db: Db): Promise<string[]> {
  const found = await db
    .listCollections({}, { nameOnly: true, authorizedCollections: true })
    .toArray();
  return found
    .map((info) => info.name)
    .filter((name) => !name.startsWith('system.'))
    .sort()
    .slice(0, MAX_LISTED_TABLES);
}

/**
 * One client under the probe's deadline and error wording, for `work` to use. It connects to one
 * checked address with directConnection: the driver then never follows the replica-set member
 * list a server advertises, which could name unchecked (private) hosts. Reads from a secondary
 * are allowed on a direct connection, so any member can answer the probe.
 */
async function withMongo<T>(
  parsed: ParsedDatabaseUri,
  database: string,
  options: ProbeOptions,
  endpoint: CheckedTarget,
  work: (db: Db, deadline: Deadline) => Promise<T>,
): Promise<T> {
  const parts = splitDatabaseUri(parsed);
  const mechanism = authMechanism(parts.params);
  const srv = isMongoSrv(parsed);
  let client: MongoClient | null = null;
  return runProbe(
    { label: 'MongoDB', endpoint, credentials: parts },
    options,
    async (step) => {
      const srvOptions = srv ? await srvTxtOptions(parts.hosts[0]?.host ?? '') : null;
      client = new MongoClient(
        `mongodb://${formatEndpoint({ host: endpoint.address, port: endpoint.port })}/`,
        {
          ...authOptions(parts, mechanism, srvOptions),
          ...tlsOptions(parts.params, srv, endpoint.host),
          directConnection: true,
          serverSelectionTimeoutMS: driverTimeoutMs(options.timeoutMs),
          connectTimeoutMS: driverTimeoutMs(options.timeoutMs),
          socketTimeoutMS: driverTimeoutMs(options.timeoutMs),
          maxPoolSize: 1,
          retryReads: false,
          appName: 'agentloom-probe',
        },
      );
      await client.connect();
      step.connected = true;
      return work(client.db(database), step.deadline);
    },
    async (succeeded) => {
      const opened: MongoClient | null = client;
      if (succeeded && opened) {
        await closeWithin(() => opened.close());
      } else if (opened) {
        // Not awaited: a server that never answered must not hold the response any longer.
        void opened.close().catch(() => undefined);
      }
    },
  );
}

async function inspect(
  db: Db,
  target: ProbeTarget,
  deadline: Deadline,
): Promise<DatabaseProbeReport> {
  const [info] = await db.listCollections({ name: target.table }, { nameOnly: true }).toArray();
  if (!info) {
    throw tableNotFound(target, 'collection');
  }
  const collection = db.collection(target.table);
  // A view has no count of its own, and counting it would run its whole pipeline.
  const approximateRows =
    info.type === 'view'
      ? null
      : await collection.estimatedDocumentCount({ maxTimeMS: deadline.remainingMs() });
  const sample = await collection
    .aggregate([{ $sample: { size: SAMPLE_SIZE } }], { maxTimeMS: deadline.remainingMs() })
    .toArray();
  return { columns: describeDocuments(sample), approximateRows };
}

/** Every key seen in the sample, in first-seen order, with the types it held (`string|null`). */
function describeDocuments(documents: Document[]): TDatabaseColumn[] {
  const types = new Map<string, Set<string>>();
  for (const document of documents) {
    for (const [key, value] of Object.entries(document)) {
      const seen = types.get(key) ?? new Set<string>();
      types.set(key, seen.add(bsonTypeName(value)));
    }
  }
  return [...types].map(([name, names]) => ({ name, type: [...names].join('|') }));
}

function bsonTypeName(value: unknown): string {
  if (value === null || value === undefined) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return 'array';
  }
  if (value instanceof Date) {
    return 'date';
  }
  if (value instanceof RegExp) {
    return 'regex';
  }
  if (typeof value === 'object' && '_bsontype' in value && typeof value._bsontype === 'string') {
    return BSON_TYPE_NAMES[value._bsontype] ?? value._bsontype;
  }
  if (typeof value === 'number') {
    return Number.isInteger(value) ? 'int' : 'double';
  }
  if (typeof value === 'boolean') {
    return 'bool';
  }
  return typeof value === 'bigint' ? 'long' : typeof value;
}

/** URI options are case-insensitive in MongoDB. */
function option(params: URLSearchParams, name: string): string | null {
  const wanted = name.toLowerCase();
  for (const [key, value] of params) {
    if (key.toLowerCase() === wanted) {
      return value;
    }
  }
  return null;
}

function authMechanism(params: URLSearchParams): AuthMechanism | undefined {
  const requested = option(params, 'authMechanism')?.toUpperCase();
  if (requested === undefined) {
    return undefined;
  }
  const known = [...PASSWORD_MECHANISMS].find((mechanism) => mechanism === requested);
  if (!known) {
    throw new InvalidDataSourceError(
      'Agentloom can only check MongoDB sources that sign in with a user name and password (SCRAM); remove authMechanism from the URI or use a password user.',
    );
  }
  return known;
}

/**
 * Credentials as options rather than in a rebuilt URI. Only an allow-list of the user's URI options
 * is honoured: others could point the driver at a proxy, at local files or at other hosts.
 */
function authOptions(
  parts: DatabaseUriParts,
  mechanism: AuthMechanism | undefined,
  srvOptions: URLSearchParams | null,
): Pick<MongoClientOptions, 'auth' | 'authSource' | 'authMechanism'> {
  if (!parts.username) {
    return {};
  }
  const authSource =
    option(parts.params, 'authSource') ??
    (srvOptions && option(srvOptions, 'authSource')) ??
    parts.database ??
    'admin';
  return {
    auth: { username: parts.username, password: parts.password ?? undefined },
    authSource,
    ...(mechanism ? { authMechanism: mechanism } : {}),
  };
}

/** mongodb+srv implies TLS; the host name is the SNI and the certificate's expected name. */
function tlsOptions(
  params: URLSearchParams,
  srv: boolean,
  host: string,
): Pick<
  MongoClientOptions,
  'tls' | 'tlsAllowInvalidCertificates' | 'tlsAllowInvalidHostnames' | 'servername'
> {
  const flag = option(params, 'tls') ?? option(params, 'ssl');
  const tls = flag === null ? srv : flag === 'true';
  if (!tls) {
    return { tls: false };
  }
  const insecure = option(params, 'tlsInsecure') === 'true';
  return {
    tls: true,
    tlsAllowInvalidCertificates:
      insecure || option(params, 'tlsAllowInvalidCertificates') === 'true',
    tlsAllowInvalidHostnames: insecure || option(params, 'tlsAllowInvalidHostnames') === 'true',
    ...(isIP(host) ? {} : { servername: host }),
  };
}

/** The TXT record of a mongodb+srv host may carry authSource (MongoDB Atlas sets it to admin). */
async function srvTxtOptions(host: string): Promise<URLSearchParams> {
  const records = await dns.resolveTxt(host).catch(() => []);
  return new URLSearchParams(records.map((chunks) => chunks.join('')).join('&'));
}
