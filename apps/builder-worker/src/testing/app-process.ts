import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * A built Agentloom app (`node <app>/dist/main.js`) run as a child process, for tests that kill
 * it, signal it or take Redis away from it. These tests never build: `turbo run test` builds
 * first (turbo.json), and {@link assertBuilt} refuses a missing or stale build.
 */

export const REPO_ROOT = path.resolve(__dirname, '../../../..');

/** Newest modification time of an app's own sources (tests and test helpers aside). */
function newestSource(dir: string): { file: string; mtime: number } {
  let newest = { file: '', mtime: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'testing') continue;
      const inner = newestSource(file);
      if (inner.mtime > newest.mtime) newest = inner;
    } else if (entry.name.endsWith('.ts') && !/\.(e2e-)?spec\.ts$/.test(entry.name)) {
      const mtime = statSync(file).mtimeMs;
      if (mtime > newest.mtime) newest = { file, mtime };
    }
  }
  return newest;
}

/**
 * The app's dist/main.js; throws when it is missing or older than a source file, because the
 * test would then run old code.
 */
export function assertBuilt(app: 'builder-worker' | 'gateway'): string {
  const root = path.join(REPO_ROOT, 'apps', app);
  const main = path.join(root, 'dist', 'main.js');
  const hint = `run \`npx turbo run build --filter=@agentloom/${app}\` from the repository root`;
  if (!existsSync(main)) throw new Error(`${main} is missing: ${hint}.`);
  const newest = newestSource(path.join(root, 'src'));
  if (newest.mtime > statSync(main).mtimeMs) {
    throw new Error(`${main} is older than ${path.relative(REPO_ROOT, newest.file)}: ${hint}.`);
  }
  return main;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class AppProcess {
  private log = '';
  private readonly listeners = new Set<() => void>();
  /** Resolves when the process has exited, with its code or the signal that ended it. */
  readonly exited: Promise<Exit>;
  private exit?: Exit;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    const collect = (data: Buffer) => {
      this.log += data.toString('utf8');
      for (const listener of this.listeners) listener();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        for (const listener of this.listeners) listener();
        resolve(this.exit);
      });
    });
  }

  /** Spawns `node <main>` with `env` over this process's environment; waits for `ready`. */
  static async start(options: {
    name: string;
    main: string;
    env: Record<string, string>;
    ready: RegExp;
    timeoutMs: number;
  }): Promise<AppProcess> {
    const child = spawn(process.execPath, [options.main], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const app = new AppProcess(options.name, child);
    await app.waitForOutput(options.ready, options.timeoutMs);
    return app;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** Everything the process wrote so far (pino JSON lines), for failure messages. */
  get output(): string {
    return this.log;
  }

  /** Where the output ends now: wait for lines written after this point. */
  get outputLength(): number {
    return this.log.length;
  }

  signal(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /**
   * Resolves once the output (from character `from` on, see {@link outputLength}) matches;
   * rejects on timeout or when the process exits first.
   */
  waitForOutput(pattern: RegExp, timeoutMs: number, from = 0): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (pattern.test(this.log.slice(from))) finish();
        else if (this.exit) {
          finish(
            new Error(`${this.name} exited (${JSON.stringify(this.exit)}) before ${pattern}.`),
          );
        }
      };
      const timer = setTimeout(
        () => finish(new Error(`No ${pattern} from ${this.name} within ${timeoutMs} ms.`)),
        timeoutMs,
      );
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        if (error) reject(new Error(`${error.message}\n${this.name} output:\n${this.log}`));
        else resolve();
      };
      this.listeners.add(check);
      check();
    });
  }

  /** For cleanup: ends the process whatever state it is in. */
  async kill(): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}
