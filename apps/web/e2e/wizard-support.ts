import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { constants, mkdirSync } from 'node:fs';
import { link, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import { E2E, GATEWAY_URL } from '../playwright.config';
import { uniqueUser } from './support';

/**
 * Helpers of the wizard, build and image specs. Signing in goes through the real gateway's API
 * (signup, then login) and stores the session the way the app does after a login (SPEC §3:
 * `token` and `user` in local storage) — these specs are about the wizards, and the signup
 * screen has its own spec.
 */
export async function signInThroughApi(
  page: Page,
  request: APIRequestContext,
): Promise<{ token: string; email: string }> {
  const user = uniqueUser();
  const signup = await request.post(`${GATEWAY_URL}/auth/signup`, {
    data: { ...user, confirm_password: user.password },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const login = await request.post(`${GATEWAY_URL}/auth/login`, {
    data: { email: user.email, password: user.password },
  });
  expect(login.ok()).toBe(true);
  const { access_token: token, user: publicUser } = (await login.json()) as {
    access_token: string;
    user: unknown;
  };
  await page.goto('/');
  await page.evaluate(
    ([storedToken, storedUser]) => {
      localStorage.setItem('token', storedToken);
      localStorage.setItem('user', storedUser);
    },
    [token, JSON.stringify(publicUser)] as const,
  );
  return { token, email: user.email };
}

/** Stores a key in the user's vault, as the dashboard's keys view would. */
export async function addVaultKey(
  request: APIRequestContext,
  token: string,
  key: { provider: string; key: string; name?: string },
): Promise<string> {
  const answer = await request.post(`${GATEWAY_URL}/apikeys`, {
    data: key,
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { id: string }).id;
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

/** The entries of a zip file, read with yauzl (no extraction). */
export function zipEntries(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
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
 * A RAG agent configured through the wizard's own API calls (SPEC §7), ready to build: for specs
 * about the build screen, which start where the wizard ends.
 */
export async function configureRagAgentThroughApi(
  request: APIRequestContext,
  token: string,
  name: string,
  geminiKey = 'AIza-e2e-0123456789abcdef',
): Promise<string> {
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post(`${GATEWAY_URL}/pipelines`, {
    headers,
    data: { name, agent_type: 'rag' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const sessionId = ((await created.json()) as { session_id: string }).session_id;
  const form = (path: string, fields: Record<string, string>) =>
    request.post(`${GATEWAY_URL}${path}`, { headers, form: { session_id: sessionId, ...fields } });
  const steps = [
    () => form('/rag/api/source', { source_type: 'csv' }),
    () =>
      request.post(`${GATEWAY_URL}/rag/api/source/upload`, {
        headers,
        multipart: { session_id: sessionId, file: SALES_CSV },
      }),
    () => form('/rag/api/embeddings/model', { model_name: 'all-MiniLM-L6-v2' }),
    () => form('/rag/api/vectordb', { vector_db: 'qdrant' }),
    () =>
      form('/rag/api/vectordb/credentials/local', {
        vector_db: 'qdrant',
        url: 'http://localhost:6333',
      }),
    () => form('/rag/api/llm/provider', { provider: 'gemini' }),
    () =>
      form('/rag/api/llm/credentials', {
        api_key: geminiKey,
        model_name: 'gemini-2.0-flash',
      }),
    () => form('/rag/api/system-prompt', { prompt: 'Answer from the sales table only.' }),
    () => form('/rag/api/ui', { ui: 'gradio' }),
  ];
  for (const step of steps) {
    const answer = await step();
    expect(answer.status(), await answer.text()).toBe(200);
  }
  return sessionId;
}

/** Starts the build the way the wizard's last step does. */
export async function startRagBuildThroughApi(
  request: APIRequestContext,
  token: string,
  sessionId: string,
): Promise<void> {
  const answer = await request.post(`${GATEWAY_URL}/rag/api/build/agent`, {
    headers: { Authorization: `Bearer ${token}` },
    form: { session_id: sessionId },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

/**
 * Holds an agent's next build at the stage that reads its uploaded file ('training embeddings'
 * for RAG) until `release()`, so a test can act mid-build without racing the builder. The upload
 * becomes a named pipe: the builder's read waits on it for a writer.
 *
 * `release()` first puts a regular copy of the file back under the upload's name (the zip step
 * later reads it again, and refuses a pipe), then feeds the pipe through a second name, which
 * the builder's waiting read has already resolved. If the builder had not opened the pipe yet,
 * opening it for writing fails with ENXIO (no reader) and the builder reads the regular copy.
 */
export async function holdSourceRead(sessionId: string): Promise<{ release: () => Promise<void> }> {
  const dir = path.join(E2E.dataDir, 'uploads', sessionId);
  const stored = await readdir(dir);
  expect(stored, 'one uploaded file').toHaveLength(1);
  const file = path.join(dir, stored[0]!);
  const content = await readFile(file);
  const pipe = path.join(dir, '.held-upload');
  await rm(file);
  execFileSync('mkfifo', [pipe]);
  await link(pipe, file);

  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
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

/** The text of one file of a zip, found by its path inside the project's top-level folder. */
export function zipText(file: string, inner: string): Promise<string> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.replace(/^[^/]+\//, '') !== inner) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
        });
      });
      zip.on('end', () => reject(new Error(`${inner} is not in ${file}`)));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}
