import { configureRagAgent, startBuild, waitForBuild } from '@agentloom/test-kit';
import { expect, test, type Page } from '@playwright/test';
import mysql from 'mysql2/promise';
import { randomBytes } from 'node:crypto';
import { E2E, GATEWAY_URL, LLM_URL } from '../playwright.config';
import { salesRagAgent, SALES_CSV, screenshotBothThemes, signInThroughApi } from './wizard-support';

/**
 * Issue 30: a product a non-programmer finishes — sessions that end honestly, every screen on a
 * phone, goals instead of jargon, databases without URIs, publishing without developer speak.
 */

const badge = (page: Page, step: number, total: number) =>
  page.getByText(`Step ${step} of ${total}`, { exact: true });

test('a 401 anywhere signs out with "Your session ended" and returns the user where they were', async ({
  page,
}) => {
  const user = await signInThroughApi(page);
  await page.goto('/dashboard?view=agents');
  await expect(page.getByText('No agents yet')).toBeVisible();
  // The password is reset in another tab: the token this tab holds is refused from now on, and
  // the next page the user opens asks the server with it.
  await page.evaluate(() => localStorage.setItem('token', `${localStorage.getItem('token')}x`));
  await page.goto('/dashboard?view=keys');

  await page.waitForURL('**/login');
  await expect(page.getByText(/Your session ended — please log in again/)).toBeVisible();
  await expect(page.getByText('Failed to load API keys')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/dashboard?view=keys');
  await expect(page.getByRole('heading', { name: 'API Keys' })).toBeVisible();

  // Without a reload too: the token goes bad while the app is open, and the next call it makes
  // (the wizard creating an agent) ends the session the same way, back to the wizard after.
  await page.goto('/pipeline/rag');
  await page.evaluate(() => localStorage.setItem('token', `${localStorage.getItem('token')}x`));
  await page.getByPlaceholder('Enter a unique name for your agent').fill('After the reset');
  await page.getByRole('button', { name: 'Create & Continue' }).click();
  await page.waitForURL('**/login');
  await expect(page.getByText(/Your session ended — please log in again/)).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL('**/pipeline/rag');
  await expect(badge(page, 1, 9)).toBeVisible();
});

/** Sideways overflow of the page at the current width, in px (0: it fits). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('every screen fits a 375 px phone without sideways scrolling, light and dark', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const user = await signInThroughApi(page);
  const agentId = await configureRagAgent(
    GATEWAY_URL,
    user,
    salesRagAgent('A rather long agent name for a small phone screen'),
  );
  expect((await startBuild(GATEWAY_URL, user, agentId)).status).toBe(200);
  expect((await waitForBuild(GATEWAY_URL, user, agentId)).status).toBe('Built');

  await page.setViewportSize({ width: 375, height: 800 });
  const pages = [
    '/',
    '/features',
    '/docs',
    '/developers',
    '/privacy-policy',
    '/no-such-page',
    '/dashboard',
    '/dashboard?view=agents',
    '/dashboard?view=keys',
    '/dashboard?view=profile',
    '/dashboard/create-agent',
    '/pipeline/rag',
    '/pipeline/sql',
    `/pipeline/rag/${agentId}?step=3`,
    `/pipeline/rag/${agentId}?step=9`,
    `/build/rag/${agentId}`,
    '/build/image',
  ];
  for (const path of pages) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    for (const dark of [false, true]) {
      await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
      expect(await overflow(page), `${path} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
    }
    await page.evaluate(() => document.documentElement.classList.remove('dark'));
  }

  // My Agents with the card's panels open: publishing, the builds, the menu.
  await page.goto('/dashboard?view=agents');
  const card = page.getByRole('article', { name: /A rather long agent name/ });
  await card.getByRole('button', { name: /^Publish / }).click();
  const panel = card.getByRole('region', { name: /Publishing of/ });
  await panel.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(panel.getByText('Published', { exact: true })).toBeVisible();
  await card.getByRole('button', { name: 'Builds' }).click();
  expect(await overflow(page), 'My Agents with its panels open').toBeLessThanOrEqual(0);
  const box = await card.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  await expect(card.getByRole('button', { name: /^Delete / })).toBeInViewport();
  await screenshotBothThemes(page, 'my-agents-375px');

  await page.getByRole('button', { name: /menu/i }).first().click();
  const menuLinks = page.getByRole('link', { name: 'Features' });
  for (const link of await menuLinks.all()) {
    if (!(await link.isVisible())) continue;
    const linkBox = await link.boundingBox();
    expect(linkBox!.x).toBeGreaterThanOrEqual(0);
    expect(linkBox!.x + linkBox!.width).toBeLessThanOrEqual(375);
  }
  expect(await overflow(page), 'the open menu').toBeLessThanOrEqual(0);
});

test('agent kinds are goals with kind names beside them; recommended choices are preselected; counting questions over a table are flagged', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const user = await signInThroughApi(page);
  await page.goto('/dashboard/create-agent');
  const rag = page.getByRole('link', { name: /Answer questions from documents/ });
  await expect(rag).toContainText('RAG Agent');
  await expect(rag).toHaveAttribute('href', '/pipeline/rag');
  const sql = page.getByRole('link', { name: /Calculate answers from tables/ });
  await expect(sql).toContainText('SQL Agent');
  await expect(sql).toContainText('How many orders were cancelled?');
  await screenshotBothThemes(page, 'create-agent-goals');

  // The embedding step: a model is chosen already, with the reason, and one press keeps it.
  const agentId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Orders helper'));
  await page.goto(`/pipeline/rag/${agentId}?step=4`);
  await expect(
    page.getByText(/Recommended:.*all-MiniLM-L6-v2 — free, needs no API key/),
  ).toBeVisible();

  // A RAG agent over a CSV: counting questions are named before it is built, with the way out.
  await page.goto(`/pipeline/rag/${agentId}?step=9`);
  const expected = page.getByLabel(/Questions you expect people to ask/);
  await expected.fill('What did West Gadgets order?');
  await expect(page.getByText(/need a SQL agent/)).toHaveCount(0);
  await expected.fill('What did West Gadgets order?\nHow many orders were cancelled?');
  await expect(page.getByText(/“How many orders were cancelled\?”/)).toBeVisible();
  await expect(page.getByRole('link', { name: /Build a SQL agent/ })).toHaveAttribute(
    'href',
    '/pipeline/sql',
  );
  await screenshotBothThemes(page, 'rag-counting-warning');

  // The SQL wizard's query engine: plain SQL chosen, the expert engines under Advanced.
  await page.goto('/pipeline/sql');
  await page.getByPlaceholder('Enter a unique name for your agent').fill('Orders counter');
  await page.getByRole('button', { name: 'Create & Continue' }).click();
  await page.getByRole('button', { name: /^CSV/ }).click();
  await page.getByLabel('Source File').setInputFiles(SALES_CSV);
  await page.getByRole('button', { name: 'Upload & Continue' }).click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(badge(page, 4, 8)).toBeVisible();
  await page.goto(page.url().replace(/step=\d+/, 'step=6'));
  await expect(page.getByRole('button', { name: /^SQL Query \(file\)/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('button', { name: /^PandasAI/ })).toBeHidden();
  await page.getByText(/^Advanced: other query engines/).click();
  await expect(page.getByRole('button', { name: /^PandasAI/ })).toBeVisible();
});

// A MariaDB login of this run's own whose password holds every character a URI reserves.
const DB = {
  database: `agentloom_e2e_fields_${E2E.webPort}`,
  user: `al_fields_${E2E.webPort}`,
  password: 'p#@:/%Rose-9',
};

async function asRoot(work: (admin: mysql.Connection) => Promise<void>): Promise<void> {
  const admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

async function dropDb(admin: mysql.Connection): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${DB.database}`);
  for (const host of ['%', 'localhost'])
    await admin.query('DROP USER IF EXISTS ?@?', [DB.user, host]);
}

test.describe('a database by its fields', () => {
  test.beforeAll(() =>
    asRoot(async (admin) => {
      await dropDb(admin);
      await admin.query(`CREATE DATABASE ${DB.database}`);
      await admin.query(
        `CREATE TABLE ${DB.database}.orders (id INT PRIMARY KEY, customer VARCHAR(80), status VARCHAR(20))`,
      );
      await admin.query(`INSERT INTO ${DB.database}.orders VALUES (1, 'Jack King', 'cancelled')`);
      for (const host of ['%', 'localhost']) {
        await admin.query('CREATE USER ?@? IDENTIFIED BY ?', [DB.user, host, DB.password]);
        await admin.query(`GRANT SELECT ON ${DB.database}.* TO ?@?`, [DB.user, host]);
      }
    }),
  );
  test.afterAll(() => asRoot(dropDb));

  test('host, port, user and a password with # @ : / % connect a real MariaDB; edit keeps the password', async ({
    page,
  }) => {
    await signInThroughApi(page);
    await page.goto('/pipeline/sql');
    await page.getByPlaceholder('Enter a unique name for your agent').fill('Bakery orders');
    await page.getByRole('button', { name: 'Create & Continue' }).click();
    await page.getByRole('button', { name: /^MySQL/ }).click();
    await expect(badge(page, 3, 8)).toBeVisible();

    await expect(page.getByLabel('Port')).toHaveValue('3306');
    await page.getByLabel('Host').fill('127.0.0.1');
    await page.getByLabel('User').fill(DB.user);
    await page.getByLabel('Password').fill(DB.password);
    await page.getByLabel('Database Name').fill(DB.database);
    await page.getByRole('button', { name: 'List tables' }).click();
    await page.getByLabel('Tables in this database').selectOption('orders');
    await expect(page.getByLabel('Table Name')).toHaveValue('orders');
    await screenshotBothThemes(page, 'database-fields');
    await page.getByRole('button', { name: 'Connect & Continue' }).click();
    await expect(badge(page, 4, 8)).toBeVisible();

    // Back from the summary: the saved connection reads back as fields, the password kept.
    await page.goto(page.url().replace(/step=\d+/, 'step=8'));
    await page.getByRole('link', { name: 'Change Connection' }).click();
    await expect(page.getByLabel('Host')).toHaveValue('127.0.0.1');
    await expect(page.getByLabel('User')).toHaveValue(DB.user);
    await expect(page.getByText('Saved. Leave empty to keep it.')).toBeVisible();
    await page.getByRole('button', { name: 'Paste a connection URI' }).click();
    await expect(page.getByLabel('Database URI')).toHaveValue(
      `mysql://${DB.user}:****@127.0.0.1:3306/${DB.database}`,
    );
    await page.getByRole('button', { name: 'Enter host, user and password' }).click();
    await page.getByRole('button', { name: 'Connect & Continue' }).click();
    await expect(badge(page, 8, 8)).toBeVisible();
    await expect(page.getByText(`${DB.database}.orders`)).toBeVisible();

    // Renaming from the summary renames this agent; it does not make a second one.
    await page.getByRole('link', { name: 'Change Agent Name' }).click();
    await page.getByLabel('Agent Name').fill('Rose bakery orders');
    await page.getByRole('button', { name: 'Save & Continue' }).click();
    await expect(badge(page, 8, 8)).toBeVisible();
    await expect(page.getByText('Rose bakery orders', { exact: true })).toBeVisible();
    const agents = await page.request.get('/pipelines', {
      headers: {
        Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}`,
      },
    });
    expect(((await agents.json()) as { name: string }[]).map((agent) => agent.name)).toEqual([
      'Rose bakery orders',
    ]);
  });
});

test('the publish panel: copy buttons, examples with the agent id, sites as plain domains, and the website guide', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const user = await signInThroughApi(page);
  const agentId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Rose bakery helper'));
  expect((await startBuild(GATEWAY_URL, user, agentId)).status).toBe(200);
  expect((await waitForBuild(GATEWAY_URL, user, agentId)).status).toBe('Built');

  await page.goto('/dashboard?view=agents');
  const card = page.getByRole('article', { name: 'Rose bakery helper' });
  await card.getByRole('button', { name: 'Publish Rose bakery helper' }).click();
  const panel = card.getByRole('region', { name: 'Publishing of Rose bakery helper' });
  await panel.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(panel.getByText('Published', { exact: true })).toBeVisible();

  // Examples ready to paste, each with this agent's own address or id, folded under the share
  // page and widget.
  await panel.getByText('For developers: API, MCP server and access keys').click();
  const example = panel.getByRole('tabpanel');
  await expect(example).toContainText(`/agents/${agentId}/chat`);
  await expect(example).toContainText('curl -X POST');
  await panel.getByRole('tab', { name: 'Python (openai)' }).click();
  await expect(example).toContainText(`model="${agentId}"`);
  await expect(example).toContainText('from openai import OpenAI');
  await panel.getByRole('button', { name: 'Copy Python (openai) example' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`model="${agentId}"`);
  await panel.getByRole('tab', { name: 'JavaScript' }).click();
  await expect(example).toContainText('await fetch(');

  // A new access key is copied with one click.
  await panel.getByRole('button', { name: 'New access key' }).click();
  const secret = await panel.getByTestId('new-access-key').innerText();
  await panel.getByRole('button', { name: 'Copy access key' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  // And the examples now carry it, so they run as pasted.
  await expect(example).toContainText(secret);

  // A plain domain is a site: saved as its https:// and http:// origins (issue 43, item 7), then
  // the snippet can be copied.
  await panel.getByLabel('Sites that may embed the chat widget').fill('www.rosebakery.com');
  await expect(
    panel.getByText('Will allow: https://www.rosebakery.com, http://www.rosebakery.com'),
  ).toBeVisible();
  await panel.getByRole('button', { name: 'Save sites' }).click();
  await expect(panel.getByLabel('Sites that may embed the chat widget')).toHaveValue(
    'https://www.rosebakery.com\nhttp://www.rosebakery.com',
  );
  await panel.getByRole('button', { name: 'Copy widget snippet' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(
    `data-agent="${agentId}"`,
  );
  // A table agent's rows stay away from visitors until the owner shows them, with a warning.
  const sources = panel.getByLabel('Show sources to visitors');
  await expect(sources).not.toBeChecked();
  // The switch follows the saved setting, so it changes once the server has it.
  await sources.click();
  await expect(sources).toBeChecked();
  await expect(panel.getByText(/visitors will see its raw rows/)).toBeVisible();
  await sources.click();
  await expect(sources).not.toBeChecked();
  await expect(panel.getByText(/visitors will see its raw rows/)).toHaveCount(0);
  await panel.getByLabel('Public share page').click();
  await panel.getByRole('button', { name: 'Copy share link' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`/s/${agentId}`);
  await screenshotBothThemes(page, 'publish-panel');
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await overflow(page), 'the publish panel at 375 px').toBeLessThanOrEqual(0);
  await screenshotBothThemes(page, 'publish-panel-375px');
  await page.setViewportSize({ width: 1280, height: 720 });

  // The guide the panel links to.
  await panel.getByRole('link', { name: 'step-by-step guide' }).click();
  await page.waitForURL('**/docs#website-chat');
  const guide = page.getByRole('region', { name: 'Put the chat on your website' });
  await expect(guide).toBeVisible();
  await expect(guide).toContainText('www.rosebakery.com');
});

