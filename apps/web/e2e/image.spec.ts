import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { WEB_URL } from '../playwright.config';
import { screenshotBothThemes, signInThroughApi } from './wizard-support';

const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

test('image agent: launch, preview, generate with a Gemini key, download, then edit', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInThroughApi(page);
  await page.goto('/build/image');
  await expect(page.getByRole('heading', { name: 'AI Image Generation Agent' })).toBeVisible();
  for (const step of [
    'Set a Gemini API key',
    'Describe, run and download',
    'Upload and describe edits',
  ]) {
    await expect(page.getByRole('heading', { name: step })).toBeVisible();
  }
  await screenshotBothThemes(page, 'image-agent');

  await page.getByRole('button', { name: 'Launch Image Generator' }).click();
  await expect(page.getByRole('heading', { name: 'Image Agent Ready!' })).toBeFocused();
  const tab = page.getByRole('link', { name: 'Open in New Tab' });
  await expect(tab).toHaveAttribute('href', new RegExp(`^${WEB_URL}/p/[A-Za-z0-9_-]{43}/$`));

  await page.getByRole('button', { name: 'Preview Agent' }).click();
  await expect(page.getByRole('heading', { name: 'Image Agent Preview' })).toBeFocused();
  const frameElement = page.getByTitle('Image Agent Preview');
  await expect(frameElement).toHaveAttribute('sandbox', /allow-scripts/);
  const frame = page.frameLocator('iframe[title="Image Agent Preview"]');
  await expect(
    frame.getByRole('heading', { level: 1, name: 'AI Image Generation Agent' }),
  ).toBeVisible();

  // Generate: the gateway calls the (local, Gemini-compatible) image API with the typed key.
  await frame.getByLabel('Gemini API key').fill('AIzaSy-e2e-typed-key-0123456789abcdef');
  await frame.getByLabel('Description').fill('A lighthouse at dusk, watercolour');
  await frame.getByRole('button', { name: 'Generate image' }).click();
  const image = frame.getByRole('img', { name: 'Generated image 1' });
  await expect(image).toBeVisible();
  await screenshotBothThemes(page, 'image-agent-generated');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    frame.getByRole('link', { name: 'Download image' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('agentloom-image-1.png');
  const saved = test.info().outputPath('generated.png');
  await download.saveAs(saved);
  const png = await readFile(saved);
  expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);

  // Edit: upload the downloaded image and describe the change.
  await frame.getByLabel('Image', { exact: true }).setInputFiles(saved);
  await frame.getByLabel('Edits').fill('Make the sky purple');
  await frame.getByRole('button', { name: 'Apply edits' }).click();
  await expect(frame.getByRole('img', { name: 'Generated image 1' })).toBeVisible();

  await page.getByRole('button', { name: 'Back to Generator' }).click();
  await expect(page.getByRole('heading', { name: 'Image Agent Ready!' })).toBeFocused();
  // The app still runs: the preview has no reason to report a failure.
  await expect(page.getByText('Preview failed to load.')).toHaveCount(0);
});

test('image agent: a launch the server refuses shows the product message', async ({ page }) => {
  await signInThroughApi(page);
  // The one failure a user can meet here is the gateway refusing (e.g. its Redis is down).
  await page.route('**/img/launch-streamlit-app', (route) =>
    route.fulfill({ status: 503, json: { detail: 'Previews are unavailable right now.' } }),
  );
  await page.goto('/build/image');
  await page.getByRole('button', { name: 'Launch Image Generator' }).click();
  await expect(
    page.getByText('Could not start the Streamlit service. Check server logs.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Launch Image Generator' })).toBeEnabled();
  await screenshotBothThemes(page, 'image-agent-launch-failed');
});

/** A local port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  await new Promise((closed) => server.close(closed));
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return address.port;
}

test('image agent: a preview whose app cannot be reached says it failed to load', async ({
  page,
}) => {
  await signInThroughApi(page);
  // The launch succeeds but the app behind the URL is gone (stopped, or crashed after starting).
  const url = `http://127.0.0.1:${await closedPort()}/`;
  await page.route('**/img/launch-streamlit-app', (route) => route.fulfill({ json: { url } }));
  await page.goto('/build/image');
  await page.getByRole('button', { name: 'Launch Image Generator' }).click();
  await page.getByRole('button', { name: 'Preview Agent' }).click();

  await expect(page.getByRole('alert')).toContainText('Preview failed to load.');
  await expect(page.getByTitle('Image Agent Preview')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Open in New Tab' })).toHaveAttribute('href', url);
  await page.getByRole('button', { name: 'Back to Generator' }).click();
  await expect(page.getByRole('heading', { name: 'Image Agent Ready!' })).toBeFocused();
});
