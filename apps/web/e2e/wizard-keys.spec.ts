import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { configureRagAgent, startBuild } from '@agentloom/test-kit';
import { GATEWAY_URL, LLM_URL } from '../playwright.config';
import { salesRagAgent, signInThroughApi } from './wizard-support';

/**
 * The provider stand-in refuses a key from now on, as a provider refuses a revoked key: on its
 * list-models call and on chat calls alike.
 */
async function revokeAtProvider(request: APIRequestContext, key: string): Promise<void> {
  const answer = await request.post(`${LLM_URL}/_test/rejected-keys`, { data: { key } });
  expect(answer.ok()).toBe(true);
}

const uniqueKey = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

test('LLM step: a refused key is explained beside it; a good key brings the live models', async ({
  page,
  request,
}) => {
  const user = await signInThroughApi(page);
  const sessionId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Key check bot'));
  const refused = uniqueKey('sk-refused-');
  await revokeAtProvider(request, refused);

  await page.goto(`/pipeline/rag/${sessionId}?step=6`);
  const badge = (step: number) => page.getByText(`Step ${step} of 9`, { exact: true });
  await expect(badge(6)).toBeVisible();
  await page.getByLabel('LLM Provider').selectOption('openai');
  await page.getByLabel('API Key', { exact: true }).fill(refused);
  await page.getByLabel('Model').selectOption('gpt-4o-mini');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();

  // The provider's verdict, beside the field, and the wizard stays on the step.
  const verdict = page.getByRole('alert').filter({ hasText: 'rejected this key' });
  await expect(verdict).toHaveText(/^OpenAI rejected this key\./);
  await expect(page.getByLabel('API Key', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(badge(6)).toBeVisible();
  await expect(page.getByText('api_key')).toHaveCount(0);

  // A key the provider takes: its own model list fills the dropdown.
  await page.getByLabel('API Key', { exact: true }).fill(uniqueKey('sk-good-'));
  await page.getByRole('button', { name: 'Check key' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toHaveText(
    /^Connected — \d+ models available$/,
  );
  const model = page.getByLabel('Model');
  // gpt-4.1-nano is not in the catalogue: only the provider's live list can have put it there.
  await expect(model.locator('option', { hasText: 'gpt-4.1-nano' })).toHaveCount(1);
  await model.selectOption('gpt-4.1-nano');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();
  await expect(badge(7)).toBeVisible();
});

/** The question box inside the preview frame is on screen, with the frame not scrolled. */
async function questionBoxInView(page: Page): Promise<void> {
  await page
    .frameLocator('iframe[title="RAG Agent Preview"]')
    .getByLabel('Your question')
    .waitFor();
  const frame = page.frames().find((candidate) => candidate.url().includes('/p/'));
  expect(frame, 'the preview frame').toBeDefined();
  const view = await frame!.evaluate(() => {
    const box = document.getElementById('question')!.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, height: innerHeight, scrolled: scrollY };
  });
  expect(view.scrolled).toBe(0);
  expect(view.top).toBeGreaterThanOrEqual(0);
  expect(view.bottom).toBeLessThanOrEqual(view.height);
}

test('preview: a refused key in plain words with the way to fix it, no sources, and the question box in view on a phone', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await signInThroughApi(page);
  const key = uniqueKey('AIza-revoked-');
  const sessionId = await configureRagAgent(
    GATEWAY_URL,
    user,
    salesRagAgent('Revoked key bot', key),
  );
  expect((await startBuild(GATEWAY_URL, user, sessionId)).status).toBe(200);
  await page.goto(`/build/rag/${sessionId}`);
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  // The key worked when the agent was built; the owner has revoked it since.
  await revokeAtProvider(request, key);

  await page.getByRole('button', { name: 'Preview' }).click();
  const frame = page.frameLocator('iframe[title="RAG Agent Preview"]');
  await frame.getByLabel('Your question').fill('What revenue did the West region make?');
  await frame.getByRole('button', { name: 'Submit' }).click();
  const answer = frame.locator('.message.assistant').last();
  await expect(answer).not.toHaveAttribute('aria-busy', 'true');
  await expect(answer.getByRole('alert')).toContainText('Gemini rejected your key — update it.');
  const fix = answer.getByRole('link', { name: 'Update the key' });
  await expect(fix).toHaveAttribute('href', new RegExp(`/pipeline/rag/${sessionId}\\?step=6$`));
  // The same revoked key would fail again: the fix is offered, not a retry (issue 30).
  await expect(answer.getByRole('button', { name: 'Try again' })).toHaveCount(0);
  // The technical text is folded; no sources under an answer that failed.
  await expect(answer.getByText('The provider rejected the API key (400).')).toBeHidden();
  await expect(answer.getByText(/^Sources/)).toHaveCount(0);
  await expect(answer).not.toContainText(key);

  // The fix leads to the agent's LLM step in the app.
  await fix.click();
  await expect(page.getByText('Step 6 of 9', { exact: true })).toBeVisible();

  // On a phone, the question box shows without scrolling inside the preview.
  await page.setViewportSize({ width: 375, height: 667 });
  await page.goto(`/build/rag/${sessionId}`);
  await page.getByRole('button', { name: 'Preview' }).click();
  await questionBoxInView(page);
});
