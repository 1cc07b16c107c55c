import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { toolVenv } from './python-tools';
import { freePort } from './redis-server';

/**
 * A real S3-protocol server for the tests: moto's server mode (PyPI), installed once into its own
 * virtual environment under the agents cache (/var/cache/agentloom/moto-server), like Chroma's
 * server. The S3 driver runs unchanged against it; it stands in for S3 or MinIO, the outside world.
 */
export class S3TestServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly endpoint: string,
  ) {}

  static async start(): Promise<S3TestServer> {
    const venv = toolVenv('moto-server', ['moto[server]==5.2.5']);
    const port = await freePort();
    const child = spawn(
      path.join(venv, 'bin', 'moto_server'),
      ['-H', '127.0.0.1', '-p', String(port)],
      { stdio: 'ignore' },
    );
    const server = new S3TestServer(child, `http://127.0.0.1:${port}`);
    // moto imports all of boto's service models as it starts: seconds on a quiet machine, more
    // than half a minute on a busy one.
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`moto_server exited (${child.exitCode})`);
      const up = await fetch(`${server.endpoint}/`).then(
        (answer) => answer.ok,
        () => false,
      );
      if (up) return server;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`moto_server did not answer on port ${port}`);
      }
      await new Promise((wait) => setTimeout(wait, 200));
    }
  }

  /** Creates a bucket (S3's PUT /<bucket>) and returns the settings that point a driver at it. */
  async bucket(name: string): Promise<Record<string, string>> {
    const answer = await fetch(`${this.endpoint}/${name}`, { method: 'PUT' });
    if (!answer.ok) throw new Error(`creating bucket ${name}: HTTP ${answer.status}`);
    return {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: this.endpoint,
      S3_BUCKET: name,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'test',
      S3_SECRET_ACCESS_KEY: 'test',
    };
  }

  /** The keys under `prefix` in `bucket` (S3's ListObjectsV2), sorted. */
  async keys(bucket: string, prefix: string): Promise<string[]> {
    const query = new URLSearchParams({ 'list-type': '2', prefix });
    const answer = await fetch(`${this.endpoint}/${bucket}?${query.toString()}`);
    if (!answer.ok) throw new Error(`listing ${bucket}/${prefix}: HTTP ${answer.status}`);
    const xml = await answer.text();
    return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((match) => match[1]!).sort();
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
