/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

// ---- Security headers -------------------------------------------------------------------------

/**
 * The web app's security headers — the one place they are written. Both ways of serving the app
 * use them: `vite preview` (npm start, the e2e suite) through `preview.headers` below, and nginx
 * (the image) through the snippet the build writes next to the bundle (security-headers.conf,
 * included by nginx.conf). When the app moves behind one origin with the API, `apiUrl` becomes that origin.
 *
 * The access token lives in localStorage, so a script injected into the app could read it: the
 * policy allows scripts from the app's own origin only (no inline script — index.html's theme
 * snippet is a file for that reason), and no other site may frame the app (clickjacking).
 */
function webSecurityHeaders(apiUrl: string): Record<string, string> {
  const api = new URL(apiUrl);
  const socket = `${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}`;
  const policy = [
    "default-src 'self'",
    "script-src 'self'",
    // Component libraries set inline styles; styles cannot read the token.
    "style-src 'self' 'unsafe-inline'",
    // Profile pictures come from the gateway; the build page previews images as blobs.
    `img-src 'self' data: blob: ${api.origin}`,
    "font-src 'self' data:",
    "media-src 'self'",
    // The API, and Socket.IO's live build progress.
    `connect-src 'self' ${api.origin} ${socket}`,
    // The live preview and the image agent are the gateway's /p/… pages.
    `frame-src ${api.origin}`,
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

/** The same headers as nginx `add_header` lines (`always`: error pages carry them too). */
function nginxSecurityHeaders(apiUrl: string): string {
  const lines = Object.entries(webSecurityHeaders(apiUrl)).map(
    ([name, value]) => `add_header ${name} "${value}" always;`,
  );
  return `# Written by vite build from apps/web/vite.config.ts; do not edit.\n${lines.join('\n')}\n`;
}

// The gateway as browsers reach it: src/lib/api.ts reads the same variable at build time.
const API_URL = process.env.VITE_API_URL ?? 'http://localhost:8000';

/** nginx's copy of the security headers, written beside the bundle. */
const nginxHeaders = (): Plugin => ({
  name: 'agentloom-nginx-security-headers',
  apply: 'build',
  generateBundle() {
    this.emitFile({
      type: 'asset',
      fileName: 'security-headers.conf',
      source: nginxSecurityHeaders(API_URL),
    });
  },
});

export default defineConfig({
  plugins: [react(), tailwindcss(), nginxHeaders()],
  resolve: {
    alias: {
      // Bundle the contracts from their TypeScript source: the package's CommonJS build is
      // for Node, and the browser then gets the same schemas without a separate build step.
      '@agentloom/contracts': fileURLToPath(
        new URL('../../packages/contracts/src/index.ts', import.meta.url),
      ),
    },
  },
  server: { port: 5173, strictPort: true },
  preview: { port: 5173, strictPort: true, headers: webSecurityHeaders(API_URL) },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-setup.ts'],
  },
});
