import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { readableSize } from '@agentloom/contracts';
import {
  RefusedDataSourceError,
  UnreachableDataSourceError,
  type CheckedTarget,
} from '../databases';
import { checkWebHost, hostOf, parseWebUrl, portOf, type WebSourceSettings } from './web-target';

/*
 * Every request a web source makes, through one guarded HTTP client.
 *
 * A URL's host is checked by the network guard before anything connects to it, and the
 * connection then goes to the very address the guard approved: undici's connector is given that
 * address instead of the name (the name still travels as the Host header and the TLS server
 * name), so a DNS answer that changes between the check and the connection (DNS rebinding)
 * cannot redirect it. Redirects are followed here, one hop at a time, each new host checked the
 * same way. A body is decompressed and counted as it arrives, and reading stops as soon as it
 * passes the limit, so neither a huge page nor a compression bomb is ever held whole.
 */

/** Why one page could not be read: each becomes a plain sentence on that page, not a crash. */
export type WebPageErrorReason =
  | 'refused'
  | 'unreachable'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'too_many_redirects'
  | 'unreadable';

export class WebPageError extends Error {
  override readonly name = 'WebPageError';
  constructor(
    readonly reason: WebPageErrorReason,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
  }
}

export interface WebFetchLimits {
  /** The most bytes of one response's body, counted after decompression. */
  pageBytes: number;
  /** The most time one page may take, redirects, headers and body included. */
  pageTimeoutMs: number;
  /** Redirects followed for one page. */
  maxRedirects: number;
}

export interface WebResponse {
  /** The address requested. */
  url: string;
  /** Where it ended after redirects. */
  finalUrl: string;
  status: number;
  /** The media type in lower case without parameters ('' when the server named none). */
  contentType: string;
  /** The Content-Type's charset parameter, if any. */
  charset?: string;
  body: Buffer;
}

export const USER_AGENT = 'AgentloomBot/1.0';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** What is read of a redirect's or refused response's body before the connection is reused. */
const DRAIN_BYTES = 64 * 1024;

export class WebFetcher {
  private readonly approvals = new Map<string, Promise<CheckedTarget[]>>();
  private readonly pinned = new Map<string, string>();
  private readonly agent: Agent;

  constructor(
    private readonly settings: WebSourceSettings,
    private readonly limits: WebFetchLimits,
    connectionsPerOrigin: number,
  ) {
    const connect = buildConnector({ timeout: Math.min(limits.pageTimeoutMs, 10_000) });
    this.agent = new Agent({
      connections: connectionsPerOrigin,
      headersTimeout: limits.pageTimeoutMs,
      bodyTimeout: limits.pageTimeoutMs,
      connect: (options, callback) => {
        const port = Number(options.port || (options.protocol === 'https:' ? 443 : 80));
        const address = this.pinned.get(endpointKey(options.hostname, port));
        if (!address) {
          // Unreachable by construction: every request is approved first. Refuse rather than
          // let undici resolve the name itself.
          callback(new RefusedDataSourceError('This address was not checked.'), null);
          return;
        }
        connect({ ...options, hostname: address }, callback);
      },
    });
  }

  /**
   * GETs `url`, following redirects (each host checked first), and returns the final response
   * with its body, decompressed, within the limits. A response other than 2xx, a refused or
   * unreachable host, a timeout or an oversized body throws WebPageError; `signal` aborting
   * (the crawl stopping) rethrows its reason.
   */
  async get(url: string, accept: string, signal: AbortSignal, maxBytes = this.limits.pageBytes) {
    const timer = AbortSignal.timeout(this.limits.pageTimeoutMs);
    const abort = AbortSignal.any([signal, timer]);
    try {
      return await this.follow(url, accept, abort, maxBytes);
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (timer.aborted || isTimeout(error)) {
        throw new WebPageError(
          'timeout',
          `The page took longer than ${this.limits.pageTimeoutMs / 1000} s to load.`,
        );
      }
      throw toPageError(error);
    }
  }

  /** Ends the client's connections, and any request still in flight (a crawl that stopped). */
  async close(): Promise<void> {
    await this.agent.destroy();
  }

