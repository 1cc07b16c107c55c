import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { solidPng } from '@agentloom/agent-runtime/testing';
import { screenshotBothThemes } from './screenshots';
import { signUpAndLogIn } from './support';

// A real PNG, so the gateway's file-type check sees an actual image.
const AVATAR_PNG = solidPng(64, 64, [79, 70, 229]);

test.describe('dashboard', () => {
  test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

  test('overview shows the three cards and the sample activity', async ({ page }) => {
    await signUpAndLogIn(page);
    await expect(page.getByRole('link', { name: /Create New Agent/ })).toBeVisible();
    await expect(page.getByRole('button', { name: /My Agents/ })).toBeVisible();
    await expect(page.getByRole('button', { name: /API Keys/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();

    await page.getByRole('link', { name: /Create New Agent/ }).click();
    await page.waitForURL('**/dashboard/create-agent');
    await expect(page.getByRole('link', { name: /RAG Agent/ })).toHaveAttribute(
      'href',
      '/pipeline/rag',
    );
    await expect(page.getByRole('link', { name: /SQL Agent/ })).toHaveAttribute(
      'href',
      '/pipeline/sql',
    );
    await expect(page.getByRole('link', { name: /Image Generation Agent/ })).toHaveAttribute(
      'href',
      '/build/image',
    );
    await screenshotBothThemes(page, 'create-agent');
  });

  test('switching views by keyboard keeps focus on the page', async ({ page }) => {
    await signUpAndLogIn(page);
    const welcome = page.getByRole('heading', { level: 1, name: /Welcome/ });
    await page.getByRole('button', { name: /My Agents/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: 'My Agents' })).toBeFocused();
    // Tab goes on from the heading (to the view's own actions), not from the top of the document.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Import agent' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Create New Agent' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByRole('button', { name: 'Back to Dashboard' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(welcome).toBeFocused();

    await page.getByRole('button', { name: /API Keys/ }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: 'API Keys' })).toBeFocused();
    await page.getByRole('button', { name: 'Profile' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 2, name: 'Profile' })).toBeFocused();
  });

  test('API keys: a list that fails to load says so, and Retry loads it', async ({ page }) => {
    // The gateway is up; only this read fails (the app's own retry too) until the outage ends —
    // from the start, as the overview's Recent Activity reads the keys too.
    let down = true;
    await page.route('**/apikeys', (route) =>
      down
        ? route.fulfill({ status: 503, json: { detail: 'Service unavailable.' } })
        : route.continue(),
    );
    await signUpAndLogIn(page);
    await page.getByRole('button', { name: /API Keys/ }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to load API keys' });
    await expect(alert).toBeVisible();
    await expect(page.getByText('No API keys yet')).toHaveCount(0);

    down = false;
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByText('No API keys yet')).toBeVisible();
    await expect(page.getByText('Failed to load API keys')).toHaveCount(0);
  });

  test('API keys: add, reveal, mask, copy, delete', async ({ page }) => {
    await signUpAndLogIn(page);
    await page.getByRole('button', { name: /API Keys/ }).click();
    await expect(page.getByRole('button', { name: 'Back to Dashboard' })).toBeVisible();
    await expect(page.getByText('No API keys yet')).toBeVisible();

    // Missing fields are caught before any call.
    await page.getByRole('button', { name: 'Add API Key' }).click();
    await page.getByRole('button', { name: 'Save Key' }).click();
    await expect(page.getByText('Missing Info')).toBeVisible();
    await expect(page.getByText('Please fill out all fields')).toBeVisible();

    const secret = `sk-e2e-${randomBytes(16).toString('hex')}`;
    await page.getByLabel('Provider').selectOption('openai');
    await page.getByLabel('Name (optional)').fill('E2E key');
    await page.getByLabel('API Key', { exact: true }).fill(secret);
    await page.getByRole('button', { name: 'Save Key' }).click();
    await expect(page.getByText('API key added')).toBeVisible();
    // The form closes after a successful add, and focus goes back to its toggle.
    await expect(page.getByRole('button', { name: 'Save Key' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add API Key' })).toBeFocused();

    const value = page.getByTestId('api-key-value');
    const masked = `${secret.slice(0, 8)}…${secret.slice(-4)}`;
    await expect(value).toHaveText(masked);
    await screenshotBothThemes(page, 'api-keys');

    await page.getByRole('button', { name: /^Reveal .* key$/ }).click();
    await expect(value).toHaveText(secret);
    await page.getByRole('button', { name: /^Hide .* key$/ }).click();
    await expect(value).toHaveText(masked);

    await page.getByRole('button', { name: /^Copy .* key$/ }).click();
    await expect(page.getByText('API key copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    await page.getByRole('button', { name: /^Delete .* key$/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Key' }).click();
    await expect(page.getByText('API key removed')).toBeVisible();
    await expect(page.getByText('No API keys yet')).toBeVisible();

    await page.getByRole('button', { name: 'Back to Dashboard' }).click();
    await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
  });

  test('profile: view, edit with a picture, save, cancel', async ({ page }) => {
    const user = await signUpAndLogIn(page);
    await page.getByRole('button', { name: 'Profile' }).click();
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    await expect(page.getByText(user.email)).toBeVisible();
    await expect(page.getByText('Joined')).toBeVisible();

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await expect(page.getByLabel('Email')).toBeDisabled();
    await page.getByLabel('Full Name').fill('Ada Lovelace');
    await page.getByLabel('Phone Number').fill('+44 20 7946 0958');
    await page.getByLabel('Bio').fill('First programmer. Builds analytical engines.');
    await page
      .getByLabel('Profile Picture')
      .setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: AVATAR_PNG });
    await screenshotBothThemes(page, 'profile-edit');
    await page.getByRole('button', { name: 'Save Changes' }).click();

    await expect(page.getByText('Profile updated successfully')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeFocused();
    await expect(page.getByText('Ada Lovelace').first()).toBeVisible();
    await expect(page.getByText('+44 20 7946 0958')).toBeVisible();
    await expect(page.getByText('First programmer. Builds analytical engines.')).toBeVisible();
    const picture = page.getByRole('img', { name: /Profile picture of/ });
    await expect(picture).toBeVisible();
    // The picture really loads from the gateway.
    await expect
      .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await screenshotBothThemes(page, 'profile');

    // Cancel leaves the profile as it was.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Full Name').fill('Someone Else');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeFocused();
    await expect(page.getByText('Ada Lovelace').first()).toBeVisible();
    await expect(page.getByText('Someone Else')).toHaveCount(0);
  });

  test('agents: empty state, then a draft agent listed and deleted', async ({ page }) => {
    await signUpAndLogIn(page);
    await page.getByRole('button', { name: /My Agents/ }).click();
    await expect(page.getByText('No agents yet')).toBeVisible();
    await screenshotBothThemes(page, 'agents-empty');

    // Create a draft pipeline through the API with the signed-in user's token.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const gateway = `http://127.0.0.1:${process.env.E2E_GATEWAY_PORT ?? 18000}`;
    const created = await page.request.post(`${gateway}/pipelines`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { name: 'E2E Draft Agent', agent_type: 'rag' },
    });
    expect(created.ok()).toBe(true);

    await page.getByRole('button', { name: 'Back to Dashboard' }).click();
    await page.getByRole('button', { name: /My Agents/ }).click();
    const card = page.getByRole('article', { name: 'E2E Draft Agent' });
    await expect(card).toBeVisible();
    await expect(card.getByText('Draft', { exact: true })).toBeVisible();
    // Preview and Download are only for Built agents.
    await expect(card.getByRole('button', { name: 'Preview' })).toHaveCount(0);
    await expect(card.getByRole('button', { name: 'Download' })).toHaveCount(0);
    await screenshotBothThemes(page, 'agents');

    await card.getByRole('button', { name: 'Delete E2E Draft Agent' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Agent' }).click();
    await expect(page.getByText('No agents yet')).toBeVisible();
  });

  test.describe('on a 360 px phone', () => {
    test.use({ viewport: { width: 360, height: 780 } });

    test('every dashboard view fits without sideways scrolling', async ({ page }) => {
      const fits = () =>
        page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
      await signUpAndLogIn(page);
      expect(await fits()).toBe(true);
      await page.getByRole('button', { name: /API Keys/ }).click();
      await page.getByRole('button', { name: 'Add API Key' }).click();
      await expect(page.getByLabel('Provider')).toBeVisible();
      expect(await fits()).toBe(true);
      await page.getByRole('button', { name: 'Back to Dashboard' }).click();
      await page.getByRole('button', { name: /My Agents/ }).click();
      await expect(page.getByText('No agents yet')).toBeVisible();
      expect(await fits()).toBe(true);
      await page.getByRole('button', { name: 'Profile' }).click();
      await page.getByRole('button', { name: 'Edit Profile' }).click();
      await expect(page.getByLabel('Full Name')).toBeVisible();
      expect(await fits()).toBe(true);
      await screenshotBothThemes(page, 'profile-edit-360px');
      await page.goto('/dashboard/create-agent');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await fits()).toBe(true);
    });
  });
});
