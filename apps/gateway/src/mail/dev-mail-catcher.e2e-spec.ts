import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import nodemailer from 'nodemailer';

/**
 * `npm run mail`, the mail catcher `npm start` runs beside the gateway, as a developer's browser
 * meets it (issue 27, finding 8): MailDev answered `Access-Control-Allow-Origin` for any origin,
 * with credentials, so any web page could read reset links from /api/email.
 */
const ROOT = path.resolve(__dirname, '../../../..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  await new Promise((closed) => server.close(closed));
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

describe('the development mail catcher (npm run mail)', () => {
  let catcher: ChildProcess;
  let web: string;
  let webPort: number;

  beforeAll(async () => {
    const smtpPort = await freePort();
    webPort = await freePort();
    web = `http://127.0.0.1:${webPort}`;
    catcher = spawn('npm', ['run', 'mail', '--silent'], {
      cwd: ROOT,
      env: { ...process.env, MAIL_SMTP_PORT: String(smtpPort), MAIL_WEB_PORT: String(webPort) },
      detached: true, // its own process group: npm, the shell and node stop together
      stdio: 'ignore',
    });
    for (let tries = 0; ; tries += 1) {
      try {
        if ((await fetch(`${web}/api/email`)).ok) break;
      } catch (error) {
        if (tries > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await nodemailer
      .createTransport({ host: '127.0.0.1', port: smtpPort, secure: false, ignoreTLS: true })
      .sendMail({
        from: 'Agentloom <no-reply@agentloom.local>',
        to: 'dev@example.com',
        subject: 'Reset your password',
        text: 'http://localhost:5173/reset-password?token=secret-reset-token',
      });
  }, 60_000);

  afterAll(() => {
    if (catcher.pid) process.kill(-catcher.pid, 'SIGTERM');
  });

  it('shows the mail to its own page (and to tools that send no Origin)', async () => {
    for (const headers of [{}, { Origin: web }] as Record<string, string>[]) {
      const res = await fetch(`${web}/api/email`, { headers });
      expect(res.status).toBe(200);
      expect(JSON.stringify(await res.json())).toContain('Reset your password');
    }
  });

  it('refuses another origin, with no CORS header a browser would honour', async () => {
    const res = await fetch(`${web}/api/email`, {
      headers: { Origin: 'https://evil.example', Cookie: 'x=1' },
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await res.text()).not.toContain('secret-reset-token');
    const preflight = await fetch(`${web}/api/email`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a page whose DNS name was rebound to 127.0.0.1, and foreign live updates', async () => {
    // fetch() keeps Host to itself; a rebound page's requests name the attacker's host.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = request(`${web}/api/email`, { headers: { Host: `evil.example:${webPort}` } });
      req.on('response', (res) => resolve(res.resume().statusCode ?? 0)).on('error', reject);
      req.end();
    });
    expect(rebound).toBe(403);
    const socket = await fetch(`${web}/socket.io/?EIO=4&transport=polling`, {
      headers: { Origin: 'https://evil.example' },
    });
    expect(socket.status).toBe(403);
    expect(socket.headers.get('access-control-allow-origin')).toBeNull();
  });
});
