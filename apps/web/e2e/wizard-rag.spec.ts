import { RAG_BUILD_STAGES, stageLabel } from '@agentloom/contracts';
import { expect, test } from '@playwright/test';
import { addVaultKey, projectFiles } from '@agentloom/test-kit';
import { randomBytes } from 'node:crypto';
import { GATEWAY_URL } from '../playwright.config';
import {
  checkPhoneWidth,
  SALES_CSV,
  screenshotBothThemes,
  signInThroughApi,
} from './wizard-support';

test('RAG wizard: CSV upload through all nine steps, live build, download, live preview', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await signInThroughApi(page);
  const vaultKey = `sk-e2e-${randomBytes(16).toString('hex')}`;
  await addVaultKey(GATEWAY_URL, user, { provider: 'openai', name: 'E2E team key', key: vaultKey });

  await page.goto('/pipeline/rag');
  const badge = (step: number) => page.getByText(`Step ${step} of 9`, { exact: true });
  await expect(badge(1)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Create & Continue' })).toBeDisabled();
  await page.getByPlaceholder('Enter a unique name for your agent').fill('Sales docs bot');
  await screenshotBothThemes(page, 'rag-wizard-1-name');
  await page.getByRole('button', { name: 'Create & Continue' }).click();

  await expect(badge(2)).toBeVisible();
  const sessionId = await page.evaluate(() => localStorage.getItem('session_id'));
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  await screenshotBothThemes(page, 'rag-wizard-2-source');
  await checkPhoneWidth(page, 'rag-wizard-2-source');
  await page.getByRole('button', { name: /^CSV/ }).click();

  await expect(badge(3)).toBeVisible();
  await expect(page.getByText('Supports: PDF, CSV, TXT, Excel files')).toBeVisible();
  await page.getByLabel('Source File').setInputFiles(SALES_CSV);
  await page.getByRole('button', { name: 'Upload & Continue' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Read 6 rows, 4 columns' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(badge(4)).toBeVisible();
  await page.getByLabel('Embedding Model').selectOption('all-MiniLM-L6-v2');

  await expect(badge(5)).toBeVisible();
  await page.getByRole('button', { name: /^ChromaDB/ }).click();
  // The vector-store choice is saved but the wizard stays for its settings.
  // Its settings come filled in (the generated project's own ChromaDB, the embedding model's
  // size) and sit folded under Advanced.
  await expect(page.getByText('Advanced', { exact: true })).toBeVisible();
  await expect(badge(5)).toBeVisible();
  await expect(page.getByLabel('Database URL')).toBeHidden();
  await page.getByText('Advanced', { exact: true }).click();
  await expect(page.getByLabel('Database URL')).toHaveValue('http://chromadb:8000');
  await expect(page.getByPlaceholder('384')).toHaveValue('384');
  await page.getByLabel('Distance Metric').selectOption({ label: 'Dot Product' });
  await screenshotBothThemes(page, 'rag-wizard-5-vector-store');
  await page.getByRole('button', { name: 'Save & Continue' }).click();

  await expect(badge(6)).toBeVisible();
  await page.getByLabel('LLM Provider').selectOption('openai');
  // The provider is saved at once; the vault's OpenAI key is offered.
  await expect(page.getByLabel('Saved Key', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Saved Key', { exact: true })).toContainText('E2E team key');
  await expect(badge(6)).toBeVisible();
  await page.getByLabel('Model').selectOption('gpt-4o-mini');
  await screenshotBothThemes(page, 'rag-wizard-6-llm');
  await checkPhoneWidth(page, 'rag-wizard-6-llm');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();

  await expect(badge(7)).toBeVisible();
  await page.getByRole('button', { name: 'Save Prompt & Continue' }).click();
  await expect(page.getByText('Please write or select a system prompt.')).toBeVisible();
  await page.getByRole('button', { name: /^Helpful assistant/ }).click();
  await expect(page.getByText(/^\d+ \/ 8000 characters$/)).toBeVisible();
  await screenshotBothThemes(page, 'rag-wizard-7-prompt');
  await page.getByRole('button', { name: 'Save Prompt & Continue' }).click();

  await expect(badge(8)).toBeVisible();
  await screenshotBothThemes(page, 'rag-wizard-8-ui');
  await page.getByRole('button', { name: /^Streamlit/ }).click();

  await expect(badge(9)).toBeVisible();
  await expect(page.getByText('CSV · sales.csv')).toBeVisible();
  await expect(page.getByText('all-MiniLM-L6-v2')).toBeVisible();
  await expect(page.getByText('gpt-4o-mini')).toBeVisible();
  await expect(page.getByText('This may take a few minutes to complete')).toBeVisible();
  await screenshotBothThemes(page, 'rag-wizard-9-build');
  // What the build screen hears on the /builds namespace: the snapshot, then live events.
  const heard: string[] = [];
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => heard.push(String(payload))),
  );
  await page.getByRole('button', { name: 'Build & Deploy RAG Agent' }).click();

  await expect(page.getByText('RAG agent build started!')).toBeVisible();
  await page.waitForURL(`**/build/rag/${sessionId}`);
  const stages = page.getByRole('list', { name: 'Build stages' });
  await expect(stages.getByRole('listitem')).toHaveCount(RAG_BUILD_STAGES.length);
  for (const stage of RAG_BUILD_STAGES) {
    await expect(stages.getByText(stageLabel(stage))).toBeVisible();
  }
  // The stages are reached, not just listed: the first is under way or done, whenever the
  // screen caught the build.
  await expect(stages.getByRole('listitem').first()).toContainText(/\((in progress|done)\)/);
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(stages.getByRole('listitem').filter({ hasText: '(done)' })).toHaveCount(
    RAG_BUILD_STAGES.length,
  );
  await expect(page.getByRole('progressbar', { name: 'Build progress' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );
  await screenshotBothThemes(page, 'rag-build-completed');
  const snapshotFrame = heard.find((frame) => frame.includes('build:snapshot'));
  expect(snapshotFrame, 'the build screen subscribed over Socket.IO').toBeDefined();
  // What the screen knew when it subscribed decides what it must have heard live after:
  // a build that had already ended is reported by its snapshot alone; one whose stages were all
  // done but not yet marked Built only has its completion left to hear.
  const snapshot = snapshotBuild(snapshotFrame ?? '');
  if (snapshot?.status !== 'Built') {
    expect(heard.some((frame) => frame.includes('build:completed'))).toBe(true);
    if ((snapshot?.stages.length ?? 0) < RAG_BUILD_STAGES.length) {
      expect(heard.some((frame) => frame.includes('build:stage'))).toBe(true);
    }
  }
  testInfo.annotations.push({
    type: 'live events',
    description: `${heard.filter((frame) => frame.includes('build:stage')).length} build:stage frames`,
  });
  await checkPhoneWidth(page, 'rag-build-completed');

  // A reload shows the server's state, not a restarted animation.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download Code' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`rag-agent-${sessionId}.zip`);
  const zipPath = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(zipPath);
  // The project sits in one top-level folder; compare the paths inside it.
  const files = await projectFiles(zipPath);
  for (const required of [
    'app.py',
    'agent.json',
    'requirements.txt',
    'Dockerfile',
    'docker-compose.yml',
    '.env.example',
    '.github/workflows/ci.yml',
    'README.md',
  ]) {
    expect(files, `${required} in the zip`).toContain(required);
  }
  expect(files.some((file) => file.startsWith('tests/'))).toBe(true);

  // The preview: the real agent over this CSV, served by the gateway in a frame, with the
  // vault key going to the (local, OpenAI-compatible) provider and never to the browser.
  const previewBodies: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/p/')) {
      response.text().then(
        (body) => previewBodies.push(body),
        () => undefined,
      );
    }
  });
  await page.getByRole('button', { name: 'Preview' }).click();
  const frame = page.frameLocator('iframe[title="RAG Agent Preview"]');
  await expect(frame.getByRole('heading', { level: 1, name: 'Sales docs bot' })).toBeVisible();
  // No model weights can be downloaded here: the page says it answers with keyword search
  // above the chat, where people look (issue 30), and again under Details.
  await expect(frame.locator('#notice')).toContainText(/keyword \(full-text\) search/);
  await frame.getByText('Details', { exact: true }).click();
  await expect(
    frame.getByRole('definition').filter({ hasText: /keyword \(full-text\) search/ }),
  ).toBeVisible();
  await frame.getByLabel('Your question').fill('What revenue did the West region make?');
  await frame.getByRole('button', { name: 'Submit' }).click();
  const answer = frame.locator('.message.assistant').last();
  await expect(answer).toContainText('13400');
  await expect(answer.getByText('sales.csv, row 7')).toBeVisible();
  await expect(answer).not.toHaveAttribute('aria-busy', 'true');
  expect(previewBodies.length).toBeGreaterThan(0);
  for (const body of previewBodies) expect(body).not.toContain(vaultKey);
  await screenshotBothThemes(page, 'rag-build-preview');
});

test('RAG wizard: validation messages and the Previous button', async ({ page }) => {
  await signInThroughApi(page);
  await page.goto('/pipeline/rag');
  await page.getByPlaceholder('Enter a unique name for your agent').fill('   ');
  await page.getByRole('button', { name: 'Create & Continue' }).click();
  await expect(page.getByText('Agent name and type are required.')).toBeVisible();
  await expect(page.getByText('Step 1 of 9', { exact: true })).toBeVisible();

  await page.getByPlaceholder('Enter a unique name for your agent').fill('Validation bot');
  await page.getByRole('button', { name: 'Create & Continue' }).click();
  await page.getByRole('button', { name: /^Postgres/ }).click();
  await expect(page.getByText('Step 3 of 9', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Connect & Continue' }).click();
  await expect(
    page.getByText('Please fill out URI, database name, and table/collection.'),
  ).toBeVisible();

  // An unreachable database is refused by the gateway; its reason is shown too. (The URI is the
  // alternative to the host, user and password fields.)
  await page.getByRole('button', { name: 'Paste a connection URI' }).click();
  await page.getByLabel('Connection URI').fill('postgresql://nobody:secret@127.0.0.1:1/none');
  await page.getByLabel('Database Name').fill('none');
  await page.getByLabel('Table / Collection').fill('orders');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();
  await expect(page.getByText('DB configuration failed.')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Step 3 of 9', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText('Step 2 of 9', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByText('Step 1 of 9', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
});

test('an unknown pipeline type shows Invalid pipeline type.', async ({ page }) => {
  await signInThroughApi(page);
  await page.goto('/pipeline/xyz');
  await expect(page.getByText('Invalid pipeline type.')).toBeVisible();
});

/** The build inside a Socket.IO `build:snapshot` frame (`42/builds,["build:snapshot",{…}]`). */
function snapshotBuild(frame: string): { status: string; stages: unknown[] } | null {
  const [, body] = JSON.parse(frame.slice(frame.indexOf('['))) as [
    string,
    { build: { status: string; stages: unknown[] } | null },
  ];
  return body.build;
}
