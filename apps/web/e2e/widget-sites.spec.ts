import {
  configureRagAgent,
  signUpAndLogIn,
  startBuild,
  waitForBuild,
  type TestUser,
} from '@agentloom/test-kit';
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { GATEWAY_URL, WEB_URL } from '../playwright.config';
import { salesRagAgent } from './wizard-support';

/**
 * The widget's allowed sites as a first-time owner meets them (issue 43, item 7): a plain address
 * lets their http test page embed the chat, the refusal notice is the owner's alone (their test
 * link), and "Test it on my site" opens their page with that note.
 */
const SCREENSHOTS = path.join(import.meta.dirname, '..', 'e2e-artifacts', 'screenshots');

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${width}.png`), fullPage });
}

/** A plain-http site of its own (another port: another origin) with the snippet on its page. */
async function startSite(
  html: string,
): Promise<{ host: string; origin: string; close: () => void }> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = `127.0.0.1:${port}`;
  return { host, origin: `http://${host}`, close: () => server.close() };
}

let owner: TestUser;
let agentId: string;
const NAME = 'Widget sites bot';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  owner = await signUpAndLogIn(GATEWAY_URL, 'e2e');
  agentId = await configureRagAgent(GATEWAY_URL, owner, salesRagAgent(NAME));
  expect((await startBuild(GATEWAY_URL, owner, agentId)).status).toBe(200);
  expect((await waitForBuild(GATEWAY_URL, owner, agentId, 150_000)).status).toBe('Built');
  const published = await fetch(`${GATEWAY_URL}/agents/${agentId}/publication`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${owner.token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(published.status).toBe(200);
});

for (const width of [1280, 375] as const) {
  test(`at ${width} px: a plain address allows the owner's http test page; only the owner's test link shows a note`, async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: width > 400 ? 800 : 812 });
    await page.goto('/');
    await page.evaluate(
      ([token, user]) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', user);
      },
      [owner.token, JSON.stringify(owner.profile)] as const,
    );
    const snippet = `<!doctype html><html><head><meta name="viewport" content="width=device-width"></head><body><h1>A test page</h1><script src="${WEB_URL}/w/widget.js" data-agent="${agentId}" async></script></body></html>`;
    const testPage = await startSite(snippet);
    const stranger = await startSite(snippet);
    try {
      await page.goto('/dashboard');
      await page.getByRole('button', { name: /My Agents/ }).click();
      await page.getByRole('button', { name: `Publish ${NAME}` }).click();
      const panel = page.getByRole('region', { name: `Publishing of ${NAME}` });
      // Typed without a scheme, as owners do: both schemes are allowed, none is forced.
      await panel.getByLabel('Sites that may embed the chat widget').fill(testPage.host);
      await expect(
        panel.getByText(`Will allow: https://${testPage.host}, ${testPage.origin}`),
      ).toBeVisible();
      await panel.getByRole('button', { name: 'Save sites' }).click();
      await expect(panel.getByLabel('Sites that may embed the chat widget')).toHaveValue(
        `https://${testPage.host}\n${testPage.origin}`,
      );
      const test_ = panel.getByRole('link', { name: 'Test it on my site' });
      await expect(test_).toHaveAttribute('href', `${testPage.origin}/#agentloom-check`);
      // The snippet and the test, as the owner sees them on the screen.
      await panel
        .getByRole('heading', { name: 'Test it on my site' })
        .evaluate((heading) => heading.scrollIntoView({ block: 'center' }));
      await shot(page, 'widget-sites-panel', false);

      // "Test it on my site": the owner's http page shows the chat and the owner's note.
      const [owned] = await Promise.all([page.waitForEvent('popup'), test_.click()]);
      await owned.setViewportSize({ width, height: 812 });
      await expect(owned.getByRole('button', { name: `Chat with ${NAME}` })).toBeVisible();
      await expect(
        owned.getByRole('status').filter({ hasText: 'The chat works on this site' }),
      ).toContainText('Only your test link shows this note.');
      await shot(owned, 'widget-sites-owner-ok');
      await owned.close();

      // A site not allowed: its visitors see nothing at all…
      const visitor = await browser.newPage({ viewport: { width, height: 812 } });
      const refused = visitor.waitForResponse((r) => r.url().endsWith(`/w/${agentId}/config`));
      await visitor.goto(stranger.origin);
      expect((await refused).status()).toBe(403);
      await expect(visitor.getByRole('heading', { name: 'A test page' })).toBeVisible();
      await expect(visitor.getByRole('status')).toHaveCount(0);
      await expect(visitor.getByRole('button', { name: /Chat with/ })).toHaveCount(0);
      await shot(visitor, 'widget-sites-visitor-refused');
      // …and the owner's test link names the site to allow.
      await visitor.goto(`${stranger.origin}/#agentloom-check`);
      await visitor.reload();
      await expect(
        visitor.getByRole('status').filter({ hasText: 'Chat unavailable on this site' }),
      ).toContainText(`Site to allow: ${stranger.origin}`);
      await shot(visitor, 'widget-sites-owner-refused');
      await visitor.close();
    } finally {
      testPage.close();
      stranger.close();
    }
  });
}
