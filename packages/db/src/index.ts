import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@prisma/client';

export { Prisma, PrismaClient } from '@prisma/client';
export type {
  AgentType,
  ApiKey,
  Build,
  LlmProvider,
  PasswordResetToken,
  Pipeline,
  PipelineStatus,
  User,
} from '@prisma/client';

export interface PrismaClientOptions {
  databaseUrl: string;
  /** Connections in this process's pool. */
  poolSize?: number;
}

/**
 * The Prisma client runs without a native query engine (`engineType = "client"`): queries go
 * through node-postgres via the official driver adapter, so nothing is downloaded at install.
 */
export function createPrismaClient({
  databaseUrl,
  poolSize = 10,
}: PrismaClientOptions): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: 5_000,
  });
  return new PrismaClient({ adapter });
}

/** Prisma's error code for a unique-constraint violation. */
export const UNIQUE_VIOLATION = 'P2002';
