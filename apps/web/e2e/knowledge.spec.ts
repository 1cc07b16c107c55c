import { expect, test, type Page } from '@playwright/test';
import { configureRagAgent, startBuild } from '@agentloom/test-kit';
import { GATEWAY_URL } from '../playwright.config';
import { salesRagAgent, screenshotBothThemes, signInThroughApi } from './wizard-support';

/** A second source: a few lines of text the builder reads into passages of its own. */
const FAQ_TXT = {
  name: 'faq.txt',
  mimeType: 'text/plain',
  buffer: Buffer.from(
    'Opening hours: the shop opens at 9 and closes at 18, Monday to Saturday.\n\n' +
      'Returns: any product can be returned within 30 days with its receipt.\n',
  ),
};

/** The build screen at both widths the app is checked at (desktop and phone), saved and checked. */
async function screenshotWidths(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(200);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    await screenshotBothThemes(page, `${name}-${width}px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('knowledge: a second source added to a built agent becomes ready; an older build is published again (rollback)', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const user = await signInThroughApi(page);
  const agentId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Shop helper'));
  expect((await startBuild(GATEWAY_URL, user, agentId)).status).toBe(200);

  await page.goto(`/build/rag/${agentId}`);
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  // Published as it is: build 1.
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const publishing = page.getByRole('region', { name: 'Publishing of Shop helper' });
  await publishing.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(publishing.getByLabel('Published agent follows knowledge changes')).toBeChecked();
  await page.getByRole('button', { name: 'Publish', exact: true }).click();

  // The Knowledge panel: the wizard's source, then a second one added.
  const knowledge = page.getByRole('region', { name: 'Knowledge of Shop helper' });
  const sources = knowledge.getByRole('list', { name: 'Sources of Shop helper' });
  await expect(sources.getByRole('listitem', { name: 'sales.csv' })).toContainText('Ready');
  await knowledge.getByRole('button', { name: 'Add another source' }).click();
  const form = knowledge.getByRole('form', { name: 'Add another source' });
  await form.getByLabel('File').setInputFiles(FAQ_TXT);
  await form.getByRole('button', { name: 'Add source' }).click();
  await expect(knowledge.getByText('Source added.')).toBeVisible();
  const faq = sources.getByRole('listitem', { name: 'faq.txt' });
  await expect(faq).toBeVisible();
  // A new build ran (its stages on this screen), and the source is read.
  await expect(faq).toContainText('Ready', { timeout: 60_000 });
  await expect(faq).toContainText(/[1-9]\d* passages?/);
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  await screenshotWidths(page, 'knowledge-build-screen');

  // A knowledge-only build reached visitors by itself; build 1 is published again (rollback).
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const builds = publishing.getByRole('list', { name: 'Builds of Shop helper' });
  await expect(builds.getByRole('listitem', { name: 'Build 2' })).toContainText(
    'Visitors see this build',
  );
  await expect(builds.getByRole('listitem', { name: 'Build 2' })).toContainText('faq.txt');
  await builds.getByRole('button', { name: 'Publish build 1' }).click();
  await expect(builds.getByRole('listitem', { name: 'Build 1' })).toContainText(
    'Visitors see this build',
  );
  const note = 'Visitors see build 1 of 2 — publish build 2?';
  await expect(publishing.getByText(note)).toBeVisible();
  const served = await page.request.get(`${GATEWAY_URL}/agents/${agentId}/publication`, {
    headers: { Authorization: `Bearer ${user.token}` },
  });
  expect(((await served.json()) as { build_number: number }).build_number).toBe(1);
  await screenshotWidths(page, 'knowledge-rollback');

  // My Agents says it on the card too.
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /My Agents/ }).click();
  const card = page.getByRole('article', { name: 'Shop helper' });
  await expect(card.getByText(note)).toBeVisible();
  await card.getByRole('button', { name: 'Knowledge of Shop helper' }).click();
  await expect(
    card.getByRole('list', { name: 'Sources of Shop helper' }).getByRole('listitem'),
  ).toHaveCount(2);
  await card.getByRole('button', { name: 'Add another source' }).click();
  await card.getByRole('button', { name: 'Web pages' }).click();
  await expect(card.getByLabel('Pages to read')).toHaveValue('1');
  await screenshotWidths(page, 'knowledge-my-agents');
});

test('knowledge: a source added on the wizard’s last step is read by the first build', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const user = await signInThroughApi(page);
  const agentId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Shop helper 2'));

  await page.goto(`/pipeline/rag/${agentId}?step=9`);
  await expect(page.getByText('Step 9 of 9', { exact: true })).toBeVisible();
  const knowledge = page.getByRole('region', { name: 'Knowledge of Shop helper 2' });
  await expect(knowledge).toContainText('Its first build reads them all.');
  await knowledge.getByRole('button', { name: 'Add another source' }).click();
  await knowledge.getByLabel('File').setInputFiles(FAQ_TXT);
  await knowledge.getByRole('button', { name: 'Add source' }).click();
  const faq = knowledge.getByRole('listitem', { name: 'faq.txt' });
  await expect(faq).toContainText('Waiting for the next build');
  await screenshotWidths(page, 'knowledge-wizard');

  await page.getByRole('button', { name: 'Build & Deploy RAG Agent' }).click();
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  const built = page.getByRole('list', { name: 'Sources of Shop helper 2' });
  await expect(built.getByRole('listitem', { name: 'faq.txt' })).toContainText('Ready', {
    timeout: 30_000,
  });
  await expect(built.getByRole('listitem', { name: 'faq.txt' })).toContainText(
    /[1-9]\d* passages?/,
  );
  await expect(built.getByRole('listitem', { name: 'sales.csv' })).toContainText('Ready');
});
