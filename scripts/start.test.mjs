// npm start's last step (scripts/start.mjs) on a machine where one of its ports is taken: it
// names the port and the setting that moves it, and starts nothing. Run by `npm test` (node --test).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'start.mjs');

/** A server holding a port, as another program would; `host` undefined is every address. */
async function occupy(host) {
  const server = createServer();
  await new Promise((resolve) => server.listen({ port: 0, host }, resolve));
  return { port: server.address().port, close: () => new Promise((r) => server.close(r)) };
}

/** A port nothing listens on (held and let go). */
async function freePort() {
  const held = await occupy('127.0.0.1');
  await held.close();
  return held.port;
}

/** Runs `node scripts/start.mjs` as npm start does, with `env`; its exit code and output. */
function start(env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // Should the check let a taken port through, the four processes start: stop them all.
    const timer = setTimeout(() => child.kill('SIGINT'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The four ports npm start uses, each a free one unless given. */
async function ports(given = {}) {
  return {
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    WEB_PORT: String(await freePort()),
    MAIL_SMTP_PORT: String(await freePort()),
    MAIL_WEB_PORT: String(await freePort()),
    ...given,
  };
}

test('a taken web port is named with WEB_PORT, and nothing starts', async () => {
  const web = await occupy(undefined); // another vite, or anything on every address
  try {
    const result = await start(await ports({ WEB_PORT: String(web.port) }));
    assert.equal(result.code, 1);
    const lines = result.stderr.trim().split('\n');
    assert.match(
      lines[0],
      new RegExp(
        `^Port ${web.port} \\(the web app\\) is already in use: set WEB_PORT to a free port ` +
          `\\(e\\.g\\. WEB_PORT=\\d+ npm start, or in \\.env\\)\\.$`,
      ),
    );
    assert.deepEqual(lines.slice(1), ['Nothing was started.']);
    assert.equal(result.stdout, '', 'no gateway, worker or mail catcher output');
  } finally {
    await web.close();
  }
});

test('a port taken on loopback only still counts for the gateway listening everywhere', async () => {
  const gateway = await occupy('127.0.0.1');
  try {
    const result = await start(await ports({ PORT: String(gateway.port), HOST: '0.0.0.0' }));
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(`^Port ${gateway.port} \\(the gateway\\) is already in use: set PORT `),
    );
  } finally {
    await gateway.close();
  }
});

test("the mail catcher's SMTP port names the gateway's SMTP_PORT too", async () => {
  const smtp = await occupy('127.0.0.1');
  try {
    const result = await start(await ports({ MAIL_SMTP_PORT: String(smtp.port) }));
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      new RegExp(
        `^Port ${smtp.port} \\(the mail catcher's SMTP\\) is already in use: set MAIL_SMTP_PORT ` +
          `to a free port and SMTP_PORT to the same \\(e\\.g\\. MAIL_SMTP_PORT=(\\d+) SMTP_PORT=\\1 npm start, or in \\.env\\)\\.`,
      ),
    );
  } finally {
    await smtp.close();
  }
});

test('every taken port is listed at once, and a port that is no number is refused', async () => {
  const web = await occupy(undefined);
  const inbox = await occupy('127.0.0.1');
  try {
    const result = await start(
      await ports({ WEB_PORT: String(web.port), MAIL_WEB_PORT: String(inbox.port), PORT: 'api' }),
    );
    assert.equal(result.code, 1);
    const lines = result.stderr.trim().split('\n');
    assert.equal(lines.length, 4);
    assert.equal(lines[0], 'PORT must be a port number (1–65535), not "api" (the gateway).');
    assert.match(lines[1], /\(the web app\) is already in use: set WEB_PORT /);
    assert.match(lines[2], /\(the mail catcher's inbox\) is already in use: set MAIL_WEB_PORT /);
    assert.equal(lines[3], 'Nothing was started.');
  } finally {
    await web.close();
    await inbox.close();
  }
});
