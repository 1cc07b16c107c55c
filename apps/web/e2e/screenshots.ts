import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

const DIR = path.join(import.meta.dirname, '..', 'e2e-artifacts', 'screenshots');

/** Saves the current screen in the light and the dark theme (the theme class is on <html>). */
export async function screenshotBothThemes(page: Page, name: string): Promise<void> {
  mkdirSync(DIR, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => {
      document.documentElement.classList.toggle('dark', dark);
      document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
    }, theme === 'dark');
    await page.screenshot({ path: path.join(DIR, `${name}-${theme}.png`), fullPage: true });
  }
  // Back to what the app's own state says, so the test continues as the user left it.
  await page.evaluate(() => {
    const dark = localStorage.getItem('theme') === 'dark';
    document.documentElement.classList.toggle('dark', dark);
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  });
}
