import {
  DATABASE_SOURCE_CATALOG,
  databaseSpec,
  type TDatabaseSourceType,
} from '@agentloom/contracts';
import { isIP } from 'node:net';
import { InvalidDataSourceError } from './errors';

export interface ParsedDatabaseUri {
  type: TDatabaseSourceType;
  /** The URI exactly as given (trimmed) — the caller encrypts and stores it. */
  uri: string;
  /** Same URI with the password replaced by `****` (no password → unchanged). */
  redactedUri: string;
  /** Decoded. */
  password: string | null;
  /** Default ports: pg 5432, mysql 3306, mongo 27017; sqlite → []. */
  hosts: { host: string; port: number }[];
  sqlitePath: string | null;
}

/** Everything a network URI says, for the probe; the URI must already have passed parseDatabaseUri. */
export interface DatabaseUriParts {
  /** Lowercased, without `://`: `postgresql`, `mongodb+srv`… */
  scheme: string;
  username: string | null;
  password: string | null;
  /** The password as written (possibly percent-encoded), so driver messages can be scrubbed of it too. */
  rawPassword: string | null;
  /** Port null when the URI gives none. */
  hosts: { host: string; port: number | null }[];
  /** The decoded path without its slash; null when the URI names no database. */
  database: string | null;
  params: URLSearchParams;
  /** Where the raw password sits in the URI. */
  passwordSpan: { start: number; end: number } | null;
}

type NetworkSourceType = Exclude<TDatabaseSourceType, 'sqlite'>;

// The databases' labels, schemes, ports and examples: the contracts' database catalogue.
const LABELS = (type: TDatabaseSourceType) => databaseSpec(type).label;
const EXAMPLES = (type: TDatabaseSourceType) => databaseSpec(type).uriExample;

const SQLITE_PREFIX_LENGTH = 'sqlite:///'.length;

// Letters, digits, `-` and `_` (Docker service names) per label; an optional trailing dot.
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

const ENCODING_HINT =
  'The user name or password contains a character that must be URL-encoded: write @ as %40, : as %3A, / as %2F, ? as %3F, # as %23 and % as %25.';

export function parseDatabaseUri(type: TDatabaseSourceType, uri: string): ParsedDatabaseUri {
  const trimmed = uri.trim();
  if (!trimmed) {
    throw new InvalidDataSourceError(`Enter the connection URI of the ${LABELS(type)} database.`);
  }
  if (!databaseSpec(type).schemePattern.test(trimmed)) {
    const form = databaseSpec(type).schemeForm;
    throw new InvalidDataSourceError(
      `A ${LABELS(type)} connection URI starts with ${form} (for example ${EXAMPLES(type)}).`,
    );
  }
  // Spaces and control characters have no business in a URI, and a CR/LF could smuggle text into logs.
  if (/[\s\p{Cc}]/u.test(trimmed)) {
    throw new InvalidDataSourceError(
      'The connection URI must not contain spaces or control characters; URL-encode them (a space is %20).',
    );
  }
  return type === 'sqlite' ? parseSqliteUri(trimmed) : parseNetworkUri(type, trimmed);
}

/** The full breakdown of a network URI already accepted by parseDatabaseUri. */
export function splitDatabaseUri(parsed: ParsedDatabaseUri): DatabaseUriParts {
  return splitNetworkUri(parsed.type, parsed.uri);
}

export function isMongoSrv(parsed: ParsedDatabaseUri): boolean {
  return /^mongodb\+srv:/i.test(parsed.uri);
}

/**
 * Replaces every occurrence of the secret in the text — raw, URL-encoded and fully percent-encoded,
 * with either hex case — by `****`. The last line of defence for driver messages.
 */
export function redactSecret(text: string, secret: string | null): string {
  if (!secret) {
    return text;
  }
  const encoded = encodeURIComponent(secret);
  const forms = new Set(
    [secret, encoded, encodeEveryPunctuation(encoded)].flatMap((form) => [
      form,
      form.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    ]),
  );
  // Longest first, so a short form never leaves the tail of a longer one behind.
  return [...forms]
    .sort((a, b) => b.length - a.length)
    .reduce((redacted, form) => maskEach(redacted, form), text);
}

/** Shorter secrets are masked only where they stand alone: a password "a" must not turn
 * "Access denied" into "Access ****enied". A 1–3 character password inside a word tells nothing. */
const SHORT_SECRET = 4;

function maskEach(text: string, form: string): string {
  if (form.length >= SHORT_SECRET) return text.split(form).join('****');
  const escaped = form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'gu'), '****');
}

