import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';
import type { LlmTestServer } from '@agentloom/agent-runtime/testing';
import { freePort, waitFor } from './live-services';

export interface BrowserChat {
  /** The project's folder, its interpreter and the environment its app runs with. */
  dir: string;
  python: string;
  env: NodeJS.ProcessEnv;
  ui: 'streamlit' | 'gradio';
  /** The provider stand-in the app talks to: its requests are what the check reads. */
  llm: LlmTestServer;
  questions: string[];
  /** What each answer shows on the page (the n-th question waits for n matches). */
  expected: RegExp;
}

/**
 * Starts a generated project's chat app (Streamlit or Gradio) and asks it `questions` in Chromium,
 * as a user does: typed into the chat box, each answered (its two model requests made and its
 * answer on the page) before the next. Returns the chat requests the provider received.
 */
export async function askInBrowser(o: BrowserChat): Promise<{ path: string; body: unknown }[]> {
  const port = await freePort();
  const args =
    o.ui === 'streamlit'
      ? ['-m', 'streamlit', 'run', 'app.py', '--server.port', String(port)]
      : ['app.py', '--port', String(port)];
  const app = spawn(o.python, args, { cwd: o.dir, env: o.env, stdio: 'ignore' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    await waitFor(`http://127.0.0.1:${port}/`, 180_000);
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${port}/`);
    const box =
      o.ui === 'streamlit'
        ? page.getByPlaceholder('Ask a question')
        : page.getByRole('textbox').first();
    const before = o.llm.requests.length;
    const chatRequests = () =>
      o.llm.requests
        .slice(before)
        .filter((request) => /chat\/completions|\/messages$/.test(request.path));
    for (const [turn, question] of o.questions.entries()) {
      await box.waitFor({ timeout: 180_000 });
      await box.fill(question);
      await box.press('Enter');
      // Answered: both of this question's requests made, and its answer on the page.
      const deadline = Date.now() + 180_000;
      while (
        chatRequests().length < 2 * (turn + 1) ||
        (await page.getByText(o.expected).count()) < turn + 1
      ) {
        if (Date.now() > deadline) throw new Error(`no answer to "${question}"`);
        await page.waitForTimeout(250);
      }
    }
    return chatRequests();
  } finally {
    await browser.close();
    app.kill('SIGTERM');
  }
}
