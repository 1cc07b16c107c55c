import { expect, test, type Page } from '@playwright/test';
import { screenshotBothThemes } from './screenshots';

const HERO_PHRASES = ['RAG Agents', 'SQL Agents', 'No-Code AI', 'Image Gen Agents', 'Smart Agents'];

test.describe('public pages', () => {
  test('an unknown path shows the 404 page with a way home', async ({ page }) => {
    await page.goto('/definitely/not/here');
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    const home = page.getByRole('link', { name: 'Return to Home' });
    await expect(home).toHaveAttribute('href', '/');
    await screenshotBothThemes(page, 'not-found');
    await home.click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('the theme defaults to light, toggles, and survives a reload', async ({ page }) => {
    await page.goto('/');
    const html = page.locator('html');
    await expect(html).not.toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

    await page.reload();
    await expect(html).toHaveClass(/dark/);
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await expect(html).not.toHaveClass(/dark/);
    await page.reload();
    await expect(html).not.toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  });

  test('the hero phrase rotates every 3 seconds through the five phrases', async ({ page }) => {
    await page.goto('/');
    const phrase = page.getByTestId('hero-phrase');
    await expect(phrase).toBeVisible();
    // Record every change with its time, in the page, for one full cycle (about 15 s).
    await page.evaluate(() => {
      const container = document.querySelector('[data-testid="hero-phrases"]')!;
      const current = () =>
        container.querySelector('[data-testid="hero-phrase"]')?.textContent ?? '';
      const seen: { text: string; at: number }[] = [];
      let last = current();
      (window as unknown as { heroChanges: typeof seen }).heroChanges = seen;
      new MutationObserver(() => {
        const text = current();
        if (text === last) return;
        last = text;
        seen.push({ text, at: performance.now() });
      }).observe(container, { attributes: true, childList: true, subtree: true });
    });
    const first = await phrase.textContent();
    const changes = await expect
      .poll(
        () =>
          page.evaluate(
            () =>
              (window as unknown as { heroChanges: { text: string; at: number }[] }).heroChanges,
          ),
        { timeout: 20_000, intervals: [500] },
      )
      .toHaveLength(5)
      .then(() =>
        page.evaluate(
          () => (window as unknown as { heroChanges: { text: string; at: number }[] }).heroChanges,
        ),
      );
    const start = HERO_PHRASES.indexOf(first ?? '');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(changes.map((change) => change.text)).toEqual(
      [1, 2, 3, 4, 5].map((step) => HERO_PHRASES[(start + step) % HERO_PHRASES.length]),
    );
    for (let i = 1; i < changes.length; i += 1) {
      const gap = changes[i]!.at - changes[i - 1]!.at;
      expect(gap).toBeGreaterThan(2_700);
      expect(gap).toBeLessThan(3_300);
    }
  });

  test('the hero phrase can be paused, and starts paused for reduced motion', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Pause animation' }).click();
    await expect(page.getByRole('button', { name: 'Play animation' })).toBeVisible();

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.reload();
    await expect(page.getByTestId('hero-phrase')).toHaveText(HERO_PHRASES[0]!);
    await page.getByRole('button', { name: 'Play animation' }).click();
    await expect(page.getByRole('button', { name: 'Pause animation' })).toBeVisible();
  });

  test('the landing page has its sections and its links', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Watch Demo Video' })).toHaveAttribute(
      'href',
      /\.mp4$/,
    );
    await expect(page.getByRole('link', { name: 'Contact us' })).toHaveAttribute(
      'href',
      /^https:\/\/wa\.me\//,
    );
    await expect(page.locator('#how-it-works').getByRole('listitem')).toHaveCount(4);
    await expect(page.getByRole('link', { name: 'Start Building' })).toHaveAttribute(
      'href',
      '/login',
    );
    await expect(page.getByRole('link', { name: 'Explore Features' })).toHaveAttribute(
      'href',
      '/features',
    );
    await screenshotBothThemes(page, 'landing');

    // The demo video plays in a dialog, with its poster.
    await page.getByRole('link', { name: 'Watch Demo Video' }).click();
    const dialog = page.getByRole('dialog', { name: 'Agentloom demo' });
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('video')).toHaveAttribute('poster', /poster/);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);

    await page.getByRole('button', { name: 'Get Started' }).first().click();
    await page.waitForURL('**/signup');
  });

  test('/#how-it-works scrolls to the section, from another page too', async ({ page }) => {
    await page.goto('/#how-it-works');
    const section = page.locator('#how-it-works');
    await expect(section).toBeInViewport();
    await expect(page.getByRole('heading', { name: 'Choose agent type' })).toBeVisible();

    await page.goto('/features');
    await page
      .getByRole('navigation', { name: 'Main', exact: true })
      .getByRole('link', { name: 'How it works' })
      .click();
    await expect(page).toHaveURL(/\/#how-it-works$/);
    await expect(section).toBeInViewport();
  });

  test('every route change scrolls back to the top', async ({ page }) => {
    await page.goto('/');
    await expect(
      page.getByRole('heading', { name: 'Ready to build your first AI agent?' }),
    ).toBeAttached();
    await page.evaluate(() =>
      window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }),
    );
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Features' }).click();
    await page.waitForURL('**/features');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('the footer has its tagline, real links and placeholders', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    await expect(
      footer.getByText('Build and deploy AI agents through an intuitive, step-by-step interface.'),
    ).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Features' })).toHaveAttribute(
      'href',
      '/features',
    );
    await expect(footer.getByRole('link', { name: 'Documentation' })).toHaveAttribute(
      'href',
      '/docs',
    );
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      '/privacy-policy',
    );
    for (const placeholder of [
      'Pipeline Builder',
      'Agent Gallery',
      'Templates',
      'Tutorials',
      'API Reference',
      'Community',
      'About',
      'Blog',
      'Careers',
      'Contact',
      'Terms of Service',
      'Cookie Policy',
    ]) {
      await expect(footer.getByText(placeholder, { exact: true })).toBeVisible();
      await expect(footer.getByRole('link', { name: placeholder, exact: true })).toHaveCount(0);
    }
    await expect(footer.getByRole('link', { name: /GitHub/ })).toHaveAttribute(
      'href',
      /github\.com/,
    );
    await expect(footer.getByRole('link', { name: /LinkedIn/ })).toHaveAttribute(
      'href',
      /linkedin/,
    );
    await expect(footer.getByRole('link', { name: /on X/ })).toHaveAttribute('href', /x\.com/);
    await expect(footer.getByRole('link', { name: /E-mail/ })).toHaveAttribute('href', /^mailto:/);

    await footer.getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page.getByRole('heading', { name: 'Privacy Policy' })).toBeVisible();
    for (const section of [
      'Information we collect',
      'How we use your information',
      'Data security',
      'Contact',
    ]) {
      await expect(page.getByRole('heading', { name: section, exact: true })).toBeVisible();
    }
    await screenshotBothThemes(page, 'privacy-policy');
  });

  test('features, docs and developers pages show their cards', async ({ page }) => {
    await page.goto('/features');
    for (const title of [
      'RAG Builder',
      'SQL Builder',
      'Visual Pipeline Builder',
      'One-Click Deployment',
      'API Key Vault',
      'Live Preview',
    ]) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
    await screenshotBothThemes(page, 'features');

    await page.goto('/docs');
    for (const title of ['Getting Started', 'Features Overview', 'Deployment']) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
    await screenshotBothThemes(page, 'docs');

    await page.goto('/developers');
    await expect(page.getByRole('article')).toHaveCount(2);
    await expect(page.getByRole('main').getByRole('link', { name: 'Get Started' })).toHaveAttribute(
      'href',
      '/login',
    );
    await screenshotBothThemes(page, 'developers');
  });

  test.describe('on a 360 px phone', () => {
    test.use({ viewport: { width: 360, height: 740 } });

    /** Nothing may stick out sideways: no page-wide scrollbar. */
    async function expectNoSidewaysScroll(page: Page) {
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
      ).toBe(true);
    }

    test('the mobile menu opens with the links and collapses again', async ({ page }) => {
      await page.goto('/');
      const menu = page.getByRole('navigation', { name: 'Main (mobile)' });
      const toggle = page.getByRole('button', { name: 'Open menu' });
      await expect(
        page.locator('#mobile-menu').getByRole('link', { name: 'Features' }),
      ).toBeHidden();
      await toggle.click();
      await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
        'aria-expanded',
        'true',
      );
      for (const name of [
        'Home',
        'Features',
        'Our team',
        'How it works',
        'Docs',
        'Log in',
        'Get Started',
      ]) {
        await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
      }
      await expectNoSidewaysScroll(page);
      await screenshotBothThemes(page, 'mobile-menu');

      await page.getByRole('button', { name: 'Close menu' }).click();
      await expect(
        page.locator('#mobile-menu').getByRole('link', { name: 'Features' }),
      ).toBeHidden();

      // Following a link closes it too.
      await page.getByRole('button', { name: 'Open menu' }).click();
      await menu.getByRole('link', { name: 'Docs' }).click();
      await page.waitForURL('**/docs');
      await expect(page.locator('#mobile-menu').getByRole('link', { name: 'Docs' })).toBeHidden();
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(menu.getByRole('link', { name: 'Docs' })).toBeVisible();
      await expectNoSidewaysScroll(page);
    });

    test('every hero phrase fits on the screen', async ({ page }) => {
      await page.goto('/');
      // The hero clips its overflow, so a phrase too wide would be cut off rather than scroll; and
      // the headline grows with it, so the screen's edge is the measure.
      const overflow = await page.getByTestId('hero-phrases').evaluate((phrases) => {
        const screenWidth = document.documentElement.clientWidth;
        return Array.from(phrases.children).flatMap((phrase) => {
          const range = document.createRange();
          range.selectNodeContents(phrase);
          const box = range.getBoundingClientRect();
          return box.left < 0 || box.right > screenWidth
            ? [`${phrase.textContent} spans ${box.left}–${box.right} of ${screenWidth} px`]
            : [];
        });
      });
      expect(overflow).toEqual([]);
      await expectNoSidewaysScroll(page);
    });
  });
});
