/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { GATEWAY_PATHS, GATEWAY_POST_PATHS, nginxGatewayLocations } from './gateway-routes.ts';

// ---- Security headers -------------------------------------------------------------------------

/**
 * The web app's security headers — the one place they are written. Both ways of serving the app
 * use them: `vite preview` (npm start, the e2e suite) through `preview.headers` below, and nginx
 * (the image) through the snippet the build writes next to the bundle (security-headers.conf,
 * included by nginx.conf; nginx fills in API_URL when the container starts).
 *
 * The app calls its own origin (the web server forwards the API: gateway-routes.ts), so 'self'
 * covers the API, Socket.IO (CSP 3: 'self' matches ws: and wss: of the same host) and the /p/
 * preview frames. `apiUrl`, when set, is a separate API host: it joins those sources.
 *
 * The access token lives in localStorage, so a script injected into the app could read it: the
 * policy allows scripts from the app's own origin only (no inline script — index.html's theme
 * snippet is a file for that reason), and no other site may frame the app (clickjacking).
 */
function webSecurityHeaders(apiUrl: string): Record<string, string> {
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

/** The web server's settings: the environment, else the repository's .env (as the gateway reads). */
const dotEnv = loadEnv('', fileURLToPath(new URL('../..', import.meta.url)), '');
const setting = (name: string): string | undefined => process.env[name] ?? dotEnv[name];

/**
 * The runtime setting for a separate API host (empty: the app's own origin), read when the server
 * starts, never compiled in: index.html loads /config.js before the app (src/lib/api.ts).
 */
const apiUrlSetting = (): string => (setting('API_URL') ?? '').replace(/\/+$/, '');
const runtimeConfigScript = (apiUrl: string): string =>
  `window.agentloomConfig = ${JSON.stringify({ apiUrl })};\n`;

/** Where `vite preview` (and `vite` in development) forward the gateway's paths. */
const gatewayTarget = setting('GATEWAY_URL') ?? 'http://127.0.0.1:8000';

/** Extra host names `vite preview` answers to (IP addresses and localhost always work). */
const allowedHosts = (): string[] => {
  const hosts = (setting('WEB_ALLOWED_HOSTS') ?? '').split(',').map((host) => host.trim());
  const publicUrl = setting('PUBLIC_URL');
  if (publicUrl) hosts.push(new URL(publicUrl).hostname);
  return hosts.filter(Boolean);
};

const gatewayProxy = {
  [GATEWAY_PATHS]: { target: gatewayTarget, ws: true, xfwd: true },
  [GATEWAY_POST_PATHS]: {
    target: gatewayTarget,
    xfwd: true,
    // A GET is the app's page (the SPA fallback serves index.html); a POST is the API call.
    bypass: (req: { method?: string; url?: string }) =>
      req.method === 'GET' || req.method === 'HEAD' ? req.url : undefined,
  },
};

/** nginx's files written beside the bundle: the security headers and the gateway's locations. */
const nginxFiles = (): Plugin => ({
  name: 'agentloom-nginx-files',
  apply: 'build',
  generateBundle() {
    // A placeholder, not a template string: nginx's entrypoint fills in API_URL at start.
    const headers = Object.entries(webSecurityHeaders('${API_URL}')).map(
      ([name, value]) => `add_header ${name} "${value}" always;`,
    );
    this.emitFile({
      type: 'asset',
      fileName: 'security-headers.conf',
      source: `# Written by vite build from apps/web/vite.config.ts; do not edit.\n${headers.join('\n')}\n`,
    });
    this.emitFile({
      type: 'asset',
      fileName: 'gateway-locations.conf',
      source: nginxGatewayLocations(),
    });
  },
});

/** Serves /config.js from the API_URL setting under `vite` and `vite preview`. */
const runtimeConfig = (): Plugin => {
  // Returns nothing: a function returned from these hooks would run after Vite's own middlewares.
  const serve = (server: { middlewares: { use: (path: string, fn: Handler) => void } }): void => {
    server.middlewares.use('/config.js', (_req, res) => {
      res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache');
      res.end(runtimeConfigScript(apiUrlSetting()));
    });
  };
  return {
    name: 'agentloom-runtime-config',
    configureServer: serve,
    configurePreviewServer: serve,
  };
};
type Handler = (
  req: unknown,
  res: { setHeader: (name: string, value: string) => void; end: (body: string) => void },
) => void;

export default defineConfig({
  plugins: [react(), tailwindcss(), nginxFiles(), runtimeConfig()],
  resolve: {
    alias: {
      // Bundle the contracts from their TypeScript source: the package's CommonJS build is
      // for Node, and the browser then gets the same schemas without a separate build step.
      '@agentloom/contracts': fileURLToPath(
        new URL('../../packages/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  server: { port: 5173, strictPort: true, proxy: gatewayProxy },
  preview: {
    port: 5173,
    strictPort: true,
    headers: webSecurityHeaders(apiUrlSetting()),
    proxy: gatewayProxy,
    allowedHosts: allowedHosts(),
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
  },
});
