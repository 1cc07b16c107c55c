import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';
import { Pool } from 'pg';

export { Prisma, PrismaClient } from '@prisma/client';
export type {
  AgentAccessKey,
  AgentType,
  ApiKey,
  Build,
  BuildTrigger,
  Conversation,
  ConversationChannel,
  ConversationMessage,
  CuratedAnswer,
  IndexSegment,
  KnowledgeSource,
  KnowledgeSourceKind,
  KnowledgeSourceStatus,
  LlmProvider,
  PasswordResetToken,
  Pipeline,
  PipelineStatus,
  Publication,
  RefreshSchedule,
  User,
} from '@prisma/client';

export interface PrismaClientOptions {
  databaseUrl: string;
  /** Connections in this process's pool. */
  poolSize?: number;
  /** How long a query waits for a free pooled connection (or a new one) before failing. */
  poolTimeoutMs?: number;
  /**
   * Longest a statement may run. Postgres cancels it after this long (`statement_timeout`), and
   * the client gives up a little later on its own (`query_timeout`): a stalled network delivers
   * no cancellation, and the connection that waited is then discarded rather than reused.
   */
  statementTimeoutMs?: number;
}

/** Room for Postgres's own cancellation to arrive before the client stops waiting itself. */
const CLIENT_TIMEOUT_MARGIN_MS = 1_000;

/**
 * SQL sent straight to the pool, for the few statements on a published agent's answer path: a
 * statement written in SQL is cheaper here than through Prisma's query compiler, which costs
 * more CPU than the query itself (npm run bench:hosted). Each statement is prepared once per
 * connection under its name. Everything else goes through Prisma.
 */
export interface DirectSql {
  query<Row>(statement: { name: string; text: string }, values: unknown[]): Promise<Row[]>;
}

/** The Prisma client and direct SQL over one connection pool. */
export interface Database {
  prisma: PrismaClient;
  sql: DirectSql;
  /** Disconnects Prisma, which ends the pool. */
  close(): Promise<void>;
}

/**
 * The Prisma client runs without a native query engine (`engineType = "client"`): queries go
 * through node-postgres via the official driver adapter, so nothing is downloaded at install.
 * Direct SQL shares the adapter's pool, so both count against one pool size.
 */
export function createDatabase({
  databaseUrl,
  poolSize = 10,
  poolTimeoutMs = 5_000,
  statementTimeoutMs = 30_000,
}: PrismaClientOptions): Database {
  const pool = new Pool({
    connectionString: databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: poolTimeoutMs,
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
    // A connection whose peer vanished without a FIN is noticed by TCP keepalive, not never.
    keepAlive: true,
  });
  // An idle connection that dies (Postgres restarted) must not crash the process, even before
  // Prisma's first query attaches the adapter's own listener; the next query opens a new one.
  pool.on('error', () => undefined);
  // The adapter takes the pool as its own and ends it when Prisma disconnects.
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool, { disposeExternalPool: true }),
  });
  return {
    prisma,
    sql: {
      async query<Row>(statement: { name: string; text: string }, values: unknown[]) {
        const result = await pool.query({ ...statement, values });
        return result.rows as Row[];
      },
    },
    close: () => prisma.$disconnect(),
  };
}

/** Only the Prisma client, for processes that need no direct SQL (the builder worker). */
export function createPrismaClient(options: PrismaClientOptions): PrismaClient {
  return createDatabase(options).prisma;
}

/** Prisma's error code for a unique-constraint violation. */
export const UNIQUE_VIOLATION = 'P2002';

export * from './curated';
export * from './knowledge';
