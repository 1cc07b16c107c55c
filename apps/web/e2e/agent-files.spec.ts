import { buildPaths } from '@agentloom/contracts';
import { expect, test } from '@playwright/test';
import {
  configureRagAgent,
  downloadZip,
  projectFileText,
  startBuild,
  waitForBuild,
  type TestUser,
} from '@agentloom/test-kit';
import { GATEWAY_URL } from '../playwright.config';
import { salesRagAgent, screenshotBothThemes, signInThroughApi } from './wizard-support';

const GEMINI_KEY = 'AIza-e2e-0123456789abcdef';

/** agent.json of an agent's latest build, with the agent's id (and the collection made of it) blanked. */
async function builtAgentJson(user: TestUser, id: string): Promise<Record<string, unknown>> {
  const built = await waitForBuild(GATEWAY_URL, user, id, 120_000);
  expect(built.status).toBe('Built');
  const { zip } = await downloadZip(GATEWAY_URL, user, buildPaths.download('rag', id));
  const text = await projectFileText(zip, 'agent.json');
  return JSON.parse(text.replaceAll(id, 'ID').replaceAll(id.replaceAll('-', ''), 'ID')) as Record<
    string,
    unknown
  >;
}

test('an agent exported from My Agents, imported by another account and built gives the same agent.json; its publish panel shows the MCP server', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const alice = await signInThroughApi(page);
  const id = await configureRagAgent(GATEWAY_URL, alice, salesRagAgent('Round trip sales'));
  expect((await startBuild(GATEWAY_URL, alice, id)).status).toBe(200);
  const original = await builtAgentJson(alice, id);

  await page.goto('/dashboard');
  await page.getByRole('button', { name: /My Agents/ }).click();
  const card = page.getByRole('article', { name: 'Round trip sales' });

  // The MCP server of the published agent: its address and a configuration to paste.
  await card.getByRole('button', { name: 'Publish Round trip sales' }).click();
  const panel = page.getByRole('region', { name: 'Publishing of Round trip sales' });
  await panel.getByRole('button', { name: 'Publish', exact: true }).click();
  await panel.getByText('For developers: API, MCP server and access keys').click();
  const config = panel.getByLabel('MCP client configuration');
  await expect(config).toContainText(`/agents/${id}/mcp`);
  await expect(config).toContainText('"round-trip-sales"');
  await expect(config).toContainText('Bearer al_YOUR_ACCESS_KEY');
  await panel.scrollIntoViewIfNeeded();
  await screenshotBothThemes(page, 'publish-panel-mcp');

  const saved = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Export Round trip sales' }).click();
  const download = await saved;
  expect(download.suggestedFilename()).toBe('round-trip-sales.agentloom.zip');
  const exported = await download.path();

  // Another account imports the file: the same name is free there.
  const bob = await signInThroughApi(page);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /My Agents/ }).click();
  await page.getByRole('button', { name: 'Import agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import agent' });
  await dialog.getByLabel('Agent file').setInputFiles(exported);
  await expect(
    dialog.getByText('RAG agent: RAG over sales.csv · gemini-2.0-flash · Gradio'),
  ).toBeVisible();
  await expect(dialog.getByLabel('Agent name')).toHaveValue('Round trip sales');
  await expect(dialog.getByLabel('Database password')).toHaveCount(0);
  await dialog.getByLabel('Gemini API key').fill(GEMINI_KEY);
  await screenshotBothThemes(page, 'import-agent-dialog');
  await dialog.getByRole('button', { name: 'Import agent' }).click();
  await expect(page).toHaveURL(/\/pipeline\/rag/);

  const listed = await fetch(`${GATEWAY_URL}/pipelines`, {
    headers: { Authorization: `Bearer ${bob.token}` },
  });
  const [copy] = (await listed.json()) as { id: string; name: string; status: string }[];
  expect(copy).toMatchObject({ name: 'Round trip sales', status: 'Draft' });
  expect((await startBuild(GATEWAY_URL, bob, copy!.id)).status).toBe(200);
  expect(await builtAgentJson(bob, copy!.id)).toEqual(original);
});
