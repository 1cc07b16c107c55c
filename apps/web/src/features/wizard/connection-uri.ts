import { databaseSpec, type TDatabaseSourceType } from '@agentloom/contracts';

/**
 * A database connection as people know it — host, port, user, password — instead of a URI they
 * would have to write and URL-encode by hand. The wizard composes the URI the gateway takes.
 */
export type ConnectionFields = {
  host: string;
  port: string;
  user: string;
  password: string;
  /** The database (SQLite: the file's path). */
  database: string;
};

/** The port field's default: the database's own port, empty for a file database. */
export const defaultPort = (type: TDatabaseSourceType): string =>
  String(databaseSpec(type).defaultPort ?? '');

export const emptyConnection = (type: TDatabaseSourceType): ConnectionFields => ({
  host: type === 'sqlite' ? '' : 'localhost',
  port: defaultPort(type),
  user: '',
  password: '',
  database: '',
});

/**
 * The URI of the fields, every part percent-encoded: a password such as `p#@:/%` reaches the
 * database as typed. MongoDB's path is its authentication database, so the database is left out
 * of its URI (the form sends it on its own, as every source does).
 */
export function composeUri(type: TDatabaseSourceType, fields: ConnectionFields): string {
  const scheme = databaseSpec(type).scheme;
  if (type === 'sqlite') return `${scheme}:///${fields.database.trim()}`;
  const user = fields.user.trim();
  const login = user
    ? `${encodeURIComponent(user)}${fields.password ? `:${encodeURIComponent(fields.password)}` : ''}@`
    : '';
  const host = fields.host.trim();
  // An IPv6 address goes in brackets, or its colons would read as the port.
  const hostPart = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const port = fields.port.trim();
  const path = type === 'mongo' ? '' : `/${encodeURIComponent(fields.database.trim())}`;
  return `${scheme}://${login}${hostPart}${port ? `:${port}` : ''}${path}`;
}

/**
 * The fields of a URI (a saved one, its password shown as `****`), or null when it cannot be
 * shown as fields (several hosts, options the fields have no place for): the URI form then.
 */
export function splitUri(
  type: TDatabaseSourceType,
  uri: string,
  database: string,
): ConnectionFields | null {
  const text = uri.trim();
  if (type === 'sqlite') {
    const prefix = 'sqlite:///';
    if (!text.toLowerCase().startsWith(prefix)) return null;
    return { ...emptyConnection(type), database: text.slice(prefix.length) };
  }
  const match =
    /^([a-z+]+):\/\/(?:([^:@/]*)(?::([^@/]*))?@)?(\[[^\]]+\]|[^:/?#,]+)(?::(\d+))?(?:\/([^?#]*))?$/i.exec(
      text,
    );
  if (!match || match[1]!.toLowerCase() !== databaseSpec(type).scheme) return null;
  const [, , user = '', password = '', host = '', port = defaultPort(type), path = ''] = match;
  try {
    return {
      host: host.replace(/^\[|\]$/g, ''),
      port,
      user: decodeURIComponent(user),
      password: decodeURIComponent(password),
      database: database || decodeURIComponent(path),
    };
  } catch {
    return null; // a malformed %-sequence: the URI form shows it as it is
  }
}
