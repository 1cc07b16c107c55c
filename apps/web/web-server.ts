/**
 * What the web app's two servers do besides serving files, written once: `vite preview` (npm
 * start, the e2e suite) takes the middleware and headers from here through vite.config.ts, and
 * nginx (the image) the snippets the build writes beside the bundle. Each rule holds for both.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { posix } from 'node:path';

// ---- Security headers -------------------------------------------------------------------------

/**
 * The web app's security headers — the one place they are written.
 *
 * The app calls its own origin (the web server forwards the API: gateway-routes.ts), so 'self'
 * covers the API, Socket.IO (CSP 3: 'self' matches ws: and wss: of the same host) and the /p/
 * preview frames. `apiUrl`, when set, is a separate API host: it joins those sources.
 *
 * The access token lives in localStorage, so a script injected into the app could read it: the
 * policy allows scripts from the app's own origin only (no inline script — index.html's theme
 * snippet is a file for that reason), and no other site may frame the app (clickjacking).
 */
export function webSecurityHeaders(apiUrl: string): Record<string, string> {
  const api = apiUrl ? ` ${apiUrl}` : '';
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    // Component libraries set inline styles; styles cannot read the token.
    "style-src 'self' 'unsafe-inline'",
    // Profile pictures come from the gateway; the build page previews images as blobs.
    `img-src 'self' data: blob:${api}`,
    "font-src 'self' data:",
    "media-src 'self'",
    // The API, and Socket.IO's live build progress.
    `connect-src 'self'${api}`,
    // The live preview and the image agent are the gateway's /p/… pages.
    `frame-src 'self'${api}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': policy,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
}

/** nginx's copy of the headers; `apiUrl` is `${API_URL}`, filled in when the container starts. */
export function nginxSecurityHeaders(apiUrl: string): string {
  const lines = Object.entries(webSecurityHeaders(apiUrl)).map(
    ([name, value]) => `add_header ${name} "${value}" always;`,
  );
  return `# Written by vite build from apps/web/web-server.ts; do not edit.\n${lines.join('\n')}\n`;
}

// ---- The runtime setting ----------------------------------------------------------------------

/** /config.js: a separate API host (empty: this origin), read by src/lib/api.ts at start. */
export const runtimeConfigScript = (apiUrl: string): string =>
  `window.agentloomConfig = ${JSON.stringify({ apiUrl })};\n`;

// ---- Before any route is chosen ---------------------------------------------------------------

/** The nginx files the build writes beside the bundle: for the image, never pages. */
export const NGINX_FILES = ['security-headers.conf', 'gateway-locations.conf'];

/**
 * The Prometheus metrics path of the gateway and the other processes: for the operator's scraper
 * on the internal network, never through the web origin (nginx.conf refuses it the same way).
 */
export const METRICS_PATH = /^\/metrics(\/|$)/;

/**
 * The request-target with its dot segments resolved (`/w/../docs-json` is `/docs-json`, and so
 * are `%2e%2e` and backslashes, as browsers read them), or null when it is not a path at all.
 */
export function normalisedPath(target: string): string | null {
  if (!target.startsWith('/')) return null;
  try {
    // Prefixed, not resolved against a base: `//host/x` stays a path, never an address.
    const url = new URL(`http://web.invalid${target}`);
    return url.pathname + url.search;
  } catch {
    return null;
  }
}

type Next = (error?: unknown) => void;

/**
 * Runs before the proxy and the files of `vite preview` (and `vite`):
 * - the path is normalised first, so the one the gateway routes are matched against is the one
 *   that is forwarded (the raw `/w/../docs-json` matched `/w/`, and the gateway then answered
 *   `/docs-json`);
 * - X-Forwarded-* and Forwarded from the client are dropped, so the proxy's X-Forwarded-For
 *   holds only the address it saw: the gateway believes exactly that one hop (TRUSTED_PROXIES);
 * - the nginx files in the bundle folder are not served, nor /metrics.
 */
export function webServerGuard(req: IncomingMessage, res: ServerResponse, next: Next): void {
  const path = prepareRequest(req);
  const refused = path !== null && (namesNginxFile(path) || METRICS_PATH.test(path));
  const status = path === null ? 400 : refused ? 404 : 0;
  if (!status) return next();
  res.statusCode = status;
  res.end();
}

/**
 * Whether a path names one of the nginx files under any spelling: the file server decodes
 * `%2D`, `%67` and `%2F` and ignores a trailing slash, so the path is compared decoded,
 * normalised again and without case (a case-insensitive disk would serve `/Gateway-…`).
 */
export function namesNginxFile(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape is not decoded by the file server either: the path as it is.
  }
  const segments = posix.normalize(decoded.replaceAll('\\', '/')).toLowerCase().split('/');
  return segments.some((segment) => NGINX_FILES.includes(segment));
}

/**
 * The same for a WebSocket upgrade (Socket.IO), which never passes the middlewares; false when
 * the request-target is no path and the connection should be dropped.
 */
export function guardUpgrade(req: IncomingMessage): boolean {
  return prepareRequest(req) !== null;
}

/** Normalises the URL and drops the client's forwarding headers; the path, or null. */
function prepareRequest(req: IncomingMessage): string | null {
  const target = normalisedPath(req.url ?? '');
  if (target === null) return null;
  req.url = target;
  for (const header of Object.keys(req.headers)) {
    if (header.startsWith('x-forwarded-') || header === 'forwarded') delete req.headers[header];
  }
  return target.split('?')[0]!;
}
