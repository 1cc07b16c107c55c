// What every gateway benchmark needs: a migrated bench database, the built gateway started on
// its own port with throwaway secrets, a small HTTP client, and a signed-in user.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, migrate } from './db-migrate.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts apps/gateway/dist/main.js (build first) and waits until it answers. By default in
 * production mode, as compose and the image run it; with `npmStart`, under `npm start` after its
 * build and migrations: scripts/start.mjs from the checkout (the gateway, a builder worker, the
 * web app and the mail catcher, the last two on free ports), NODE_ENV unset (development), their
 * output piped as a terminal would get it. `pid` is the gateway's own process either way.
 * BENCH_GATEWAY_FLAGS passes Node flags to it (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"; under
 * npm start, to every Node process there, through NODE_OPTIONS).
 * `eventLoopDelay(busy)` runs `busy` and returns the gateway's event-loop delay meanwhile
 * (bench-event-loop.mjs, preloaded, answers over the child's IPC channel; production mode only).
 */
export async function startGateway({ port, dataDir, env = {}, npmStart = false }) {
  const databaseUrl =
    process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/agentloom_bench';
  await ensureDatabase(databaseUrl);
  migrate(databaseUrl);

  const base = `http://127.0.0.1:${port}`;
  // A server already there would answer the readiness check below and be measured instead.
  if (await reachable(`${base}/health/live`))
    throw new Error(`port ${port} already has a server; stop it or set BENCH_PORT`);
  const flags = process.env.BENCH_GATEWAY_FLAGS ? process.env.BENCH_GATEWAY_FLAGS.split(' ') : [];
  const settings = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Each run signs users up from 127.0.0.1; the sign-up throttle is not what is measured.
    SIGNUP_MAX_REQUESTS: '100000',
  };
  const child = npmStart
    ? await spawnAsNpmStart({ ...settings, ...env }, flags)
    : spawnInProduction(
        {
          ...settings,
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          // Production refuses loopback data sources; the bench's databases run on this machine.
          DATA_SOURCE_ALLOWED_HOSTS: '127.0.0.1,localhost',
          ...env,
        },
        flags,
      );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let pid = child.pid;
  /** Stops the gateway; resolves once it has exited (and let go of its port). */
  const gone = async () => {
    while (existsSync(`/proc/${pid}`) && !isZombie(pid))
      await new Promise((resolve) => setTimeout(resolve, 50));
  };
  const stop = async () => {
    if (npmStart) {
      // The gateway first, as Ctrl-C tells it, and until it has gone (concurrently's SIGTERM to
      // the others would end it before it has written its --cpu-prof profile); then the rest of
      // npm start's process group.
      signal(pid, 'SIGINT');
      await gone();
      signal(-child.pid, 'SIGINT');
    } else child.kill('SIGTERM');
    await exited;
    await gone();
  };
  process.on('exit', () => (npmStart ? signal(-child.pid, 'SIGINT') : child.kill('SIGTERM')));

  for (let i = 0; !(await reachable(`${base}/health/live`))?.ok; i += 1) {
    // A minute: on a busy 2-core machine Nest's start alone can take ten seconds.
    if (i >= 600 || child.exitCode !== null) throw new Error('the gateway did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  /** The gateway's event-loop delay (p50, p95, p99, max in ms) while `busy` runs. */
  const eventLoopDelay = async (busy) => {
    child.send('event-loop:reset');
    await busy();
    const report = new Promise((resolve) =>
      child.on('message', function read(message) {
        if (!message?.eventLoop) return;
        child.off('message', read);
        resolve(message.eventLoop);
      }),
    );
    child.send('event-loop:read');
    return report;
  };
  if (npmStart) pid = gatewayUnder(child.pid);
  return {
    base,
    pid,
    stop,
    eventLoopDelay,
    call: (...args) => call(base, ...args),
  };
}

/** The response of `url`, or null when nothing answers there. */
const reachable = (url) =>
  fetch(url).then(
    (response) => response,
    () => null,
  );

/** The gateway as compose runs it: node on dist/main.js, NODE_ENV=production. */
function spawnInProduction(env, flags) {
  const preload = ['--import', path.join(root, 'scripts/bench-event-loop.mjs')];
  const main = path.join(root, 'apps/gateway/dist/main.js');
  const child = spawn(process.execPath, [...flags, ...preload, main], {
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.channel.unref();
  return child;
}

/** A port nothing listens on at the moment (held and let go). */
async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * `npm start` after its build and migrations (scripts/start.mjs, in a process group of its own so
 * that it can be stopped as Ctrl-C stops it), with the environment of a checkout: no NODE_ENV,
 * the repository's .env for what the bench does not set. The web app and the mail catcher get
 * free ports (WEB_PORT, MAIL_SMTP_PORT, MAIL_WEB_PORT), so a developer's npm start can run beside.
 */
async function spawnAsNpmStart(env, flags) {
  const { NODE_ENV: _unset, ...inherited } = process.env;
  const smtp = String(await freePort());
  const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    detached: true,
    env: {
      ...inherited,
      ...env,
      WEB_PORT: String(await freePort()),
      MAIL_SMTP_PORT: smtp,
      SMTP_PORT: smtp,
      MAIL_WEB_PORT: String(await freePort()),
      ...(flags.length > 0 && { NODE_OPTIONS: flags.join(' ') }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(process.stdout);
  child.stderr.pipe(process.stderr);
  return child;
}

/** Sends `name` to `pid` (a negative pid: its process group), which may have exited already. */
function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    /* exited */
  }
}

/** True when `pid` has exited and waits for its parent to collect it. */
function isZombie(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
  } catch {
    return true;
  }
}

/** The gateway's node process under `pid`: dist/main.js run in apps/gateway (the worker's is too). */
function gatewayUnder(pid) {
  const gatewayDir = path.join(root, 'apps/gateway');
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const [program, ...args] = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (path.basename(program) !== 'node' || !args.includes('dist/main.js')) continue;
      if (readlinkSync(`/proc/${entry}/cwd`) !== gatewayDir) continue;
      // Its own, not another checkout's or session's: npm start's process group.
      if (Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[2]) === pid)
        return Number(entry);
    } catch {
      /* gone meanwhile */
    }
  }
  throw new Error('npm start: no gateway process found');
}

