import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on a loopback address serving a site the test describes, for the web
 * crawler's tests and `npm run bench:crawl`. It records what it was asked, how many connections
 * it accepted and how many requests it served at once, so a test can prove the crawler never
 * asked for something (a page robots.txt forbids, an address the guard refused).
 */

export type SiteHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface TestSite {
  /** http://host:port, no trailing slash. */
  origin: string;
  host: string;
  port: number;
  /** Paths requested (with their query), in the order they arrived. */
  requests: string[];
  /** Host headers received, in order. */
  hostHeaders: string[];
  connections: number;
  /** The most requests in progress at one time. */
  maxInFlight: number;
  close(): Promise<void>;
}

export interface TestSiteOptions {
  /** A loopback address (default 127.0.0.1); tests never serve anywhere else. */
  host?: string;
  /** A port to share with another test site on another loopback address (default: any). */
  port?: number;
}

/** Serves `routes` (by path, query included or not); anything else answers 404. */
export async function startTestSite(
  routes: Record<string, SiteHandler>,
  options: TestSiteOptions = {},
): Promise<TestSite> {
  const host = options.host ?? '127.0.0.1';
  if (!host.startsWith('127.')) throw new Error('Test sites serve on loopback addresses only.');
  let inFlight = 0;
  const site: Omit<TestSite, 'origin' | 'port' | 'close'> = {
    host,
    requests: [],
    hostHeaders: [],
    connections: 0,
    maxInFlight: 0,
  };
  const server: Server = createServer((request, response) => {
    const url = request.url ?? '/';
    site.requests.push(url);
    site.hostHeaders.push(request.headers.host ?? '');
    inFlight += 1;
    site.maxInFlight = Math.max(site.maxInFlight, inFlight);
    response.once('close', () => (inFlight -= 1));
    const handler = routes[url] ?? routes[url.split('?')[0]!];
    if (handler) handler(request, response);
    else response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  server.on('connection', () => (site.connections += 1));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(site, {
    origin: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

export function html(body: string, status = 200): SiteHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  };
}

export function redirect(location: string, status = 301): SiteHandler {
  return (_request, response) => {
    response.writeHead(status, { location }).end();
  };
}

export function typed(contentType: string, body: string | Buffer): SiteHandler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': contentType }).end(body);
  };
}

/** `pages` pages of a few paragraphs each, linked the way a documentation site is. */
export function generatedSite(pages: number): Record<string, SiteHandler> {
  const routes: Record<string, SiteHandler> = {};
  const nav = Array.from(
    { length: Math.min(pages, 12) },
    (_, n) => `<a href="/docs/page-${n}">Page ${n}</a>`,
  );
  for (let n = 0; n < pages; n += 1) {
    const links = [1, 2, 3, 7]
      .map((step) => (n + step) % pages)
      .map((target) => `<a href="/docs/page-${target}#section-2">See page ${target}</a>`);
    const paragraphs = Array.from(
      { length: 8 },
      (_, p) =>
        `<p>Page ${n}, paragraph ${p}: the part numbered ${n * 100 + p} fits the models listed under section ${p % 3}, ` +
        `and ships within ${(n % 5) + 1} days. Returns are accepted for thirty days after delivery.</p>`,
    ).join('\n');
    routes[`/docs/page-${n}`] = html(
      `<!doctype html><html><head><title>Docs page ${n}</title></head><body>` +
        `<header><nav>${nav.join(' ')}</nav></header><main><h1>Page ${n}</h1>${paragraphs}` +
        `<h2 id="section-2">Related</h2><p>${links.join(' · ')}</p></main>` +
        `<footer>© Example</footer></body></html>`,
    );
  }
  routes['/'] = redirect('/docs/page-0');
  routes['/robots.txt'] = typed('text/plain', 'User-agent: *\nAllow: /\n');
  return routes;
}
