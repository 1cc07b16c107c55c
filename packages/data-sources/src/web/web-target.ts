import { isIP } from 'node:net';
import type { DataSourceSettings } from '../data-source-access';
import {
  checkDataSourceTarget,
  InvalidDataSourceError,
  UnreachableDataSourceError,
  type CheckedTarget,
  type ParsedDatabaseUri,
} from '../databases';

/** What checking and reading a web source needs: the database sources' settings, and more. */
export interface WebSourceSettings extends Omit<DataSourceSettings, 'sqliteDir'> {
  /**
   * The platform's own HTTP services (the gateway's and the web server's addresses, the public
   * URL): a web source may never point at them, whatever strict mode says.
   */
  platformHttpUrls?: string[];
  /** Injected for tests; defaults to the system resolver (all addresses of a name). */
  lookup?: (host: string) => Promise<string[]>;
}

/** A web address that passed the form checks and the network guard. */
export interface CheckedWebSource {
  /** The address, normalised: no fragment, lower-case host, default port dropped. */
  url: string;
  /** The addresses its host resolved to, each allowed; a connection goes to the first. */
  targets: CheckedTarget[];
}

const FORM_HINT = 'Enter a full web address, like https://example.com/docs.';

/**
 * An address as the crawler reads it: http or https only, no user name or password, no
 * fragment. Throws InvalidDataSourceError (→ 400) with a sentence for the person who typed it.
 */
export function parseWebUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new InvalidDataSourceError(`That is not a web address. ${FORM_HINT}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidDataSourceError(
      `Only http:// and https:// addresses can be read, not ${url.protocol}//. ${FORM_HINT}`,
    );
  }
  if (url.username || url.password) {
    throw new InvalidDataSourceError('A web address may not contain a user name or password.');
  }
  url.hash = '';
  return url;
}

/** The host as the guard and the connector see it: IPv6 literals without their brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

export function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/**
 * Checks a web source before anything connects to it: its form (above), then every address its
 * host resolves to, by the database sources' network guard: the platform's own services (its
 * Postgres, Redis and HTTP endpoints) and cloud metadata addresses are always refused, and in
 * strict mode every loopback and private range unless DATA_SOURCE_ALLOWED_HOSTS names it.
 * Throws InvalidDataSourceError, RefusedDataSourceError or UnreachableDataSourceError.
 */
export async function checkWebSource(
  text: string,
  settings: WebSourceSettings,
): Promise<CheckedWebSource> {
  const url = parseWebUrl(text);
  return { url: url.href, targets: await checkWebHost(url, settings) };
}

/**
 * The guard's decision for one URL's host and port, within the settings' lookup time. The guard
 * reads a parsed database URI; a web address is given to it as one, its only host the URL's.
 */
export async function checkWebHost(
  url: URL,
  settings: WebSourceSettings,
): Promise<CheckedTarget[]> {
  const asTarget: ParsedDatabaseUri = {
    type: 'postgres', // read by the guard only to tell MongoDB's SRV form apart
    uri: url.href,
    redactedUri: url.href,
    password: null,
    hosts: [{ host: hostOf(url), port: portOf(url) }],
    sqlitePath: null,
  };
  const check = checkDataSourceTarget(asTarget, {
    strict: settings.strict,
    allowedHosts: settings.allowedHosts,
    platformEndpoints: platformEndpoints(settings),
    lookup: settings.lookup,
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new UnreachableDataSourceError(
            `Looking up ${hostOf(url)} took longer than ${settings.timeoutMs / 1000} s.`,
          ),
        ),
      settings.timeoutMs,
    );
  });
  try {
    return await Promise.race([check, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function platformEndpoints(settings: WebSourceSettings): { host: string; port: number }[] {
  const endpoint = (text: string, defaultPort: number) => {
    const url = new URL(text);
    return { host: hostOf(url), port: Number(url.port || defaultPort) };
  };
  return [
    endpoint(settings.platformUrls.database, 5432),
    endpoint(settings.platformUrls.redis, 6379),
    ...(settings.platformHttpUrls ?? []).map((text) =>
      endpoint(text, text.startsWith('https:') ? 443 : 80),
    ),
  ];
}

/** Whether a host is written as an address (no name to resolve or to send as TLS server name). */
export const isAddress = (host: string): boolean => isIP(host) !== 0;
