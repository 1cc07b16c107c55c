import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nginxGatewayLocations } from '../gateway-routes.ts';
import { nginxSecurityHeaders } from '../web-server.ts';

/** What the gateway stand-in was asked: the path it saw and the headers. */
export interface Forwarded {
  url: string;
  headers: IncomingHttpHeaders;
}

/** A stand-in for the gateway that answers every request with what reached it, as JSON. */
export async function startStubGateway(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('X-Stub-Gateway', 'yes');
    res.end(JSON.stringify({ url: req.url ?? '', headers: req.headers } satisfies Forwarded));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * A folder laid out as `vite build` leaves dist/: index.html, /config.js's static fallback and the
 * two nginx files (the web servers must not serve those).
 */
export function fakeBundle(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'agentloom-web-bundle-'));
  chmodSync(dir, 0o755); // nginx's workers may run as another user when tests run as root
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Agentloom app</title>\n');
  writeFileSync(path.join(dir, 'config.js'), "window.agentloomConfig = { apiUrl: '' };\n");
  writeFileSync(path.join(dir, 'security-headers.conf'), nginxSecurityHeaders('${API_URL}'));
  writeFileSync(path.join(dir, 'gateway-locations.conf'), nginxGatewayLocations());
  return dir;
}

/**
 * A raw HTTP/1.1 request, path exactly as given (fetch and curl without --path-as-is resolve dot
 * segments before sending, which is what an attacker does not do).
 */
export async function rawGet(
  base: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(base);
  const { connect } = await import('node:net');
  const lines = [`GET ${target} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${lines.join('\r\n')}\r\n\r\n`),
    );
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const parsed: Record<string, string> = {};
  for (const line of headerLines) {
    const at = line.indexOf(':');
    parsed[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  let body = rest.join('\r\n\r\n');
  if (/chunked/i.test(parsed['transfer-encoding'] ?? '')) body = unchunk(body);
  return { status: Number(statusLine.split(' ')[1]), headers: parsed, body };
}

function unchunk(body: string): string {
  let out = '';
  let rest = body;
  for (;;) {
    const at = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, at), 16);
    if (!size) return out;
    out += rest.slice(at + 2, at + 2 + size);
    rest = rest.slice(at + 2 + size + 2);
  }
}

/** Issue 42, finding 6: other spellings of the nginx files' paths that the exact names missed. */
export const NGINX_FILE_SPELLINGS = [
  '/gateway-locations.conf/',
  '/gateway%2Dlocations.conf',
  '/%67ateway-locations.conf',
  '/security-headers.conf/',
  '/security%2dheaders.conf',
  '//gateway-locations.conf',
  '/./security-headers.conf',
  '/gateway-locations.conf%2f',
  '/Gateway-Locations.conf',
  '/security-headers.conf?x=1',
  '/w/%2e%2e/security%2Dheaders.conf/',
];
