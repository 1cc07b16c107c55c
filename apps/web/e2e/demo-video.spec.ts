import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { uniqueUser } from './support';

/**
 * Records the landing page's demo video from the real product: a tour through signup, the key
 * vault and a RAG agent built from a CSV, captured as screenshots and joined with ffmpeg into
 * public/media/agentloom-demo.mp4 (plus the poster image). Not part of the normal suite:
 *
 *   RECORD_DEMO=1 npx playwright test e2e/demo-video.spec.ts
 */
test.skip(!process.env.RECORD_DEMO, 'records the demo video only when RECORD_DEMO=1');

const FRAMES = path.join(import.meta.dirname, '..', 'e2e-artifacts', 'demo-frames');
const MEDIA = path.join(import.meta.dirname, '..', 'public', 'media');
const SIZE = { width: 1280, height: 720 };

type Frame = { file: string; at: number };

/** Takes screenshots back to back until stopped; each frame lasts until the next one. */
function startRecorder(page: Page) {
  const frames: Frame[] = [];
  let running = true;
  let counter = 0;
  const loop = (async () => {
    while (running) {
      const file = path.join(FRAMES, `frame-${String(counter++).padStart(5, '0')}.jpg`);
      try {
        await page.screenshot({ path: file, type: 'jpeg', quality: 85 });
        frames.push({ file, at: Date.now() });
      } catch {
        // A navigation in progress; the next frame will catch up.
      }
      await new Promise((resolve) => setTimeout(resolve, 120));
    }
  })();
  return {
    async stop(): Promise<Frame[]> {
      running = false;
      await loop;
      return frames;
    },
  };
}

/** Lets a screen stay on the video long enough to read. */
const hold = (page: Page, ms: number) => page.waitForTimeout(ms);