/** One request; `type` is json, form (url-encoded) or multipart (a FormData body). */
async function call(base, method, url, body, token, type = 'json') {
  const encoded = {
    json: () => JSON.stringify(body),
    form: () => new URLSearchParams(body).toString(),
    multipart: () => body,
  };
  const contentType = {
    json: 'application/json',
    form: 'application/x-www-form-urlencoded',
    multipart: undefined, // fetch sets the boundary
  };
  const send = () =>
    fetch(`${base}${url}`, {
      method,
      headers: {
        ...(contentType[type] ? { 'content-type': contentType[type] } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : encoded[type](),
    });
  // A GET sent on a kept-alive socket just as the gateway closed it (idle past its keep-alive
  // timeout while this process was busy, say as the embeddings stand-in) is sent again.
  const response = await send().catch((error) => {
    if (method !== 'GET' || error?.cause?.code !== 'UND_ERR_SOCKET') throw error;
    return send();
  });
  if (!response.ok) {
    throw new Error(`${method} ${url} → ${response.status} ${await response.text()}`);
  }
  return response.json();
}

/** Signs a fresh user up and in; returns the access token. */
export async function signedInUser(gateway) {
  const name = `bench_${randomUUID().slice(0, 8)}`;
  const password = 'benchmark password';
  const email = `${name}@example.com`;
  await gateway.call('POST', '/auth/signup', {
    username: name,
    email,
    password,
    confirm_password: password,
  });
  const { access_token: token } = await gateway.call('POST', '/auth/login', { email, password });
  return token;
}
