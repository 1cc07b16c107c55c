import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { signUpAndLogIn } from './support';

// axe-core comes with Lighthouse (a dev dependency of this app); the same engine as its audit.
const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

// axe is injected as an inline script, which the app's CSP rightly refuses; the audit is a tool
// the test brings, not part of the app.
test.use({ bypassCSP: true });

type Violation = {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
};

/** Runs axe's WCAG 2 A/AA rules in the light and the dark theme; returns what fails. */
async function audit(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ content: AXE_SOURCE });
  const problems: string[] = [];
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
    await page.waitForTimeout(400); // colour transitions settle
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: { run: (...args: unknown[]) => Promise<{ violations: Violation[] }> };
        }
      ).axe;
      const result = await axe.run(
        { exclude: [['[data-sonner-toaster]']] },
        { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } },
      );
      return result.violations;
    });
    for (const violation of violations) {
      for (const node of violation.nodes) {
        problems.push(
          `[${dark ? 'dark' : 'light'}] ${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? violation.help}`,
        );
      }
    }
  }
  await page.evaluate(() =>
    document.documentElement.classList.toggle('dark', localStorage.getItem('theme') === 'dark'),
  );
  return problems;
}

test.describe('accessibility (axe, WCAG 2.1 A/AA, both themes)', () => {
  for (const route of [
    '/',
    '/features',
    '/docs',
    '/developers',
    '/privacy-policy',
    '/login',
    '/signup',
    '/forgot-password',
    '/reset-password?token=x',
    '/no-such-page',
  ]) {
    test(`public page ${route}`, async ({ page }) => {
      await page.goto(route);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await audit(page)).toEqual([]);
    });
  }

  test('the mobile menu, open', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.locator('#mobile-menu').getByRole('link', { name: 'Docs' })).toBeVisible();
    expect(await audit(page)).toEqual([]);
  });

  test('the forgot-password confirmation, with its resend button', async ({ page }) => {
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByRole('button', { name: 'Resend link' })).toBeVisible();
    expect(await audit(page)).toEqual([]);
  });

  test('dashboard views', async ({ page }) => {
    await signUpAndLogIn(page);
    expect(await audit(page)).toEqual([]);

    await page.getByRole('button', { name: /API Keys/ }).click();
    await page.getByRole('button', { name: 'Add API Key' }).click();
    await page.getByLabel('Provider').selectOption('groq');
    await page.getByLabel('API Key', { exact: true }).fill('gsk_a11y_0123456789abcdef0123');
    await page.getByRole('button', { name: 'Save Key' }).click();
    await expect(page.getByTestId('api-key-value')).toBeVisible();
    await page.getByRole('button', { name: 'Add API Key' }).click();
    expect(await audit(page)).toEqual([]);

    await page.getByRole('button', { name: 'Back to Dashboard' }).click();
    await page.getByRole('button', { name: /My Agents/ }).click();
    await expect(page.getByText('No agents yet')).toBeVisible();
    expect(await audit(page)).toEqual([]);

    await page.getByRole('button', { name: 'Profile' }).click();
    await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeVisible();
    expect(await audit(page)).toEqual([]);
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    expect(await audit(page)).toEqual([]);

    await page.goto('/dashboard/create-agent');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await audit(page)).toEqual([]);
  });
});
