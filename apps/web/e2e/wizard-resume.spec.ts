import { buildPaths, WIZARD_ROUTES } from '@agentloom/contracts';
import {
  apiCall,
  configureRagAgent,
  downloadZip,
  projectFileText,
  startBuild,
  waitForBuild,
} from '@agentloom/test-kit';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { GATEWAY_URL } from '../playwright.config';
import {
  holdSourceRead,
  SALES_CSV,
  salesRagAgent,
  screenshotBothThemes,
  signInThroughApi,
} from './wizard-support';

/**
 * Issue 15: an agent's wizard has an address. Reload, Back/Forward and a new tab land on the
 * same step with the saved answers read back from the server; drafts continue from My Agents;
 * built agents are edited and rebuilt while their previous zip stays downloadable.
 */

const badge = (page: Page, step: number, total: number) =>
  page.getByText(`Step ${step} of ${total}`, { exact: true });

/** Reloads and checks the wizard came back on the same step with `answers` still shown. */
async function reloadKeeps(page: Page, step: number, total: number, answers?: () => Promise<void>) {
  const url = page.url();
  await page.reload();
  await expect(badge(page, step, total)).toBeVisible();
  expect(page.url()).toBe(url);
  await answers?.();
}

test('RAG wizard: every step survives a reload, Back/Forward and a new tab', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  await signInThroughApi(page);
  await page.goto('/pipeline/rag');
  await page.getByPlaceholder('Enter a unique name for your agent').fill('Resumable docs bot');
  await page.getByRole('button', { name: 'Create & Continue' }).click();
  await expect(badge(page, 2, 9)).toBeVisible();
  await expect(page).toHaveURL(/\/pipeline\/rag\/[0-9a-f-]{36}\?step=2$/);
  const sessionId = /rag\/([0-9a-f-]{36})/.exec(page.url())![1]!;
  await reloadKeeps(page, 2, 9);

  // Back from step 2 is the agent's own step 1, name filled — not a blank form that would
  // create the agent a second time.
  await page.goBack();
  await expect(badge(page, 1, 9)).toBeVisible();
  await expect(page.getByLabel('Agent Name')).toHaveValue('Resumable docs bot');
  await reloadKeeps(page, 1, 9, () =>
    expect(page.getByLabel('Agent Name')).toHaveValue('Resumable docs bot'),
  );
  await page.goForward();
  await expect(badge(page, 2, 9)).toBeVisible();

  await page.getByRole('button', { name: /^CSV/ }).click();
  await expect(badge(page, 3, 9)).toBeVisible();
  const csvCard = page.getByRole('button', { name: /^CSV/ });
  await page.goBack();
  await expect(csvCard).toHaveAttribute('aria-pressed', 'true');
  await reloadKeeps(page, 2, 9, () => expect(csvCard).toHaveAttribute('aria-pressed', 'true'));
  await page.goForward();

  await expect(badge(page, 3, 9)).toBeVisible();
  await page.getByLabel('Source File').setInputFiles(SALES_CSV);
  await page.getByRole('button', { name: 'Upload & Continue' }).click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(badge(page, 4, 9)).toBeVisible();
  await page.goBack();
  const uploaded = page.getByText(`Uploaded: sales.csv (${SALES_CSV.buffer.length} B)`);
  await reloadKeeps(page, 3, 9, () => expect(uploaded).toBeVisible());
  // The file on record is kept: Continue moves on without picking it again.
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(badge(page, 4, 9)).toBeVisible();
  await page.getByLabel('Embedding Model').selectOption('bge-small-en');
  await expect(badge(page, 5, 9)).toBeVisible();
  await page.goBack();
  await reloadKeeps(page, 4, 9, () =>
    expect(page.getByLabel('Embedding Model')).toHaveValue('bge-small-en'),
  );
  await page.goForward();

  await expect(badge(page, 5, 9)).toBeVisible();
  await page.getByRole('button', { name: /^Qdrant/ }).click();
  await page.getByText('Advanced', { exact: true }).click();
  await page.getByLabel('Database URL').fill('http://qdrant.internal:6333');
  // bge-small-en's size, filled in by the form.
  await expect(page.getByLabel('Vector Dimensions')).toHaveValue('384');
  await page.getByLabel('Distance Metric').selectOption('euclidean');
  await page.getByRole('button', { name: 'Save & Continue' }).click();
  await expect(badge(page, 6, 9)).toBeVisible();
  await page.goBack();
  await reloadKeeps(page, 5, 9, async () => {
    await expect(page.getByRole('button', { name: /^Qdrant/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByLabel('Database URL')).toHaveValue('http://qdrant.internal:6333');
    await expect(page.getByLabel('Vector Dimensions')).toHaveValue('384');
    await expect(page.getByLabel('Distance Metric')).toHaveValue('euclidean');
  });
  await page.goForward();

  await expect(badge(page, 6, 9)).toBeVisible();
  await page.getByLabel('LLM Provider').selectOption('groq');
  await expect(page.getByLabel('API Key')).toBeEnabled();
  await page.getByLabel('API Key').fill('gsk_e2e_0123456789abcdefWXYZ');
  await page.getByLabel('Model').selectOption('llama-3.3-70b-versatile');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();
  await expect(badge(page, 7, 9)).toBeVisible();
  await page.goBack();
  await reloadKeeps(page, 6, 9, async () => {
    await expect(page.getByLabel('LLM Provider')).toHaveValue('groq');
    await expect(page.getByLabel('Model')).toHaveValue('llama-3.3-70b-versatile');
    // The key is never sent back: the masked one on record is shown, and kept when left empty.
    await expect(
      page.getByText('Saved key gsk_e2e_...WXYZ. Leave empty to keep it.'),
    ).toBeVisible();
  });
  await screenshotBothThemes(page, 'rag-wizard-resumed-6-llm');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();

  await expect(badge(page, 7, 9)).toBeVisible();
  const prompt = 'Answer from the sales table, in one short paragraph.';
  await page.getByLabel('Custom Prompt').fill(prompt);
  await page.getByRole('button', { name: 'Save Prompt & Continue' }).click();
  await expect(badge(page, 8, 9)).toBeVisible();
  await page.goBack();
  await reloadKeeps(page, 7, 9, () => expect(page.getByLabel('Custom Prompt')).toHaveValue(prompt));
  await page.goForward();

  await expect(badge(page, 8, 9)).toBeVisible();
  await page.getByRole('button', { name: /^Streamlit/ }).click();
  await expect(badge(page, 9, 9)).toBeVisible();
  await page.goBack();
  await reloadKeeps(page, 8, 9, () =>
    expect(page.getByRole('button', { name: /^Streamlit/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    ),
  );
  await page.goForward();

  const summary = async (tab: Page) => {
    await expect(badge(tab, 9, 9)).toBeVisible();
    for (const shown of [
      'Resumable docs bot',
      'CSV · sales.csv',
      'bge-small-en',
      'Qdrant',
      'Groq',
      'llama-3.3-70b-versatile',
      'Streamlit',
    ]) {
      await expect(tab.getByText(shown, { exact: true })).toBeVisible();
    }
  };
  await reloadKeeps(page, 9, 9, () => summary(page));

  // The same address in a new tab: the same step and answers, from the server.
  const tab = await context.newPage();
  await tab.goto(page.url());
  await summary(tab);
  expect(tab.url()).toContain(`/pipeline/rag/${sessionId}?step=9`);
  await tab.close();
});

test('SQL wizard: every step survives a reload', async ({ page }) => {
  test.setTimeout(150_000);
  await signInThroughApi(page);
  await page.goto('/pipeline/sql');
  await page.getByPlaceholder('Enter a unique name for your agent').fill('Resumable analyst');
  await page.getByRole('button', { name: 'Create & Continue' }).click();
  await expect(badge(page, 2, 8)).toBeVisible();
  await page.goto(page.url().replace('step=2', 'step=1'));
  await reloadKeeps(page, 1, 8, () =>
    expect(page.getByLabel('Agent Name')).toHaveValue('Resumable analyst'),
  );
  // The agent exists: step 1 saves (renames) it, it does not create another.
  await page.getByRole('button', { name: 'Save & Continue' }).click();

  await expect(badge(page, 2, 8)).toBeVisible();
  await page.getByRole('button', { name: /^CSV/ }).click();
  await expect(badge(page, 3, 8)).toBeVisible();
  await reloadKeeps(page, 3, 8, () => expect(page.getByText('Supports: CSV files')).toBeVisible());
  await page.getByLabel('Source File').setInputFiles(SALES_CSV);
  await page.getByRole('button', { name: 'Upload & Continue' }).click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(badge(page, 4, 8)).toBeVisible();
  await page.getByLabel('LLM Provider').selectOption('deepseek');
  await page.getByLabel('API Key').fill('sk-e2e-deepseek-0123456789');
  await page.getByLabel('Model').selectOption('deepseek-chat');
  await reloadKeeps(page, 4, 8, () => expect(page.getByLabel('LLM Provider')).toHaveValue(''));
  await page.getByLabel('LLM Provider').selectOption('deepseek');
  await page.getByLabel('API Key').fill('sk-e2e-deepseek-0123456789');
  await page.getByLabel('Model').selectOption('deepseek-chat');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();

  await expect(badge(page, 5, 8)).toBeVisible();
  await page.goBack();
  await reloadKeeps(page, 4, 8, async () => {
    await expect(page.getByLabel('LLM Provider')).toHaveValue('deepseek');
    await expect(page.getByLabel('Model')).toHaveValue('deepseek-chat');
  });
  await page.goForward();
  await page.getByRole('button', { name: /^Data analyst/ }).click();
  await page.getByRole('button', { name: 'Save Prompt & Continue' }).click();

  await expect(badge(page, 6, 8)).toBeVisible();
  await page.goBack();
  await reloadKeeps(page, 5, 8, () =>
    expect(page.getByRole('button', { name: /^Data analyst/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    ),
  );
  await page.goForward();
  // PandasAI is an expert engine, under Advanced (the recommended one is chosen already).
  await page.getByText(/^Advanced: other query engines/).click();
  await page.getByRole('button', { name: /^PandasAI/ }).click();
  await page.getByRole('button', { name: 'Save & Continue' }).click();

  await expect(badge(page, 7, 8)).toBeVisible();
  await page.goBack();
  await reloadKeeps(page, 6, 8, () =>
    expect(page.getByRole('button', { name: /^PandasAI/ })).toHaveAttribute('aria-pressed', 'true'),
  );
  await page.goForward();
  await page.getByRole('button', { name: /^Gradio/ }).click();

  await expect(badge(page, 8, 8)).toBeVisible();
  await page.goBack();
  await reloadKeeps(page, 7, 8, () =>
    expect(page.getByRole('button', { name: /^Gradio/ })).toHaveAttribute('aria-pressed', 'true'),
  );
  await page.goForward();
  await reloadKeeps(page, 8, 8, async () => {
    for (const shown of ['Resumable analyst', 'CSV', 'sales.csv', 'Deepseek', 'PandasAI']) {
      await expect(page.getByText(shown, { exact: true })).toBeVisible();
    }
  });
});

test('a draft continues from My Agents at its first unfinished step', async ({ page, request }) => {
  const { token } = await signInThroughApi(page);
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post(`${GATEWAY_URL}/pipelines`, {
    headers,
    data: { name: 'Half-made bot', agent_type: 'rag' },
  });
  const sessionId = ((await created.json()) as { session_id: string }).session_id;
  const source = await request.post(`${GATEWAY_URL}${WIZARD_ROUTES.rag.source}`, {
    headers,
    form: { session_id: sessionId, source_type: 'csv' },
  });
  expect(source.status()).toBe(200);

  await page.goto('/dashboard?view=agents');
  // The view is in the address: a reload keeps My Agents.
  await page.reload();
  const card = page.getByRole('article', { name: 'Half-made bot' });
  await expect(card.getByText('Draft')).toBeVisible();
  await card.getByRole('link', { name: 'Continue setup' }).click();
  await expect(page).toHaveURL(new RegExp(`/pipeline/rag/${sessionId}$`));
  await expect(badge(page, 3, 9)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Source Details' })).toBeVisible();
  // Back returns to the list it came from.
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'My Agents' })).toBeVisible();
});

test('a built agent edited with a new prompt and rebuilt: the old zip stays downloadable until the new one is Built', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const user = await signInThroughApi(page);
  const sessionId = await configureRagAgent(GATEWAY_URL, user, salesRagAgent('Editable bot'));
  expect((await startBuild(GATEWAY_URL, user, sessionId)).status).toBe(200);
  expect((await waitForBuild(GATEWAY_URL, user, sessionId)).status).toBe('Built');
  const buildStatus = async () =>
    (await apiCall(GATEWAY_URL, buildPaths.view(sessionId), { token: user.token })).body
      .status as string;

  /** The zip the agent's Download serves right now: its system prompt. */
  const downloadedPrompt = async () => {
    const answer = await downloadZip(GATEWAY_URL, user, buildPaths.download('rag', sessionId));
    expect(answer.status).toBe(200);
    return projectFileText(answer.zip, 'prompts/system.txt');
  };
  expect(await downloadedPrompt()).toBe('Answer from the sales table only.');

  await page.goto('/dashboard?view=agents');
  const card = page.getByRole('article', { name: 'Editable bot' });
  // Edit opens the summary of every answer, one Change link per step (issue 30 #5).
  await card.getByRole('link', { name: 'Edit Editable bot' }).click();
  await expect(badge(page, 9, 9)).toBeVisible();
  for (const row of ['Agent Name', 'Data Source', 'Embedding Model', 'Vector Store']) {
    await expect(page.getByRole('link', { name: `Change ${row}` })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'Change System Prompt' })).toBeVisible();
  await screenshotBothThemes(page, 'edit-summary');
  await page.getByRole('link', { name: 'Change System Prompt' }).click();
  await expect(badge(page, 7, 9)).toBeVisible();
  await expect(page.getByLabel('Custom Prompt')).toHaveValue('Answer from the sales table only.');
  await page.getByLabel('Custom Prompt').fill('Answer in French, from the sales table only.');
  await page.getByRole('button', { name: 'Save Prompt & Continue' }).click();
  // Saving one step returns to the summary, which shows the new answer.
  await expect(badge(page, 9, 9)).toBeVisible();
  await expect(page.getByText('Answer in French, from the sales table only.')).toBeVisible();
  // Completed steps are links in the step list: one click to the embedding step and back.
  await page
    .getByRole('list', { name: 'Steps' })
    .getByRole('link', { name: /Embedding/ })
    .click();
  await expect(badge(page, 4, 9)).toBeVisible();
  await page.getByRole('link', { name: 'Back to summary without changing' }).click();
  await expect(badge(page, 9, 9)).toBeVisible();

  // Hold the rebuild mid-way to check the previous zip is still what Download serves.
  const held = await holdSourceRead(sessionId, { holdPlan: true });
  try {
    await page.getByRole('button', { name: 'Build & Deploy RAG Agent' }).click();
    await page.waitForURL(`**/build/rag/${sessionId}`);
    expect(await buildStatus()).toBe('Building');
    expect(await downloadedPrompt()).toBe('Answer from the sales table only.');
  } finally {
    await held.release();
  }
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  expect(await downloadedPrompt()).toBe('Answer in French, from the sales table only.');

  // The agent's builds, told apart: numbers, what changed, each zip under its own name.
  await page.goto('/dashboard?view=agents');
  await card.getByRole('button', { name: 'Builds' }).click();
  const builds = card.getByRole('list', { name: 'Builds of Editable bot' });
  const second = builds.getByRole('listitem', { name: 'Build 2' });
  await expect(second).toContainText('System prompt');
  await expect(builds.getByRole('listitem', { name: 'Build 1' })).toContainText('First build');
  await screenshotBothThemes(page, 'agents-builds');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    builds.getByRole('button', { name: 'Download build 1' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`editable-bot-build-1.zip`);
  const first = testInfo.outputPath('build-1.zip');
  await download.saveAs(first);
  expect(await projectFileText(first, 'prompts/system.txt')).toBe(
    'Answer from the sales table only.',
  );
});

/** Presses Tab until `target` has the focus (a keyboard user's way there), at most 40 times. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 40; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('RAG wizard by keyboard alone; arrowing through a dropdown neither saves nor advances', async ({
  page,
}) => {
  test.setTimeout(150_000);
  await signInThroughApi(page);
  const saves: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST') saves.push(new URL(sent.url()).pathname);
  });
  await page.goto('/pipeline/rag');
  await tabTo(page, page.getByLabel('Agent Name'));
  await page.keyboard.type('Keyboard bot');
  await page.keyboard.press('Enter');

  await expect(badge(page, 2, 9)).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: /^CSV/ }));
  await page.keyboard.press('Enter');

  await expect(badge(page, 3, 9)).toBeVisible();
  await tabTo(page, page.getByLabel('Source File'));
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.keyboard.press('Space'),
  ]);
  await chooser.setFiles(SALES_CSV);
  await tabTo(page, page.getByRole('button', { name: 'Upload & Continue' }));
  await page.keyboard.press('Enter');
  // What was read is said first; the same button, now Continue, moves on.
  await expect(
    page.getByRole('status').filter({ hasText: 'Read 6 rows, 4 columns' }),
  ).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: 'Continue', exact: true }));
  await page.keyboard.press('Enter');

  await expect(badge(page, 4, 9)).toBeVisible();
  const embedding = page.getByLabel('Embedding Model');
  await tabTo(page, embedding);
  // The recommended model is chosen already (issue 30); arrowing moves to the next one.
  await expect(embedding).toHaveValue('all-MiniLM-L6-v2');
  await page.keyboard.press('ArrowDown');
  await expect(embedding).toHaveValue('all-MiniLM-L12-v2');
  // Still on step 4 and nothing saved: choosing is explicit.
  await expect(badge(page, 4, 9)).toBeVisible();
  expect(saves).not.toContain(WIZARD_ROUTES.rag.embedding);
  // Enter on the list chooses the model shown.
  await page.keyboard.press('Enter');

  await expect(badge(page, 5, 9)).toBeVisible();
  expect(saves.filter((path) => path === WIZARD_ROUTES.rag.embedding)).toHaveLength(1);
  await tabTo(page, page.getByRole('button', { name: /^ChromaDB/ }));
  await page.keyboard.press('Enter');
  // The settings are filled in; opening Advanced and pressing Enter accepts them.
  await tabTo(page, page.getByText('Advanced', { exact: true }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('Database URL'));
  await page.keyboard.press('Enter');

  await expect(badge(page, 6, 9)).toBeVisible();
  const provider = page.getByLabel('LLM Provider');
  await tabTo(page, provider);
  await page.keyboard.press('ArrowDown');
  await expect(provider).toHaveValue('openai');
  expect(saves).not.toContain(WIZARD_ROUTES.rag.provider);
  await page.keyboard.press('Enter');
  await expect.poll(() => saves.includes(WIZARD_ROUTES.rag.provider)).toBe(true);
  await tabTo(page, page.getByLabel('API Key'));
  await page.keyboard.type('sk-e2e-keyboard-0123456789');
  await tabTo(page, page.getByLabel('Model'));
  // OpenAI's recommended gpt-4o-mini is chosen already; one up is gpt-4o.
  await expect(page.getByLabel('Model')).toHaveValue('gpt-4o-mini');
  await page.keyboard.press('ArrowUp');
  await expect(page.getByLabel('Model')).toHaveValue('gpt-4o');
  await tabTo(page, page.getByRole('button', { name: 'Connect & Continue' }));
  await page.keyboard.press('Enter');

  await expect(badge(page, 7, 9)).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: /^Helpful assistant/ }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: 'Save Prompt & Continue' }));
  await page.keyboard.press('Enter');

  await expect(badge(page, 8, 9)).toBeVisible();
  await tabTo(page, page.getByRole('button', { name: /^Gradio/ }));
  await page.keyboard.press('Enter');

  await expect(badge(page, 9, 9)).toBeVisible();
  await expect(page.getByText('text-embedding-ada-002')).toHaveCount(0);
  await tabTo(page, page.getByRole('button', { name: 'Build & Deploy RAG Agent' }));
  await page.keyboard.press('Enter');
  await page.waitForURL('**/build/rag/*');
});
