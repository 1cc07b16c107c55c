/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { defineConfig, loadEnv, type Connect, type Plugin } from 'vite';
import { GATEWAY_PATHS, GATEWAY_POST_PATHS, nginxGatewayLocations } from './gateway-routes.ts';
import {
  nginxSecurityHeaders,
  runtimeConfigScript,
  webSecurityHeaders,
  guardUpgrade,
  webServerGuard,
} from './web-server.ts';

/** The web server's settings: the environment, else the repository's .env (as the gateway reads). */
const dotEnv = loadEnv('', fileURLToPath(new URL('../..', import.meta.url)), '');
const setting = (name: string): string | undefined => process.env[name] ?? dotEnv[name];

/**
 * The runtime setting for a separate API host (empty: the app's own origin), read when the server
 * starts, never compiled in: index.html loads /config.js before the app (src/lib/api.ts).
 */
const apiUrlSetting = (): string => (setting('API_URL') ?? '').replace(/\/+$/, '');

/** A port setting's value, or `fallback` when unset; anything but a port number stops the server. */
function portSetting(name: string, fallback: number): number {
  const value = setting(name);
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`Invalid setting ${name}: must be a port number (1–65535), got "${value}".`);
  return port;
}

/** The web app's port under `npm start` and `npm run dev` (compose's host port has the same name). */
const webPort = portSetting('WEB_PORT', 5173);

/** Where `vite preview` (and `vite` in development) forward the gateway's paths: its PORT here. */
const gatewayTarget = setting('GATEWAY_URL') ?? `http://127.0.0.1:${portSetting('PORT', 8000)}`;

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
    this.emitFile({
      type: 'asset',
      fileName: 'security-headers.conf',
      // A placeholder, not a template string: nginx's entrypoint fills in API_URL at start.
      source: nginxSecurityHeaders('${API_URL}'),
    });
    this.emitFile({
      type: 'asset',
      fileName: 'gateway-locations.conf',
      source: nginxGatewayLocations(),
    });
  },
});

/**
 * Under `vite` and `vite preview`: the guard first (web-server.ts: normalised paths, the client's
 * forwarding headers dropped, nginx's files hidden), then /config.js from the API_URL setting,
 * with the app's security headers (preview.headers reach only the files Vite serves itself).
 */
type UpgradeSource = {
  prependListener(event: 'upgrade', fn: (req: IncomingMessage, socket: Duplex) => void): unknown;
};
const webServer = (): Plugin => {
  // Returns nothing: a function returned from these hooks would run after Vite's own middlewares.
  const serve = (server: {
    middlewares: Connect.Server;
    httpServer: UpgradeSource | null;
  }): void => {
    // WebSocket upgrades (Socket.IO) skip the middlewares: the same rules, before the proxy's.
    server.httpServer?.prependListener('upgrade', (req: IncomingMessage, socket: Duplex) => {
      if (!guardUpgrade(req)) socket.destroy();
    });
    server.middlewares.use(webServerGuard);
    server.middlewares.use('/config.js', (_req, res) => {
      const apiUrl = apiUrlSetting();
      for (const [name, value] of Object.entries(webSecurityHeaders(apiUrl))) {
        res.setHeader(name, value);
      }
      res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
      res.setHeader('Cache-Control', 'no-cache');
      res.end(runtimeConfigScript(apiUrl));
    });
  };
  return { name: 'agentloom-web-server', configureServer: serve, configurePreviewServer: serve };
};

export default defineConfig({
  plugins: [react(), tailwindcss(), nginxFiles(), webServer()],
  resolve: {
    alias: {
      // Bundle the contracts from their TypeScript source: the package's CommonJS build is
      // for Node, and the browser then gets the same schemas without a separate build step.
      '@agentloom/contracts': fileURLToPath(
        new URL('../../packages/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  // strictPort: on a taken port the server stops (scripts/start.mjs names the setting first)
  // rather than serving on another one that the gateway's links and PUBLIC_URL do not name.
  server: { port: webPort, strictPort: true, proxy: gatewayProxy },
  preview: {
    port: webPort,
    strictPort: true,
    headers: webSecurityHeaders(apiUrlSetting()),
    proxy: gatewayProxy,
    allowedHosts: allowedHosts(),
  },
  test: {
    environment: 'jsdom',
    // servers/: vite preview and nginx as processes (their files say `@vitest-environment node`).
    include: ['src/**/*.test.{ts,tsx}', 'servers/**/*.test.ts'],
    setupFiles: ['./src/test-setup.ts'],
    // A wizard test clicks through several screens in jsdom: about a second on a quiet machine,
    // several on a busy 2-core CI one. Vitest's default 5 s failed such runs with no defect.
    testTimeout: 30_000,
  },
});