  private async follow(
    url: string,
    accept: string,
    signal: AbortSignal,
    maxBytes: number,
  ): Promise<WebResponse> {
    let current = parseWebUrl(url);
    for (let hop = 0; ; hop += 1) {
      await this.approve(current);
      const response = await this.agent.request({
        origin: current.origin,
        path: `${current.pathname}${current.search}`,
        method: 'GET',
        headers: {
          'user-agent': USER_AGENT,
          accept,
          'accept-encoding': 'gzip, deflate, br',
        },
        signal,
      });
      const location = header(response.headers, 'location');
      if (REDIRECTS.has(response.statusCode) && location !== undefined) {
        await response.body.dump({ limit: DRAIN_BYTES }).catch(() => undefined);
        if (hop >= this.limits.maxRedirects) {
          throw new WebPageError(
            'too_many_redirects',
            `The page redirected more than ${this.limits.maxRedirects} times.`,
          );
        }
        current = redirectTarget(location, current);
        continue;
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump({ limit: DRAIN_BYTES }).catch(() => undefined);
        throw new WebPageError(
          'http_status',
          `The page answered HTTP ${response.statusCode}.`,
          response.statusCode,
        );
      }
      const [type = '', ...parameters] = (header(response.headers, 'content-type') ?? '').split(
        ';',
      );
      const charset = parameters
        .map((parameter) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(parameter)?.[1])
        .find(Boolean);
      return {
        url,
        finalUrl: current.href,
        status: response.statusCode,
        contentType: type.trim().toLowerCase(),
        ...(charset ? { charset } : {}),
        body: await readBody(response, maxBytes),
      };
    }
  }

  /** Takes a decision already made (the start address's check) instead of resolving again. */
  approved(url: URL, targets: CheckedTarget[]): void {
    this.approvals.set(endpointKey(hostOf(url), portOf(url)), Promise.resolve(targets));
  }

  /** The guard's decision for the URL's host, once per host and port for this client's life. */
  private async approve(url: URL): Promise<void> {
    const key = endpointKey(hostOf(url), portOf(url));
    let approval = this.approvals.get(key);
    if (!approval) {
      approval = checkWebHost(url, this.settings);
      this.approvals.set(key, approval);
    }
    const [target] = await approval;
    if (!target) throw new UnreachableDataSourceError(`${hostOf(url)} has no address.`);
    this.pinned.set(key, target.address);
  }
}

const endpointKey = (host: string, port: number) => `${host.toLowerCase()}|${port}`;

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function redirectTarget(location: string, from: URL): URL {
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new WebPageError('unreadable', 'The page redirected to an address that is not valid.');
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new WebPageError(
      'refused',
      `The page redirected to a ${target.protocol}// address; only http:// and https:// are read.`,
    );
  }
  return parseWebUrl(target.href);
}

/** The body, decompressed as it arrives and no longer than `maxBytes` once decompressed. */
async function readBody(response: Dispatcher.ResponseData, maxBytes: number): Promise<Buffer> {
  const length = Number(header(response.headers, 'content-length'));
  const encoding = (header(response.headers, 'content-encoding') ?? '').trim().toLowerCase();
  if (!encoding && length > maxBytes) {
    response.body.destroy();
    throw tooLarge(maxBytes);
  }
  let decoder;
  try {
    decoder = decoderFor(encoding);
  } catch (error) {
    response.body.destroy();
    throw error;
  }
  const stream: Readable = decoder
    ? pipeline(response.body, decoder, () => undefined)
    : response.body;
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
  } finally {
    stream.destroy();
    response.body.destroy();
  }
  return Buffer.concat(chunks);
}

function decoderFor(encoding: string) {
  switch (encoding) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      throw new WebPageError(
        'unreadable',
        `The page is compressed as "${encoding}", which is not read.`,
      );
  }
}

function tooLarge(maxBytes: number): WebPageError {
  return new WebPageError(
    'too_large',
    `The page is larger than ${readableSize(maxBytes)}, the most read from one page.`,
  );
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : undefined;
}

function isTimeout(error: unknown): boolean {
  return TIMEOUT_CODES.has(codeOf(error) ?? '');
}

const CONNECTION_PROBLEMS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  EPIPE: 'the connection was closed',
  UND_ERR_SOCKET: 'the connection was closed',
  ERR_TLS_CERT_ALTNAME_INVALID: "the site's certificate is for another name",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the site's certificate is self-signed",
  CERT_HAS_EXPIRED: "the site's certificate has expired",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the site's certificate cannot be verified",
};

function toPageError(error: unknown): WebPageError {
  if (error instanceof WebPageError) return error;
  if (error instanceof RefusedDataSourceError) return new WebPageError('refused', error.message);
  if (error instanceof UnreachableDataSourceError) {
    return new WebPageError('unreachable', error.message);
  }
  const problem = CONNECTION_PROBLEMS[codeOf(error) ?? ''];
  if (problem) return new WebPageError('unreachable', `The page could not be reached: ${problem}.`);
  // zlib's and undici's other failures: what was sent cannot be read.
  const reason = error instanceof Error ? error.message : String(error);
  return new WebPageError('unreadable', `The page could not be read: ${reason}`);
}