test('keys: a key typed in the wizard is offered to the next agent; the vault refuses a key the provider rejects; deleting names the agents it affects', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const user = await signInThroughApi(page);
  const first = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('First helper'));
  const second = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Second helper'));
  const good = `sk-good-${randomBytes(12).toString('hex')}`;

  await page.goto(`/pipeline/rag/${first}?step=6`);
  await page.getByLabel('LLM Provider').selectOption('openai');
  // The provider's recommended model is chosen already, with the reason beside it.
  await expect(page.getByLabel('Model')).toHaveValue('gpt-4o-mini');
  await expect(page.getByText(/^Recommended: gpt-4o-mini — fast and inexpensive/)).toBeVisible();
  await page.getByLabel('API Key', { exact: true }).fill(good);
  await expect(
    page.getByLabel('Save this key for other agents (in your API key vault)'),
  ).toBeChecked();
  await page.getByLabel('Model').selectOption('gpt-4o-mini');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();
  await expect(badge(page, 7, 9)).toBeVisible();

  // The next agent is offered the saved key for the same provider.
  await page.goto(`/pipeline/rag/${second}?step=6`);
  await page.getByLabel('LLM Provider').selectOption('openai');
  await expect(page.getByRole('radio', { name: 'Use a saved key' })).toBeChecked();
  const saved = page.getByLabel('Saved Key');
  await expect(saved.locator('option', { hasText: good.slice(-4) })).toHaveCount(1);
  await page.getByLabel('Model').selectOption('gpt-4o-mini');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();
  await expect(badge(page, 7, 9)).toBeVisible();

  // The vault checks a key with its provider before keeping it.
  const refused = `sk-refused-${randomBytes(12).toString('hex')}`;
  expect(
    (await request.post(`${LLM_URL}/_test/rejected-keys`, { data: { key: refused } })).ok(),
  ).toBe(true);
  await page.goto('/dashboard?view=keys');
  await page.getByRole('button', { name: 'Add API Key' }).click();
  await page.getByLabel('Provider').selectOption('openai');
  await page.getByRole('textbox', { name: 'API Key' }).fill(refused);
  await page.getByRole('button', { name: 'Save Key' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The key was not saved' })).toContainText(
    'OpenAI rejected this key',
  );
  await expect(page.getByTestId('api-key-value')).toHaveCount(1);

  // Deleting the saved key names the agent set up with it and what happens to it. (The first
  // agent keeps the copy typed into its own wizard: the vault key is not its key.)
  await page.getByRole('button', { name: /^Delete .* key$/ }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Used by “Second helper”.');
  await expect(dialog).not.toContainText('First helper');
  await expect(dialog).toContainText('stop until you choose another key');
  await screenshotBothThemes(page, 'key-delete-dialog');
});

test('smaller things: the username rule before the error, Recent Activity from real work, the team page named as such', async ({
  page,
}) => {
  await page.goto('/signup');
  await expect(
    page.getByText('3 to 32 letters, digits, dots, dashes or underscores — no spaces.'),
  ).toBeVisible();
  await page.getByLabel('Username').fill('rose bakery');
  await expect(
    page.getByText('Username may contain only letters, digits, dots, dashes and underscores.'),
  ).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Our team' }),
  ).toHaveAttribute('href', '/developers');

  const user = await signInThroughApi(page);
  await page.goto('/dashboard');
  const activity = page.getByRole('region', { name: 'Recent Activity' });
  // A new account sees SPEC's hard-coded sample entries, labelled as such.
  await expect(activity.getByText('Sample data')).toBeVisible();
  await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Rose bakery helper'));
  await page.reload();
  await expect(activity).toContainText('Created RAG agent “Rose bakery helper”');
  await expect(activity.getByText('Sample data')).toHaveCount(0);
  await expect(activity).not.toContainText('Support Knowledge Base');
});
