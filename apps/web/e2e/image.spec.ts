import { expect, test } from '@playwright/test';
import { GATEWAY_URL } from '../playwright.config';
import { screenshotBothThemes, signInThroughApi } from './wizard-support';

test('image agent screen: texts, how-to, and the launch failure message', async ({
  page,
  request,
}) => {
  await signInThroughApi(page, request);
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

  // The gateway has no image launcher in this build, so the launch fails and says so.
  const launched = page.waitForResponse(`${GATEWAY_URL}/img/launch-streamlit-app`);
  await page.getByRole('button', { name: 'Launch Image Generator' }).click();
  expect((await launched).ok()).toBe(false);
  await expect(
    page.getByText('Could not start the Streamlit service. Check server logs.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Launch Image Generator' })).toBeEnabled();
  await screenshotBothThemes(page, 'image-agent-launch-failed');
});

test('image agent screen: ready state and a sandboxed preview (launcher answer stubbed)', async ({
  page,
  request,
}) => {
  await signInThroughApi(page, request);
  // The launcher is not part of this gateway; its answer is stubbed to show the ready path.
  await page.route(`${GATEWAY_URL}/img/launch-streamlit-app`, (route) =>
    route.fulfill({ json: { url: 'http://127.0.0.1:9/' } }),
  );
  await page.goto('/build/image');
  await page.getByRole('button', { name: 'Launch Image Generator' }).click();
  await expect(page.getByText('Image Agent Ready!')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open in New Tab' })).toHaveAttribute(
    'href',
    'http://127.0.0.1:9/',
  );
  await page.getByRole('button', { name: 'Preview Agent' }).click();
  const frame = page.getByTitle('Image Agent Preview');
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute('sandbox', /allow-scripts/);
  await page.getByRole('button', { name: 'Back to Generator' }).click();
  await expect(page.getByText('Image Agent Ready!')).toBeVisible();
});
