import type { TDatabaseColumn } from '@agentloom/contracts';
import { Logger } from '@nestjs/common';
import { DatabaseUriParts, ParsedDatabaseUri, redactSecret } from './database-uri';
import {
  InvalidDataSourceError,
  RefusedDataSourceError,
  UnreachableDataSourceError,
} from './errors';
import { CheckedTarget } from './network-guard';

export interface DatabaseProbeReport {
  columns: TDatabaseColumn[] | null;
  approximateRows: number | null;
  /** When the login can do more than read (write, read server files, superuser): what and how to fix it. */
  privilegeWarning?: string | null;
}

/**
 * The agent only reads, and its SQL guard and read-only transaction are the walls in front of the
 * database: a login that can do more makes any gap in them worse. Says what the login can do and
 * how to make a read-only one.
 */
export function privilegeWarning(powers: string[], howToFix: string): string | null {
  if (powers.length === 0) return null;
  return `This login can ${powers.join(', ')}. The agent only reads: connect it with a read-only login instead, for example ${howToFix}`;
}

export interface ProbeTarget {
  database: string;
  /** Table, `schema.table` for Postgres, or collection for MongoDB. */
  table: string;
}

export interface ProbeOptions {
  /** Connecting, signing in, and each statement: a dead or silent server fails within this. */
  timeoutMs: number;
  /** What checkDataSourceTarget returned: the probe connects to these addresses only. */
  addresses: CheckedTarget[];
  /** The whole session (a table read from start to end); timeoutMs when not given. */
  sessionMs?: number;
}

/** Rows of a table as a read hands them on, a batch at a time. */
export interface RowBatch {
  /** The columns in order (the same for every batch of one read). */
  columns: string[];
  /** The columns that identify a row (its primary key), when the table has one. */
  keyColumns: string[];
  rows: Record<string, unknown>[];
}

/** The server one probe talks to, for messages. */
export interface ProbedServer {
  label: 'PostgreSQL' | 'MySQL' | 'MongoDB';
  endpoint: CheckedTarget;
  credentials: Pick<DatabaseUriParts, 'password' | 'rawPassword'>;
}

/** What the driver-specific work reports back while it runs. */
export interface ProbeStep {
  deadline: Deadline;
  /** Set once the server accepted the connection and the sign-in, to word failures accordingly. */
  connected: boolean;
}

const logger = new Logger('DataSources');

/** The most tables a listing returns: a choice list longer than this helps no one (the name can still be typed). */
export const MAX_LISTED_TABLES = 1000;

/** How long a polite goodbye may take after a successful probe before the socket is cut. */
const CLOSE_GRACE_MS = 500;
const MAX_REASON_LENGTH = 300;

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused (is the server running, and is the port right?).',
  ECONNRESET: 'the server closed the connection.',
  EPIPE: 'the server closed the connection.',
  EHOSTUNREACH: 'the host is unreachable.',
  ENETUNREACH: 'the network is unreachable.',
};

/** The probe's whole time budget: drivers get their own timeouts too, but this one also covers a server that accepts TCP and then says nothing. */
export class Deadline {
  private readonly endsAt: number;

  constructor(readonly timeoutMs: number) {
    this.endsAt = Date.now() + timeoutMs;
  }

  /** At least 1 ms, because drivers read 0 as "no timeout". */
  remainingMs(): number {
    return Math.max(1, this.endsAt - Date.now());
  }

