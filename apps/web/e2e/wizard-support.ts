import { signUpAndLogIn, type RagAgentOptions, type TestUser } from '@agentloom/test-kit';
import { storeKeys } from '@agentloom/server-kit';
import { expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { constants, mkdirSync } from 'node:fs';
import { link, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { E2E, GATEWAY_URL } from '../playwright.config';

/**
 * Helpers of the wizard, build and image specs. Signing in goes through the real gateway's API (the
 * test kit's signup, then login) and stores the session the way the app does after a login (`token`
 * and `user` in local storage: docs/product.md#stored-in-the-browser) — these specs are about the
 * wizards, and the signup screen has its own spec.
 */
export async function signInThroughApi(page: Page): Promise<TestUser> {
  const user = await signUpAndLogIn(GATEWAY_URL, 'e2e');
  await page.goto('/');
  await page.evaluate(
    ([storedToken, storedUser]) => {
      localStorage.setItem('token', storedToken);
      localStorage.setItem('user', storedUser);
    },
    [user.token, JSON.stringify(user.profile)] as const,
  );
  return user;
}

const SCREENSHOTS = path.join(import.meta.dirname, '..', 'e2e-artifacts', 'screenshots');

/**
 * Saves a full-page screenshot in light and in dark theme (the theme class on <html>), from the
 * top of the page, once the colour transitions have settled.
 */
export async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate(
      (dark) => document.documentElement.classList.toggle('dark', dark),
      theme === 'dark',
    );
    await page.waitForTimeout(400);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${theme}.png`), fullPage: true });
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

/** Checks the screen fits a 360 px wide phone (no sideways scrolling) and saves it. */
export async function checkPhoneWidth(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 780 });
  await page.waitForTimeout(200);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${name} scrolls sideways at 360 px`).toBeLessThanOrEqual(0);
  await screenshotBothThemes(page, `${name}-360px`);
  if (size) await page.setViewportSize(size);
}

/** A small CSV the wizards upload: the gateway inspects it and the builder chunks it. */
export const SALES_CSV = {
  name: 'sales.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(
    [
      'region,product,quarter,revenue',
      'North,Widgets,Q1,12500',
      'North,Gadgets,Q1,8300',
      'South,Widgets,Q1,9900',
      'South,Gadgets,Q2,11200',
      'East,Widgets,Q2,7600',
      'West,Gadgets,Q2,13400',
    ].join('\n') + '\n',
  ),
};

/**
 * The RAG agent the build screen's specs start from, where the wizard ends: sales.csv,
 * Qdrant, Gemini (the key the LLM test server takes, or the spec's own) and gradio, configured
 * through the wizard's own API calls by the test kit.
 */
export function salesRagAgent(name: string, geminiKey = 'AIza-e2e-0123456789abcdef') {
  return {
    name,
    file: { name: SALES_CSV.name, content: SALES_CSV.buffer, type: SALES_CSV.mimeType },
    vectorStore: { vector_db: 'qdrant', url: 'http://localhost:6333' },
    llm: { provider: 'gemini', api_key: geminiKey, model_name: 'gemini-2.0-flash' },
    prompt: 'Answer from the sales table only.',
    ui: 'gradio',
  } satisfies RagAgentOptions;
}

/**
 * Holds an agent's next build at the stage that reads its uploaded file ('training embeddings'
 * for RAG) until `release()`, so a test can act mid-build without racing the builder. The upload
 * becomes a named pipe: the builder's read waits on it for a writer.
 *
 * The build's plan reads the file once before that, to fingerprint what the project ships: by
 * default that first read is fed the file at once, so only the stage's own read waits. A rebuild
 * that changes no knowledge (a prompt edit) has no stage of its own that reads the file: pass
 * `{ holdPlan: true }` to hold the plan's read instead, or the build would run on to the zip step
 * while the pipe is still in place.
 *
 * `release()` first puts a regular copy of the file back under the upload's name (the zip step
 * later reads it again, and refuses a pipe), then feeds the pipe through a second name, which
 * the builder's waiting read has already resolved. If the builder had not opened the pipe yet,
 * opening it for writing fails with ENXIO (no reader) and the builder reads the regular copy.
 */
export async function holdSourceRead(
  sessionId: string,
  { holdPlan = false }: { holdPlan?: boolean } = {},
): Promise<{ release: () => Promise<void> }> {
  const dir = path.join(E2E.dataDir, storeKeys.uploads(sessionId));
  const stored = await readdir(dir);
  expect(stored, 'one uploaded file').toHaveLength(1);
  const file = path.join(dir, stored[0]!);
  const content = await readFile(file);
  const pipe = path.join(dir, '.held-upload');
  await rm(file);
  execFileSync('mkfifo', [pipe]);
  await link(pipe, file);

  let released = false;
  const firstRead = holdPlan ? Promise.resolve() : feedFirstReader(pipe, content, () => released);
  return {
    async release() {
      if (released) return;
      released = true;
      await firstRead;
      const copy = path.join(dir, '.released-upload');
      await writeFile(copy, content);
      await rename(copy, file);
      const writer = await open(pipe, constants.O_WRONLY | constants.O_NONBLOCK).catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENXIO') return null;
          throw error;
        },
      );
      if (writer) {
        // A few hundred bytes: they fit the pipe's buffer, so a non-blocking write takes them all.
        await writer.writeFile(content);
        await writer.close();
      }
      await rm(pipe);
    },
  };
}

/** Waits for the first reader of a named pipe and hands it `content` whole (then EOF). */
async function feedFirstReader(pipe: string, content: Buffer, stop: () => boolean): Promise<void> {
  while (!stop()) {
    const writer = await open(pipe, constants.O_WRONLY | constants.O_NONBLOCK).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENXIO') return null;
        throw error;
      },
    );
    if (writer) {
      await writer.writeFile(content);
      await writer.close();
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
