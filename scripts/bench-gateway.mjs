// What every gateway benchmark needs: a migrated bench database, the built gateway started on
// its own port with throwaway secrets, a small HTTP client, and a signed-in user.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDatabase, migrate } from './db-migrate.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Starts apps/gateway/dist/main.js (build first) in production mode and waits until it answers.
 * BENCH_GATEWAY_FLAGS passes Node flags to it (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
 * `eventLoopDelay(busy)` runs `busy` and returns the gateway's event-loop delay meanwhile
 * (bench-event-loop.mjs, preloaded, answers over the child's IPC channel).
 */
export async function startGateway({ port, dataDir, env = {} }) {
  const databaseUrl =
    process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/agentloom_bench';
  await ensureDatabase(databaseUrl);
  migrate(databaseUrl);

  const flags = process.env.BENCH_GATEWAY_FLAGS ? process.env.BENCH_GATEWAY_FLAGS.split(' ') : [];
  const preload = ['--import', path.join(root, 'scripts/bench-event-loop.mjs')];
  const main = path.join(root, 'apps/gateway/dist/main.js');
  const child = spawn(process.execPath, [...flags, ...preload, main], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Production refuses loopback data sources; the bench's databases run on this machine.
      DATA_SOURCE_ALLOWED_HOSTS: '127.0.0.1,localhost',
      DATABASE_URL: databaseUrl,
      JWT_SECRET: randomBytes(48).toString('base64url'),
      VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      // Each run signs users up from 127.0.0.1; the sign-up throttle is not what is measured.
      SIGNUP_MAX_REQUESTS: '100000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.channel.unref();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  /** Stops the gateway; resolves once it has exited (and let go of its port). */
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  process.on('exit', stop);

  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    try {
      if ((await fetch(`${base}/health/live`)).ok) break;
    } catch {
      /* not listening yet */
    }
    // A minute: on a busy 2-core machine Nest's start alone can take ten seconds.
    if (i >= 600) throw new Error('the gateway did not start');
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
  return {
    base,
    pid: child.pid,
    stop,
    eventLoopDelay,
    call: (...args) => call(base, ...args),
  };
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
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(contentType[type] ? { 'content-type': contentType[type] } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : encoded[type](),
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
