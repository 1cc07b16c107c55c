// @vitest-environment node
/**
 * `npm start`'s web server as it runs: `vite preview` with the app's own vite.config.ts over a
 * bundle-shaped folder, in front of a stand-in gateway that reports what reached it (issue 27,
 * findings 1 and 6). nginx.test.ts holds the image's server to the same rules.
 */
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fakeBundle,
  rawGet,
  startStubGateway,
  type Forwarded,
  NGINX_FILE_SPELLINGS,
} from './stub-gateway.ts';

let gateway: Awaited<ReturnType<typeof startStubGateway>>;
let server: PreviewServer;
let base: string;

/** `vite preview` with the app's own vite.config.ts, which reads its settings when loaded. */
const startPreview = (port?: { port: number; strictPort: boolean }) =>
  preview({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    root: fileURLToPath(new URL('..', import.meta.url)),
    logLevel: 'silent',
    build: { outDir: fakeBundle() },
    preview: { host: '127.0.0.1', ...port },
  });

beforeAll(async () => {
  gateway = await startStubGateway();
  // vite.config.ts reads it when it is loaded, as under npm start.
  process.env.GATEWAY_URL = gateway.url;
  server = await startPreview({ port: 0, strictPort: false });
  base = server.resolvedUrls?.local[0] ?? '';
});

afterAll(async () => {
  await server?.close();
  await gateway?.close();
});

describe('vite preview (npm start)', () => {
  it.each(['/w/../docs-json', '/w/%2e%2e/docs/', '/agents/.%2E/docs-json', '/s/..\\docs-json'])(
    'resolves dot segments before choosing the gateway: %s is the app, not the API docs',
    async (target) => {
      const res = await rawGet(base, target);
      expect(res.headers['x-stub-gateway']).toBeUndefined();
      expect(res.body).toContain('<title>Agentloom app</title>');
    },
  );

  it('forwards the normalised path it matched', async () => {
    const res = await rawGet(base, '/docs/../w/abc/config?x=1');
    expect(res.headers['x-stub-gateway']).toBe('yes');
    expect((JSON.parse(res.body) as Forwarded).url).toBe('/w/abc/config?x=1');
  });

  it('passes the Host the browser asked for, port included', async () => {
    const res = await rawGet(base, '/health');
    expect((JSON.parse(res.body) as Forwarded).headers.host).toBe(new URL(base).host);
  });

  it('tells the gateway the address it saw, never one the client sent', async () => {
    const res = await rawGet(base, '/health', {
      'X-Forwarded-For': '198.18.0.1',
      Forwarded: 'for=198.18.0.2',
    });
    const { headers } = JSON.parse(res.body) as Forwarded;
    expect(headers['x-forwarded-for']).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(headers.forwarded).toBeUndefined();
  });

  it('serves /config.js with the security headers', async () => {
    const res = await rawGet(base, '/config.js');
    expect(res.status).toBe(200);
    expect(res.body).toBe('window.agentloomConfig = {"apiUrl":""};\n');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    '/security-headers.conf',
    '/gateway-locations.conf',
    '/w/../gateway-locations.conf',
    ...NGINX_FILE_SPELLINGS,
  ])('does not serve the nginx file %s', async (target) => {
    const res = await rawGet(base, target);
    expect(res.status).toBe(404);
    expect(res.body).not.toContain('add_header');
    expect(res.body).not.toContain('proxy_pass');
  });

  it.each([
    '/metrics',
    '/metrics/',
    '/w/../metrics',
    '/agents/%2e%2e/metrics?x=1',
    '/s/..\\metrics',
  ])('never forwards the metrics path %s to the gateway', async (target) => {
    const res = await rawGet(base, target);
    expect(res.status).toBe(404);
    expect(res.headers['x-stub-gateway']).toBeUndefined();
    expect(res.body).not.toContain('<title>Agentloom app</title>');
  });
});

describe("vite preview's ports (npm start)", () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  async function freePort(): Promise<number> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }

  it("listens on WEB_PORT and forwards to the gateway's PORT when GATEWAY_URL is unset", async () => {
    const webPort = await freePort();
    process.env.WEB_PORT = String(webPort);
    delete process.env.GATEWAY_URL;
    process.env.PORT = new URL(gateway.url).port;
    const moved = await startPreview();
    try {
      const url = `http://127.0.0.1:${webPort}`;
      expect(moved.resolvedUrls?.local[0]).toBe(`${url}/`);
      const res = await rawGet(url, '/health');
      expect(res.headers['x-stub-gateway']).toBe('yes');
    } finally {
      await moved.close();
    }
  });

  it('refuses a WEB_PORT that is no port number, naming it', async () => {
    process.env.WEB_PORT = 'web';
    await expect(startPreview()).rejects.toThrow(
      'Invalid setting WEB_PORT: must be a port number (1–65535), got "web".',
    );
  });
});
