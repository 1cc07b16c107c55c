import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';

export { Prisma, PrismaClient } from '@prisma/client';
export type {
  AgentAccessKey,
  AgentType,
  ApiKey,
  Build,
  Conversation,
  ConversationChannel,
  ConversationMessage,
  LlmProvider,
  PasswordResetToken,
  Pipeline,
  PipelineStatus,
  Publication,
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
 * The Prisma client runs without a native query engine (`engineType = "client"`): queries go
 * through node-postgres via the official driver adapter, so nothing is downloaded at install.
 */
export function createPrismaClient({
  databaseUrl,
  poolSize = 10,
  poolTimeoutMs = 5_000,
  statementTimeoutMs = 30_000,
}: PrismaClientOptions): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: poolTimeoutMs,
    statement_timeout: statementTimeoutMs,
    query_timeout: statementTimeoutMs + CLIENT_TIMEOUT_MARGIN_MS,
    // A connection whose peer vanished without a FIN is noticed by TCP keepalive, not never.
    keepAlive: true,
  });
  return new PrismaClient({ adapter });
}

/** Prisma's error code for a unique-constraint violation. */
export const UNIQUE_VIOLATION = 'P2002';