test('record the demo video', async ({ page }) => {
  test.setTimeout(300_000);
  rmSync(FRAMES, { recursive: true, force: true });
  mkdirSync(FRAMES, { recursive: true });
  mkdirSync(MEDIA, { recursive: true });
  await page.setViewportSize(SIZE);

  await page.goto('/');
  await expect(page.getByTestId('hero-phrase')).toBeVisible();
  const recorder = startRecorder(page);

  // 1. The landing page and how it works.
  await hold(page, 3500);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'How it works' })
    .click();
  await hold(page, 2500);

  // 2. Sign up (the app logs in automatically).
  const user = uniqueUser();
  await page.goto('/signup');
  await page
    .getByLabel('Username')
    .pressSequentially('ada_lovelace_' + user.username.slice(-4), { delay: 40 });
  await page.getByLabel('Email').pressSequentially(user.email, { delay: 25 });
  await page
    .getByLabel('Password', { exact: true })
    .pressSequentially(user.password, { delay: 25 });
  await page.getByLabel('Confirm Password').pressSequentially(user.password, { delay: 25 });
  await hold(page, 500);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/dashboard');
  await hold(page, 2500);
  // The poster: the dashboard overview, toasts gone.
  await expect(page.getByText('Logged in successfully')).toBeHidden({ timeout: 10_000 });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(FRAMES, 'poster.png') });

  // 3. Store an OpenAI key in the vault.
  await page.getByRole('button', { name: /API Keys/ }).click();
  await hold(page, 800);
  await page.getByRole('button', { name: 'Add API Key' }).click();
  await page.getByLabel('Provider').selectOption('openai');
  await page.getByLabel('Name (optional)').pressSequentially('Team OpenAI key', { delay: 40 });
  await page
    .getByLabel('API Key', { exact: true })
    .pressSequentially(`sk-proj-${randomBytes(12).toString('hex')}`, { delay: 15 });
  await page.getByRole('button', { name: 'Save Key' }).click();
  await expect(page.getByText('API key added')).toBeVisible();
  await hold(page, 1200);
  await page.getByRole('button', { name: /^Reveal .* key$/ }).click();
  await hold(page, 1500);
  await page.getByRole('button', { name: /^Hide .* key$/ }).click();
  await page.getByRole('button', { name: 'Back to Dashboard' }).click();
  await hold(page, 800);

  // 4. A RAG agent over a CSV file, through the wizard.
  await page.getByRole('link', { name: /Create New Agent/ }).click();
  await hold(page, 1800);
  await page.getByRole('link', { name: /RAG Agent/ }).click();
  const badge = (step: number) => page.getByText(`Step ${step} of 9`, { exact: true });
  await expect(badge(1)).toBeVisible();
  await page
    .getByPlaceholder('Enter a unique name for your agent')
    .pressSequentially('Sales insights bot', { delay: 50 });
  await hold(page, 500);
  await page.getByRole('button', { name: 'Create & Continue' }).click();
  await expect(badge(2)).toBeVisible();
  await hold(page, 1200);
  await page.getByRole('button', { name: /^CSV/ }).click();
  await expect(badge(3)).toBeVisible();
  await page.getByLabel('Source File').setInputFiles({
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
      ].join('\n'),
    ),
  });
  await hold(page, 800);
  await page.getByRole('button', { name: 'Upload & Continue' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Read / })).toBeVisible();
  await hold(page, 1200);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(badge(4)).toBeVisible();
  await hold(page, 800);
  await page.getByLabel('Embedding Model').selectOption('all-MiniLM-L6-v2');
  await expect(badge(5)).toBeVisible();
  await hold(page, 800);
  await page.getByRole('button', { name: /^ChromaDB/ }).click();
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByLabel('Database URL').fill('');
  await page.getByLabel('Database URL').pressSequentially('http://localhost:8001', { delay: 30 });
  await hold(page, 600);
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(badge(6)).toBeVisible();
  await page.getByLabel('LLM Provider').selectOption('openai');
  await expect(page.getByLabel('Saved Key', { exact: true })).toBeVisible();
  await page.getByLabel('Model').selectOption('gpt-4o-mini');
  await hold(page, 1200);
  await page.getByRole('button', { name: 'Connect & Continue' }).click();
  await expect(badge(7)).toBeVisible();
  await page.getByRole('button', { name: /^Helpful assistant/ }).click();
  await hold(page, 1200);
  await page.getByRole('button', { name: 'Save Prompt & Continue' }).click();
  await expect(badge(8)).toBeVisible();
  await hold(page, 1500);
  await page.getByRole('button', { name: /^Streamlit/ }).click();
  await expect(badge(9)).toBeVisible();
  await hold(page, 2500);

  // 5. Build: the live stages, then the finished project.
  await page.getByRole('button', { name: 'Build & Deploy RAG Agent' }).click();
  await page.waitForURL('**/build/rag/**');
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 90_000,
  });
  await hold(page, 3000);
  await page.getByRole('link', { name: 'Back to Dashboard' }).click();
  await page.getByRole('button', { name: /My Agents/ }).click();
  await hold(page, 3000);

  const frames = await recorder.stop();
  expect(frames.length).toBeGreaterThan(50);

  // ffmpeg's concat list: every frame shown until the next was taken.
  const list = frames
    .map((frame, i) => {
      const next = frames[i + 1]?.at ?? frame.at + 1500;
      return `file '${frame.file}'\nduration ${((next - frame.at) / 1000).toFixed(3)}`;
    })
    .join('\n');
  const listFile = path.join(FRAMES, 'frames.txt');
  writeFileSync(listFile, `${list}\nfile '${frames.at(-1)!.file}'\n`);
  const ffmpeg = (args: string[]) => execFileSync('ffmpeg', ['-y', '-loglevel', 'error', ...args]);
  ffmpeg([
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    listFile,
    '-vf',
    'fps=25,scale=1280:720:flags=lanczos,format=yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'slow',
    '-crf',
    '30',
    '-movflags',
    '+faststart',
    '-an',
    path.join(MEDIA, 'agentloom-demo.mp4'),
  ]);
  const poster = path.join(FRAMES, 'poster.png');
  ffmpeg(['-i', poster, '-q:v', '5', path.join(MEDIA, 'agentloom-demo-poster.jpg')]);
  ffmpeg([
    '-i',
    poster,
    '-vf',
    'scale=640:-2',
    '-q:v',
    '5',
    path.join(MEDIA, 'agentloom-demo-poster-640.jpg'),
  ]);
  for (const width of [640, 960, 1280]) {
    ffmpeg([
      '-i',
      poster,
      '-vf',
      `scale=${width}:-2`,
      '-c:v',
      'libwebp',
      '-quality',
      '72',
      path.join(MEDIA, `agentloom-demo-poster-${width}.webp`),
    ]);
  }
});