  async race<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlineExpired()), this.remainingMs());
    });
    try {
      return await Promise.race([work, expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

class DeadlineExpired extends Error {}

/**
 * What the probe needs of one database engine: a session on one checked address, and the two
 * questions the wizard asks of it. probe-database.ts does the rest the same way for every engine.
 */
export interface DatabaseDriver<Session> {
  /**
   * Opens a session on `database` at the checked address, runs `work` under the probe's deadline
   * and error wording (runProbe), and closes the session whatever happened.
   */
  open<T>(
    parsed: ParsedDatabaseUri,
    database: string,
    options: ProbeOptions,
    endpoint: CheckedTarget,
    work: (session: Session, deadline: Deadline) => Promise<T>,
  ): Promise<T>;
  /** Refuses a table name the engine cannot take, before anything connects. */
  checkTableName?(target: ProbeTarget): void;
  /** The table's (or collection's) columns and approximate row count; tableNotFound if absent. */
  inspect(session: Session, target: ProbeTarget, deadline: Deadline): Promise<DatabaseProbeReport>;
  /** The tables the login can see, named as `inspect` takes them, at most MAX_LISTED_TABLES. */
  listTables(session: Session, database: string, deadline: Deadline): Promise<string[]>;
  /**
   * Every row of the table, streamed (a server-side cursor, never the whole table in memory),
   * read-only: each batch waits for `each` before the next is fetched.
   */
  readRows(
    session: Session,
    target: ProbeTarget,
    each: (batch: RowBatch) => Promise<void>,
  ): Promise<void>;
}

/**
 * Runs one probe under the deadline, turns every failure into a user-facing error without the
 * password, and always releases the connection (told whether the probe succeeded, so a failed one
 * is cut at once instead of waiting on a server that may never answer).
 */
export async function runProbe<T>(
  server: ProbedServer,
  options: Pick<ProbeOptions, 'timeoutMs' | 'sessionMs'>,
  work: (step: ProbeStep) => Promise<T>,
  release: (succeeded: boolean) => Promise<void>,
): Promise<T> {
  const step: ProbeStep = {
    deadline: new Deadline(options.sessionMs ?? options.timeoutMs),
    connected: false,
  };
  let succeeded = false;
  try {
    const result = await step.deadline.race(work(step));
    succeeded = true;
    return result;
  } catch (error) {
    throw describeFailure(error, server, step);
  } finally {
    await release(succeeded);
  }
}

/**
 * The drivers' own timeouts, a little shorter than the deadline: when a driver gives up first, its
 * specific reason (connection refused, authentication failed) reaches the user instead of a bare
 * "timed out".
 */
export function driverTimeoutMs(timeoutMs: number): number {
  return Math.max(1, Math.floor(timeoutMs * 0.9));
}

/** Waits for a polite close, but never longer than the grace period. */
export async function closeWithin(close: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, CLOSE_GRACE_MS);
  });
  await Promise.race([close().catch(() => undefined), grace]);
  clearTimeout(timer);
}

/** `host:port`, with brackets around an IPv6 host. */
export function formatEndpoint({ host, port }: { host: string; port: number }): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** `schema.table` → both parts; a bare name lives in the default schema. */
export function splitQualifiedName(
  name: string,
  defaultSchema: string,
): { schema: string; table: string } {
  const dot = name.indexOf('.');
  const schema = dot === -1 ? defaultSchema : name.slice(0, dot);
  const table = name.slice(dot + 1);
  if (!schema || !table) {
    throw new InvalidDataSourceError('Write the table as table or schema.table.');
  }
  return { schema, table };
}

export function tableNotFound(target: ProbeTarget, kind = 'table'): UnreachableDataSourceError {
  return new UnreachableDataSourceError(
    `The ${kind} "${target.table}" was not found in database "${target.database}".`,
  );
}

function describeFailure(error: unknown, server: ProbedServer, step: ProbeStep): Error {
  const scrub = (text: string): string =>
    redactSecret(redactSecret(text, server.credentials.password), server.credentials.rawPassword);
  if (
    error instanceof InvalidDataSourceError ||
    error instanceof RefusedDataSourceError ||
    error instanceof UnreachableDataSourceError
  ) {
    error.message = scrub(error.message);
    return error;
  }
  const where = `the ${server.label} server at ${formatEndpoint(server.endpoint)}`;
  // Scrubbed before the full stop is added, in case the password is what ends the sentence.
  const reason = asSentence(scrub(reasonOf(error, step.deadline)));
  if (!step.connected) {
    // Refused, reset, closed, timed out or a wrong password read alike: distinct answers would map
    // which ports of a host listen and what runs there. The reason goes to the server log only.
    logger.warn(`Could not connect to ${where}: ${reason}`);
    return new UnreachableDataSourceError(
      `Could not connect to ${where}. Check the host, port, user name and password, and that the server accepts connections from this server.`,
    );
  }
  return new UnreachableDataSourceError(`${capitalize(where)} could not be inspected: ${reason}`);
}

function reasonOf(error: unknown, deadline: Deadline): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = networkCode(error, message);
  if (error instanceof DeadlineExpired || code === 'ETIMEDOUT' || /timed? ?out/i.test(message)) {
    return `timed out after ${formatSeconds(deadline.timeoutMs)} s.`;
  }
  return (code && NETWORK_REASONS[code]) ?? message;
}

/** Drivers put the socket error code on the error, on its cause, or only in the message (MongoDB). */
function networkCode(error: unknown, message: string): string | undefined {
  const codes = [error, error instanceof Error ? error.cause : undefined].map((value) =>
    typeof value === 'object' && value !== null && 'code' in value ? value.code : undefined,
  );
  const fromMessage = /\b(E[A-Z]{4,})\b/.exec(message)?.[1];
  return [...codes, fromMessage].find(
    (code): code is string =>
      typeof code === 'string' && (code === 'ETIMEDOUT' || Object.hasOwn(NETWORK_REASONS, code)),
  );
}

function asSentence(message: string): string {
  const text = message.replace(/\s+/g, ' ').trim().slice(0, MAX_REASON_LENGTH) || 'unknown error';
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}
