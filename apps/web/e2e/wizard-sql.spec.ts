import { SQL_BUILD_STAGES, stageLabel } from '@agentloom/contracts';
import { expect, test } from '@playwright/test';
import { projectFiles } from '@agentloom/test-kit';
import { randomBytes } from 'node:crypto';
import { SALES_CSV, screenshotBothThemes, signInThroughApi } from './wizard-support';

test('SQL wizard over a CSV: typed key, file framework, build animation, download', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  await signInThroughApi(page);
  await page.goto('/pipeline/sql');
  const badge = (step: number) => page.getByText(`Step ${step} of 8`, { exact: true });

  await expect(badge(1)).toBeVisible();
  await expect(page.getByLabel('Agent Type')).toHaveText('SQL Agent');
  await page.getByPlaceholder('Enter a unique name for your agent').fill('Sales analyst');
  await page.getByRole('button', { name: 'Create & Continue' }).click();

  await expect(badge(2)).toBeVisible();
  const sessionId = await page.evaluate(() => localStorage.getItem('session_id'));
  await page.getByRole('button', { name: /^CSV/ }).click();

  await expect(badge(3)).toBeVisible();
  await expect(page.getByLabel('Source File')).toHaveAttribute('accept', '.csv');
  await page.getByRole('button', { name: 'Upload & Continue' }).click();
  await expect(page.getByText('No file selected')).toBeVisible();
  await page.getByLabel('Source File').setInputFiles(SALES_CSV);
  await screenshotBothThemes(page, 'sql-wizard-3-upload');
  await page.getByRole('button', { name: 'Upload & Continue' }).click();
  // What was read is said before moving on (issue 43, item 6).
  await expect(
    page.getByRole('status').filter({ hasText: 'Read 6 rows, 4 columns' }),
  ).toBeVisible();
  await expect(badge(3)).toBeVisible();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(badge(4)).toBeVisible();
  await page.getByLabel('LLM Provider').selectOption('groq');
  await page.getByLabel('API Key').fill(`gsk_${randomBytes(16).toString('hex')}`);
  await page.getByLabel('Model').selectOption('llama-3.3-70b-versatile');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();

  await expect(badge(5)).toBeVisible();
  await page.getByRole('button', { name: /^Data analyst/ }).click();
  await page.getByRole('button', { name: 'Save Prompt & Continue' }).click();

  await expect(badge(6)).toBeVisible();
  // The recommended engine for a file is chosen already; the others wait under Advanced, the
  // database ones disabled for a CSV source.
  await expect(page.getByRole('button', { name: /^SQL Query \(file\)/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await page.getByText(/^Advanced: other query engines/).click();
  await expect(page.getByRole('button', { name: /^SQL Query \(database\)/ })).toBeDisabled();
  await screenshotBothThemes(page, 'sql-wizard-6-framework');
  await page.getByRole('button', { name: 'Save & Continue' }).click();

  await expect(badge(7)).toBeVisible();
  await page.getByRole('button', { name: /^Gradio/ }).click();

  await expect(badge(8)).toBeVisible();
  await expect(page.getByText('sales.csv')).toBeVisible();
  await expect(page.getByText('SQL Query (file)')).toBeVisible();
  await screenshotBothThemes(page, 'sql-wizard-8-build');
  await page.getByRole('button', { name: 'Build & Deploy SQL Agent' }).click();

  await page.waitForURL(`**/sql/build/animation/sql/${sessionId}`);
  const stages = page.getByRole('list', { name: 'Build stages' });
  await expect(stages.getByRole('listitem')).toHaveCount(SQL_BUILD_STAGES.length);
  for (const stage of SQL_BUILD_STAGES) {
    await expect(stages.getByText(stageLabel(stage))).toBeVisible();
  }
  await expect(stages.getByRole('listitem').first()).toContainText(/\((in progress|done)\)/);
  await expect(page.getByRole('heading', { name: 'Build Completed' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(stages.getByRole('listitem').filter({ hasText: '(done)' })).toHaveCount(
    SQL_BUILD_STAGES.length,
  );
  await screenshotBothThemes(page, 'sql-build-completed');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download Code' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`sql-agent-${sessionId}.zip`);
  const zipPath = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(zipPath);
  const files = await projectFiles(zipPath);
  expect(files).toEqual(expect.arrayContaining(['app.py', 'Dockerfile', 'README.md']));
});
