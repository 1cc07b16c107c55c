import { expect, test, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configureRagAgent, startBuild } from '@agentloom/test-kit';
import { GATEWAY_URL, WEB_URL } from '../playwright.config';
import { salesRagAgent, signInThroughApi } from './wizard-support';

/**
 * A site of its own (its own origin: another port) serving one page. The widget and the share
 * page are judged by the browser's own origin checks, so the test sites must be real origins.
 */
async function startSite(html: () => string): Promise<{ origin: string; close: () => void }> {
  const server: Server = createServer((_, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(html());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close() };
}

async function askInChat(chat: ReturnType<Page['frameLocator']> | Page, question: string) {
  await chat.getByRole('textbox', { name: 'Your message' }).fill(question);
  await chat.getByRole('button', { name: 'Send' }).click();
}

test('a published agent: share page when on (404 when off) and a widget only allowed sites can embed', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const user = await signInThroughApi(page);
  const agentId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Published sales bot'));
  expect((await startBuild(GATEWAY_URL, user, agentId)).status).toBe(200);

  // Published from the build screen.
  await page.goto(`/build/rag/${agentId}`);
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Publishing of Published sales bot' });
  await panel.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(panel.getByText('Published', { exact: true })).toBeVisible();

  // The share page is off until its owner turns it on. Its link is on the public origin (the web
  // app's, PUBLIC_URL), whose web server forwards it to the gateway.
  const shareUrl = `${WEB_URL}/s/${agentId}/`;
  expect((await request.get(shareUrl)).status()).toBe(404);
  await panel.getByLabel('Public share page').click();
  await expect(panel.getByRole('link', { name: shareUrl })).toBeVisible();
  const share = await browser.newPage();
  await share.goto(shareUrl);
  await askInChat(share, 'What did West Gadgets earn?');
  await expect(share.getByRole('log', { name: 'Conversation' })).toContainText('13400');
  await expect(
    share.getByRole('button', { name: 'Helpful', exact: true }).locator('svg'),
  ).toHaveCount(1);
  await share.getByRole('button', { name: 'Helpful', exact: true }).click();
  await expect(share.getByRole('button', { name: 'Helpful', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await panel.getByLabel('Public share page').click();
  await expect(panel.getByRole('link', { name: shareUrl })).toHaveCount(0);
  expect((await request.get(shareUrl)).status()).toBe(404);
  await share.close();

  // The widget: one allowed site, one other site with the same snippet.
  const snippet = `<!doctype html><html><body><h1>A shop</h1><script src="${WEB_URL}/w/widget.js" data-agent="${agentId}" async></script></body></html>`;
  const allowed = await startSite(() => snippet);
  const other = await startSite(() => snippet);
  try {
    await panel.getByLabel('Sites that may embed the chat widget').fill(allowed.origin);
    await panel.getByRole('button', { name: 'Save sites' }).click();
    await expect(panel.getByText(`data-agent="${agentId}"`)).toBeVisible();

    const shop = await browser.newPage();
    await shop.goto(allowed.origin);
    const bubble = shop.getByRole('button', { name: 'Chat with Published sales bot' });
    // An icon, not an emoji that shows as an empty box without an emoji font.
    await expect(bubble.locator('svg')).toHaveCount(1);
    expect((await bubble.textContent())?.trim()).toBe('');
    await bubble.click();
    const chat = shop.frameLocator('iframe[title="Published sales bot"]');
    await askInChat(chat, 'What did West Gadgets earn?');
    await expect(chat.getByRole('log', { name: 'Conversation' })).toContainText('13400');
    // The page holds no key: the frame talks to the platform itself.
    expect(await shop.content()).not.toContain('al_');
    await shop.close();

    const stranger = await browser.newPage();
    const refusal = stranger.waitForEvent('console', (message) =>
      message.text().includes('This site may not embed this agent'),
    );
    const configAnswer = stranger.waitForResponse((response) =>
      response.url().endsWith(`/w/${agentId}/config`),
    );
    await stranger.goto(other.origin);
    expect((await configAnswer).status()).toBe(403);
    await refusal;
    await expect(stranger.getByRole('button', { name: /Chat with/ })).toHaveCount(0);
    // Its visitors see no notice; the owner's test link shows one (widget-sites.spec.ts).
    await expect(stranger.getByRole('status')).toHaveCount(0);
    // Framing the chat directly is refused by the browser too (frame-ancestors), even when the
    // frame names the allowed site: only that site may frame it.
    const framed = stranger.waitForEvent('console', (message) =>
      message.text().includes('frame-ancestors'),
    );
    const chatUrl = `${WEB_URL}/w/${agentId}/chat?site=${encodeURIComponent(allowed.origin)}`;
    await stranger.setContent(`<iframe title="direct" src="${chatUrl}"></iframe>`);
    await framed;
    await stranger.close();
  } finally {
    allowed.close();
    other.close();
  }

  // The owner sees both conversations, one with a thumbs up.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Conversations (2)' })).toBeVisible();
  // The owner sees the site that was refused, and can allow it in one click.
  await expect(
    page.getByText('These sites tried to show the chat but are not allowed:'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: `Allow ${other.origin}` })).toBeVisible();
  await expect(page.getByLabel('1 helpful')).toBeVisible();
  // The owner opens a conversation to read it, not only exports them (issue 30).
  await page
    .getByRole('button', { name: 'Open conversation What did West Gadgets earn?' })
    .first()
    .click();
  const turns = page.getByRole('list', { name: 'Conversation What did West Gadgets earn?' });
  await expect(turns).toContainText('Visitor');
  await expect(turns).toContainText('13400');

  // From My Agents too: the same panel, and an access key shown once, then revoked.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /My Agents/ }).click();
  const card = page.getByRole('article', { name: 'Published sales bot' });
  await card.getByRole('button', { name: 'Publish Published sales bot' }).click();
  const cardPanel = card.getByRole('region', { name: 'Publishing of Published sales bot' });
  await expect(cardPanel.getByText('Published', { exact: true })).toBeVisible();
  await cardPanel.getByText('For developers: API, MCP server and access keys').click();
  await cardPanel.getByLabel('Key name (optional)').fill('shop backend');
  await cardPanel.getByRole('button', { name: 'New access key' }).click();
  const secret = (await cardPanel.getByTestId('new-access-key').textContent()) ?? '';
  expect(secret).toMatch(/^al_/);
  const listed = cardPanel.getByRole('listitem').filter({ hasText: 'shop backend' });
  await expect(listed).toContainText(`al_…${secret.slice(-4)}`);
  await listed.getByRole('button', { name: 'Revoke' }).click();
  await expect(listed.getByText('Revoked')).toBeVisible();
  const refused = await request.post(`${GATEWAY_URL}/agents/${agentId}/chat`, {
    headers: { Authorization: `Bearer ${secret}` },
    data: { message: 'Still there?' },
  });
  expect(refused.status()).toBe(401);
});
