import { expect, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';

/** A fresh account's credentials; the suffix keeps every test's user unique. */
export function uniqueUser(): { username: string; email: string; password: string } {
  const suffix = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return {
    username: `e2e_${suffix}`,
    email: `e2e_${suffix}@example.com`,
    password: `Pw-${suffix}-9x`,
  };
}

/**
 * Signs up a new, unique user through the real signup screen (docs/product.md#sign-up-and-sign-in:
 * signup is followed by an automatic login) and returns once the dashboard shows. Shared by every
 * spec that needs a signed-in user.
 */
export async function signUpAndLogIn(
  page: Page,
): Promise<{ username: string; email: string; password: string }> {
  const user = uniqueUser();
  await page.goto('/signup');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByLabel('Confirm Password').fill(user.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/dashboard', { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
  return user;
}
