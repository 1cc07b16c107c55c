// @vitest-environment node
/**
 * The image's web server as it runs: Debian's nginx with the web image's own server block
 * (nginx.conf) and the snippets the build writes (gateway-routes.ts, web-server.ts), in front of
 * a stand-in gateway. Only the image's fixed paths and port are moved into a scratch folder.
 * `.ci/run` installs nginx (apt-get install nginx); the same rules as vite-preview.test.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nginxGatewayLocations } from '../gateway-routes.ts';
import { nginxSecurityHeaders } from '../web-server.ts';
import {
  fakeBundle,
  rawGet,
  startStubGateway,
  type Forwarded,
  NGINX_FILE_SPELLINGS,
} from './stub-gateway.ts';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

let gateway: Awaited<ReturnType<typeof startStubGateway>>;
let nginx: ChildProcess;
let base: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** nginx.conf as the image's entrypoint fills it in, its fixed paths moved under `dir`. */
function imageConfig(dir: string, port: number, gatewayAddress: string): string {
  const moved = (text: string) =>
    text
      .replaceAll('/etc/nginx/snippets/gateway-locations.conf', path.join(dir, 'locations.conf'))
      .replaceAll('/etc/nginx/conf.d/security-headers.inc', path.join(dir, 'headers.inc'));
  writeFileSync(path.join(dir, 'headers.inc'), nginxSecurityHeaders(''));
  writeFileSync(path.join(dir, 'locations.conf'), moved(nginxGatewayLocations()));
  const server = moved(readFileSync(new URL('../nginx.conf', import.meta.url), 'utf8'))
    .replaceAll('${GATEWAY_ADDRESS}', gatewayAddress)
    .replaceAll('${API_URL}', '')
    .replace('listen 8080;', `listen 127.0.0.1:${port};`)
    .replace('root /usr/share/nginx/html;', `root ${fakeBundle()};`);
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  return [
    'daemon off;',
    'worker_processes 1;',
    `pid ${path.join(dir, 'nginx.pid')};`,
    `error_log ${path.join(dir, 'error.log')} warn;`,
    'events {}',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${temp(name)}`),
    server,
    '}',
  ].join('\n');
}

beforeAll(async () => {
  const version = spawnSync(NGINX, ['-v']);
  if (version.error) throw new Error(`nginx is needed for this test: apt-get install nginx`);
  gateway = await startStubGateway();
  const dir = mkdtempSync(path.join(tmpdir(), 'agentloom-nginx-'));
  chmodSync(dir, 0o755); // nginx's workers may run as another user when the test runs as root
  for (const name of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
    mkdirSync(path.join(dir, name));
  }
  const port = await freePort();
  writeFileSync(path.join(dir, 'nginx.conf'), imageConfig(dir, port, new URL(gateway.url).host));
  nginx = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir], { stdio: 'inherit' });
  base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    try {
      await rawGet(base, '/healthz');
      break;
    } catch (error) {
      if (tries > 50 || nginx.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});

afterAll(async () => {
  nginx?.kill('SIGTERM');
  await gateway?.close();
});

describe('nginx (the web image)', () => {
  it.each(['/w/../docs-json', '/w/%2e%2e/docs/', '/agents/.%2E/docs-json'])(
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
    const spaced = await rawGet(base, '/w/a%20b/config');
    expect((JSON.parse(spaced.body) as Forwarded).url).toBe('/w/a%20b/config');
  });

  it('passes the Host the browser asked for, port included', async () => {
    const res = await rawGet(base, '/health');
    expect((JSON.parse(res.body) as Forwarded).headers.host).toBe(new URL(base).host);
  });

  it('tells the gateway the address it saw, never one the client sent', async () => {
    const res = await rawGet(base, '/health', { 'X-Forwarded-For': '198.18.0.1' });
    expect((JSON.parse(res.body) as Forwarded).headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('serves /config.js with the security headers', async () => {
    const res = await rawGet(base, '/config.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it.each(['/security-headers.conf', '/gateway-locations.conf', ...NGINX_FILE_SPELLINGS])(
    'does not serve the nginx file %s',
    async (target) => {
      const res = await rawGet(base, target);
      expect(res.status).toBe(404);
      expect(res.body).not.toContain('add_header');
      expect(res.body).not.toContain('proxy_pass');
    },
  );

  it.each(['/metrics', '/metrics/', '/w/../metrics', '/agents/%2e%2e/metrics?x=1'])(
    'never forwards the metrics path %s to the gateway',
    async (target) => {
      const res = await rawGet(base, target);
      expect(res.status).toBe(404);
      expect(res.headers['x-stub-gateway']).toBeUndefined();
      expect(res.body).not.toContain('<title>Agentloom app</title>');
    },
  );
});
