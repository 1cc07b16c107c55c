import { Prisma } from '@agentloom/db';

/** Prisma's codes for "the database cannot be reached or gave up on us" (not a bad query). */
const UNAVAILABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);

/** Postgres's own: statement timeout, admin shutdown/termination, crash, too many connections. */
const UNAVAILABLE_SQLSTATES = new Set(['57014', '57P01', '57P02', '57P03', '53300']);

/**
 * node-postgres's own failures reach us as plain errors (the driver adapter passes them on):
 * no pooled connection in time, a connection that broke, or no answer within `query_timeout`.
 */
const DRIVER_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  'Query read timeout',
  'Client has encountered a connection error',
  'connect ECONNREFUSED',
];

/**
 * True when a database call failed because Postgres is away, stalled or overloaded — a 503 the
 * user can retry — rather than because of the request or a bug.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (UNAVAILABLE_CODES.has(error.code)) return true;
    const cause = (error.meta?.driverAdapterError as { cause?: { kind?: string; code?: string } })
      ?.cause;
    if (cause?.code && UNAVAILABLE_SQLSTATES.has(cause.code)) return true;
    return [
      'DatabaseNotReachable',
      'ConnectionClosed',
      'SocketTimeout',
      'TooManyConnections',
    ].includes(cause?.kind ?? '');
  }
  if (!(error instanceof Error)) return false;
  return DRIVER_MESSAGES.some((message) => error.message.includes(message));
}
