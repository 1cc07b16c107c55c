import { addVaultKey, configureRagAgent } from '@agentloom/test-kit';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { GATEWAY_URL } from '../playwright.config';
import { SALES_CSV, salesRagAgent, signInThroughApi } from './wizard-support';

/**
 * A first-time owner's first hour (issue 43, items 6 and 8), on a desktop and on a 375 px phone:
 * a dashboard whose sample activity says it is a sample, an upload that says what it read, an
 * embedding model saved as it is chosen (SPEC.md), step chips that keep the current step, and an
 * import that uses the vault.
 */
const SCREENSHOTS = path.join(import.meta.dirname, '..', 'e2e-artifacts', 'screenshots');
const WIDTHS = [1280, 375] as const;

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
}

const badge = (page: Page, step: number) => page.getByText(`Step ${step} of 9`, { exact: true });

/** Whether a card's tick and the words of its name share any pixel (the words, not their box). */
async function tickCoversName(card: Locator, name: string): Promise<boolean> {
  return card.evaluate((element, label) => {
    const tick = element.querySelector('svg')?.getBoundingClientRect();
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let node = walker.nextNode();
    while (node && node.textContent !== label) node = walker.nextNode();
    if (!tick || !node) throw new Error('no tick or no name');
    const range = document.createRange();
    range.selectNodeContents(node);
    const text = range.getBoundingClientRect();
    return (
      tick.left < text.right &&
      text.left < tick.right &&
      tick.top < text.bottom &&
      text.top < tick.bottom
    );
  }, name);
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 400 ? 800 : 812 } });

    test('a new account’s Recent Activity shows SPEC’s sample entries, labelled as samples', async ({
      page,
    }) => {
      await signInThroughApi(page);
      await page.goto('/dashboard');
      const activity = page.getByRole('region', { name: 'Recent Activity' });
      await expect(activity.getByText('Sample data', { exact: true })).toBeVisible();
      await expect(
        activity.getByText('Example entries showing what this panel will track.'),
      ).toBeVisible();
      await expect(activity.getByRole('listitem')).toHaveCount(5);
      await expect(activity.getByRole('listitem').first()).toContainText(
        'Created RAG agent "Support Knowledge Base"',
      );
      await shot(page, 'first-hour-dashboard-sample');
    });

    test('the upload says what it read and waits; choosing the embedding saves it and advances; the current step chip and the store ticks stay clear', async ({
      page,
    }) => {
      const saves: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') saves.push(new URL(request.url()).pathname);
      });
      await signInThroughApi(page);
      await page.goto('/pipeline/rag');
      await page.getByPlaceholder('Enter a unique name for your agent').fill('First hour bot');
      await page.getByRole('button', { name: 'Create & Continue' }).click();
      await page.getByRole('button', { name: /^CSV/ }).click();
      await expect(badge(page, 3)).toBeVisible();

      // Item 6: a good upload is confirmed on the step, with the sample, before moving on.
      await page.getByLabel('Source File').setInputFiles(SALES_CSV);
      await page.getByRole('button', { name: 'Upload & Continue' }).click();
      const read = page.getByRole('status').filter({ hasText: 'Read 6 rows, 4 columns' });
      await expect(read).toContainText('From sales.csv.');
      await expect(badge(page, 3)).toBeVisible();
      await expect(page.getByRole('region', { name: 'Your data' })).toContainText('North');
      await shot(page, 'first-hour-upload-read');
      await page.getByRole('button', { name: 'Continue', exact: true }).click();
      await expect(badge(page, 4)).toBeVisible();

      // Item 8: the current step's chip is listed at every width.
      const steps = page.getByRole('list', { name: 'Steps' });
      await expect(steps.locator('[aria-current="step"]')).toBeVisible();
      await expect(steps.locator('[aria-current="step"]')).toContainText('Embedding');

      // SPEC.md, RAG step 4: choosing a model saves it and advances, showing "Setting up embedding
      // model..." while it is saved. The save is held here so that the message can be seen.
      await expect(page.getByRole('button', { name: 'Use this model' })).toHaveCount(0);
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/embeddings/model', async (route) => {
        await held;
        await route.continue();
      });
      const embedding = page.getByLabel('Embedding Model');
      await embedding.selectOption('bge-small-en');
      await expect(
        page.getByRole('status').filter({ hasText: 'Setting up embedding model...' }),
      ).toBeVisible();
      await expect(embedding).toBeDisabled();
      await shot(page, 'first-hour-embedding-saving');
      release();
      await expect(badge(page, 5)).toBeVisible();
      expect(saves.filter((p) => p.endsWith('/embeddings/model'))).toHaveLength(1);
      await expect(steps.locator('[aria-current="step"]')).toContainText('Vector Store');

      // Item 8: the chosen card's tick does not cover the store's name.
      const chroma = page.getByRole('button', { name: /^ChromaDB/ });
      await chroma.click();
      await expect(chroma).toHaveAttribute('aria-pressed', 'true');
      expect(await tickCoversName(chroma, 'ChromaDB')).toBe(false);
      await shot(page, 'first-hour-vector-store');
    });

    test('an import uses the key already in the vault for its provider instead of asking again', async ({
      page,
    }) => {
      // Alice's agent, exported as My Agents exports it.
      const alice = await signInThroughApi(page);
      const id = await configureRagAgent(
        GATEWAY_URL,
        alice,
        salesRagAgent(`Vault import ${width}`),
      );
      const exported = await fetch(`${GATEWAY_URL}/pipelines/${id}/export`, {
        headers: { Authorization: `Bearer ${alice.token}` },
      });
      expect(exported.status).toBe(200);
      const zip = Buffer.from(await exported.arrayBuffer());

      // Bob keeps a Gemini key in his vault.
      const bob = await signInThroughApi(page);
      const keyId = await addVaultKey(GATEWAY_URL, bob, {
        provider: 'gemini',
        key: 'AIza-e2e-bob-0123456789abcdef',
        name: 'Bob’s Gemini',
      });
      await page.goto('/dashboard');
      await page.getByRole('button', { name: /My Agents/ }).click();
      await page.getByRole('button', { name: 'Import agent' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import agent' });
      await dialog.getByLabel('Agent file').setInputFiles({
        name: 'vault-import.agentloom.zip',
        mimeType: 'application/zip',
        buffer: zip,
      });
      await expect(dialog.getByLabel('Agent name')).toHaveValue(`Vault import ${width}`);
      const key = dialog.getByLabel('Gemini API key');
      await expect(key).toHaveValue(keyId);
      await expect(key.locator('option:checked')).toContainText('Saved key “Bob’s Gemini”');
      await expect(dialog.locator('input[type="password"]')).toHaveCount(0);
      await shot(page, 'first-hour-import-vault-key');
      await dialog.getByRole('button', { name: 'Import agent' }).click();
      await expect(page).toHaveURL(/\/pipeline\/rag/);

      const listed = await fetch(`${GATEWAY_URL}/pipelines`, {
        headers: { Authorization: `Bearer ${bob.token}` },
      });
      const [copy] = (await listed.json()) as { id: string }[];
      const detail = await fetch(`${GATEWAY_URL}/pipelines/${copy!.id}`, {
        headers: { Authorization: `Bearer ${bob.token}` },
      });
      const { config } = (await detail.json()) as { config: { llm: { api_key_id: string } } };
      expect(config.llm.api_key_id).toBe(keyId);
    });
  });
}