function encodeEveryPunctuation(encoded: string): string {
  return encoded.replace(
    /[!'()*\-._~]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function parseSqliteUri(uri: string): ParsedDatabaseUri {
  const path = uri.slice(SQLITE_PREFIX_LENGTH).split(/[?#]/, 1)[0] ?? '';
  if (!path || path.endsWith('/')) {
    throw new InvalidDataSourceError(
      `A SQLite connection URI starts with sqlite:/// followed by the file path (for example ${EXAMPLES('sqlite')}).`,
    );
  }
  return { type: 'sqlite', uri, redactedUri: uri, password: null, hosts: [], sqlitePath: path };
}

function parseNetworkUri(type: NetworkSourceType, uri: string): ParsedDatabaseUri {
  const parts = splitNetworkUri(type, uri);
  checkHostCount(type, parts);
  const span = parts.passwordSpan;
  return {
    type,
    uri,
    redactedUri: span ? `${uri.slice(0, span.start)}****${uri.slice(span.end)}` : uri,
    password: parts.password,
    hosts: parts.hosts.map(({ host, port }) => ({
      host,
      port: port ?? DATABASE_SOURCE_CATALOG[type].defaultPort,
    })),
    sqlitePath: null,
  };
}

/**
 * RFC 3986 authority rules: the authority ends at the first `/`, `?` or `#`, and the user info
 * runs up to its last `@` — so an unencoded `@` in a password still parses. An `@` after the
 * authority means a `/`, `?` or `#` in the password cut it short: refuse rather than guess, and
 * never echo any of it.
 */
function splitNetworkUri(type: TDatabaseSourceType, uri: string): DatabaseUriParts {
  const authorityStart = uri.indexOf('://') + 3;
  const authorityEnd = indexOfAny(uri, '/?#', authorityStart);
  const rest = uri.slice(authorityEnd);
  if (rest.includes('@')) {
    throw new InvalidDataSourceError(ENCODING_HINT);
  }
  const authority = uri.slice(authorityStart, authorityEnd);
  const at = authority.lastIndexOf('@');
  const credentials = splitUserInfo(at === -1 ? null : authority.slice(0, at), authorityStart);
  return {
    scheme: uri.slice(0, authorityStart - 3).toLowerCase(),
    ...credentials,
    hosts: parseHostList(type, authority.slice(at + 1)),
    database: parseDatabasePath(rest),
    params: new URLSearchParams(rest.split('#', 1)[0]?.split('?')[1] ?? ''),
  };
}

function splitUserInfo(
  userInfo: string | null,
  offset: number,
): Pick<DatabaseUriParts, 'username' | 'password' | 'rawPassword' | 'passwordSpan'> {
  if (userInfo === null) {
    return { username: null, password: null, rawPassword: null, passwordSpan: null };
  }
  const colon = userInfo.indexOf(':');
  const rawUser = colon === -1 ? userInfo : userInfo.slice(0, colon);
  const rawPassword = colon === -1 ? '' : userInfo.slice(colon + 1);
  return {
    username: rawUser ? decodeCredential(rawUser) : null,
    password: rawPassword ? decodeCredential(rawPassword) : null,
    rawPassword: rawPassword || null,
    passwordSpan: rawPassword
      ? { start: offset + colon + 1, end: offset + colon + 1 + rawPassword.length }
      : null,
  };
}

function decodeCredential(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new InvalidDataSourceError(ENCODING_HINT);
  }
}

function parseHostList(type: TDatabaseSourceType, hostList: string): DatabaseUriParts['hosts'] {
  return hostList.split(',').map((entry) => {
    if (!entry || entry.startsWith(':')) {
      throw new InvalidDataSourceError(
        `The connection URI has no host name; write it after the @ (for example ${EXAMPLES(type)}).`,
      );
    }
    return parseHost(entry);
  });
}

function parseHost(entry: string): { host: string; port: number | null } {
  if (!entry.startsWith('[') && entry.indexOf(':') !== entry.lastIndexOf(':')) {
    throw new InvalidDataSourceError(
      'Write an IPv6 address in brackets, for example [2001:db8::1]:5432.',
    );
  }
  const match = /^(?:\[([^\]]*)\]|([^:[\]]+))(?::(.*))?$/.exec(entry);
  const ipv6 = match?.[1];
  const name = match?.[2];
  const valid = ipv6 !== undefined ? isIP(ipv6) === 6 : HOST_NAME.test(name ?? '');
  if (!match || !valid) {
    throw new InvalidDataSourceError(`The host "${entry}" is not a valid host name or address.`);
  }
  const port = match[3];
  return {
    host: (ipv6 ?? name ?? '').toLowerCase(),
    port: port === undefined ? null : parsePort(port),
  };
}

function parsePort(text: string): number {
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 1 && port <= 65535)) {
    throw new InvalidDataSourceError(`The port "${text}" is not a number between 1 and 65535.`);
  }
  return port;
}

function parseDatabasePath(rest: string): string | null {
  const path = rest.slice(0, indexOfAny(rest, '?#', 0));
  if (!path.startsWith('/') || path.length === 1) {
    return null;
  }
  try {
    return decodeURIComponent(path.slice(1));
  } catch {
    throw new InvalidDataSourceError(
      'The database name in the connection URI is not correctly URL-encoded.',
    );
  }
}

function checkHostCount(type: NetworkSourceType, parts: DatabaseUriParts): void {
  const [first, ...others] = parts.hosts;
  if (parts.scheme === 'mongodb+srv') {
    // The SRV record supplies the hosts and ports; the URI names only the record.
    if (others.length > 0 || first?.port !== null || isIP(first.host) !== 0) {
      throw new InvalidDataSourceError(
        `A mongodb+srv:// URI names exactly one DNS host name, without a port (for example ${EXAMPLES('mongo')}).`,
      );
    }
  } else if (type !== 'mongo' && others.length > 0) {
    throw new InvalidDataSourceError(
      `${LABELS(type)} connection URIs with several hosts are not supported; give one host.`,
    );
  }
}

function indexOfAny(text: string, characters: string, from: number): number {
  for (let index = from; index < text.length; index += 1) {
    if (characters.includes(text.charAt(index))) {
      return index;
    }
  }
  return text.length;
}
