import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './builder-worker';

/** Debian's nginx (`apt-get install nginx`; .ci/run installs it). */
const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export interface NginxBalancer {
  /** http://127.0.0.1:<port> */
  url: string;
  close(): Promise<void>;
}

/**
 * A real load balancer in front of replicas: nginx with one `upstream` of the given servers,
 * round robin, answers streamed through unbuffered (server-sent events). A replica that refuses
 * the connection (killed, restarting) is skipped for the next one, as in production; a request
 * already sent is never sent twice.
 */
export async function startNginxBalancer(upstreams: string[]): Promise<NginxBalancer> {
  const prefix = await mkdtemp(path.join(tmpdir(), 'agentloom-nginx-'));
  const port = await freePort();
  const servers = upstreams.map((url) => `    server ${new URL(url).host} max_fails=0;`).join('\n');
  const conf = `
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream replicas {
${servers}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://replicas;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_buffering off;
      proxy_read_timeout 120s;
      proxy_next_upstream error timeout;
    }
  }
}
`;
  const file = path.join(prefix, 'nginx.conf');
  await writeFile(file, conf);
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', file, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (data: Buffer) => (errors += data.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}): ${errors}`);
    const up = await fetch(`${url}/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`nginx did not start: ${errors}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    async close() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(prefix, { recursive: true, force: true });
    },
  };
}
