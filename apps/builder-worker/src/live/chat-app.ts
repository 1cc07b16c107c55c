import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Locator, type Page } from 'playwright-core';
import { freePort } from './live-services';

/**
 * A generated project's chat app (Streamlit or Gradio) started as its README says, its terminal
 * kept: what the user sees in the terminal while the app runs is what these checks read.
 */
export class ChatApp {
  private log = '';
  private exitCode: number | null | undefined;
  readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    const collect = (data: Buffer) => (this.log += data.toString('utf8'));
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) =>
      child.on('exit', (code) => {
        this.exitCode = code;
        resolve(code);
      }),
    );
  }

  static async start(o: {
    dir: string;
    python: string;
    env: Record<string, string>;
    ui: 'streamlit' | 'gradio';
  }): Promise<ChatApp> {
    const port = await freePort();
    const args =
      o.ui === 'streamlit'
        ? ['-m', 'streamlit', 'run', 'app.py', '--server.port', String(port)]
        : ['app.py', '--port', String(port)];
    const child = spawn(o.python, args, {
      cwd: o.dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ChatApp(child, port);
  }

  /** Everything the app wrote to its terminal so far. */
  get output(): string {
    return this.log;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/`;
  }

  /** Resolves once the terminal shows `pattern`; rejects on timeout or when the app exits first. */
  async waitForOutput(pattern: RegExp, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.log)) {
      if (this.exitCode !== undefined) {
        throw new Error(`the app exited (${this.exitCode}) before ${pattern}:\n${this.log}`);
      }
      if (Date.now() > deadline)
        throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.log}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /**
   * Opens the page in Chromium, as a visitor does (a Streamlit app prepares its agent for the
   * first visitor), and returns the page's text once `shown` is on it.
   */
  async visit(shown: (page: Page) => Locator, timeoutMs: number): Promise<string> {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(this.url);
      await shown(page).first().waitFor({ timeout: timeoutMs });
      return await page.locator('body').innerText();
    } finally {
      await browser.close();
    }
  }

  async stop(): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }
}
