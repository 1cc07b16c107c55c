import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * A private `redis-server` without persistence, which a test can stop and start again on the
 * same port: what the worker sees when its Redis crashes and comes back empty.
 */
export class RedisServer {
  private child?: ChildProcess;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'agentloom-redis-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(timeoutMs = 15_000): Promise<void> {
    if (this.child) throw new Error('This Redis server is already running.');
    const child = spawn(
      'redis-server',
      [
        ...['--port', String(this.port), '--bind', '127.0.0.1'],
        ...['--save', '', '--appendonly', 'no', '--dir', this.dir],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail('did not get ready'), timeoutMs);
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`redis-server on port ${this.port} ${why}:\n${output}`));
      };
      child.on('error', (error) => fail(`failed to start (${error.message})`));
      child.on('exit', (code) => fail(`exited with code ${code}`));
      child.stdout?.on('data', (data: Buffer) => {
        output += data.toString('utf8');
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          resolve();
        }
      });
      child.stderr?.on('data', (data: Buffer) => (output += data.toString('utf8')));
    });
  }

  /** Kills the server outright (no goodbye to its clients, nothing saved). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async remove(): Promise<void> {
    await this.stop();
    await rm(this.dir, { recursive: true, force: true });
  }
}
