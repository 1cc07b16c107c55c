#!/usr/bin/env node
// npm start's last step, after the build and the migrations: the gateway, the builder worker, the
// web app and the mail catcher in the foreground, one prefixed line an event; when one stops, the
// others are stopped too, and Ctrl-C stops all four.
//
// Their ports are checked first, each on the address its process listens on: a taken port is
// named with the setting that moves it, and nothing is started. (Before, `vite preview` said
// "Port 5173 is already in use" among the other three's start-up lines, and stopping took them
// down with it.) The settings are read as the processes read them: the environment, else the
// repository's .env.
import concurrently from 'concurrently';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dotEnv = path.join(root, '.env');
if (existsSync(dotEnv)) process.loadEnvFile(dotEnv); // what is already set wins

/** The ports npm start's processes listen on, with the setting that moves each one. */
export function startPorts(env = process.env) {
  return [
    {
      what: 'the gateway',
      setting: 'PORT',
      port: env.PORT ?? '8000',
      host: env.HOST ?? '0.0.0.0',
    },
    // `vite preview --host`: every address, IPv6 included.
    { what: 'the web app', setting: 'WEB_PORT', port: env.WEB_PORT ?? '5173', host: undefined },
    {
      what: "the mail catcher's SMTP",
      setting: 'MAIL_SMTP_PORT',
      port: env.MAIL_SMTP_PORT ?? '1025',
      host: '127.0.0.1',
      // The gateway sends its mail to SMTP_PORT: it has to follow.
      also: 'SMTP_PORT',
    },
    {
      what: "the mail catcher's inbox",
      setting: 'MAIL_WEB_PORT',
      port: env.MAIL_WEB_PORT ?? '8025',
      host: '127.0.0.1',
    },
  ];
}

/** Whether a server could listen on `port` at `host` now. */
function canListen(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host }, () => server.close(() => resolve(true)));
  });
}

/** One sentence for each port that is taken (or not a port number); empty when all are free. */
export async function portProblems(ports) {
  const problems = [];
  for (const { what, setting, port: value, host, also } of ports) {
    const port = Number(value);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      problems.push(`${setting} must be a port number (1–65535), not "${value}" (${what}).`);
      continue;
    }
    if (await canListen(port, host)) continue;
    let free;
    for (let next = port + 1; next <= Math.min(port + 20, 65535) && !free; next += 1)
      if (await canListen(next, host)) free = next;
    const how = also
      ? `set ${setting} to a free port and ${also} to the same`
      : `set ${setting} to a free port`;
    const where = free
      ? `e.g. ${[setting, also]
          .filter(Boolean)
          .map((name) => `${name}=${free}`)
          .join(' ')} npm start, or in .env`
      : 'in .env or the environment';
    problems.push(`Port ${port} (${what}) is already in use: ${how} (${where}).`);
  }
  return problems;
}

async function main() {
  const problems = await portProblems(startPorts());
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    console.error('Nothing was started.');
    process.exit(1);
  }
  const { result } = concurrently(
    [
      { name: 'gateway', prefixColor: 'blue', command: 'npm run start -w @agentloom/gateway' },
      {
        name: 'worker',
        prefixColor: 'magenta',
        command: 'npm run start -w @agentloom/builder-worker',
      },
      { name: 'web', prefixColor: 'green', command: 'npm run start -w @agentloom/web' },
      { name: 'mail', prefixColor: 'yellow', command: 'npm run mail' },
    ],
    { cwd: root, killOthersOn: ['failure', 'success'] },
  );
  await result.then(
    () => process.exit(0),
    () => process.exit(1),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
