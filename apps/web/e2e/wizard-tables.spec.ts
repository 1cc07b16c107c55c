import { expect, test } from '@playwright/test';
import mysql from 'mysql2/promise';
import { E2E } from '../playwright.config';
import { signInThroughApi } from './wizard-support';

// A database and read-only login of this run's own (named after its web port), on the local
// MariaDB, which the e2e gateway allowlists as a data source.
const SOURCE = {
  database: `agentloom_e2e_tables_${E2E.webPort}`,
  user: `al_e2e_${E2E.webPort}`,
  password: 'Pick-A-Table-9!',
};

async function asRoot(work: (admin: mysql.Connection) => Promise<void>): Promise<void> {
  const admin = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

async function dropSource(admin: mysql.Connection): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${SOURCE.database}`);
  for (const host of ['%', 'localhost'])
    await admin.query('DROP USER IF EXISTS ?@?', [SOURCE.user, host]);
}

test.beforeAll(() =>
  asRoot(async (admin) => {
    await dropSource(admin);
    await admin.query(`CREATE DATABASE ${SOURCE.database}`);
    await admin.query(
      `CREATE TABLE ${SOURCE.database}.orders (id INT PRIMARY KEY, customer VARCHAR(80), total DECIMAL(10,2))`,
    );
    await admin.query(`CREATE TABLE ${SOURCE.database}.customers (id INT PRIMARY KEY, name TEXT)`);
    for (const host of ['%', 'localhost']) {
      await admin.query('CREATE USER ?@? IDENTIFIED BY ?', [SOURCE.user, host, SOURCE.password]);
      await admin.query(`GRANT SELECT ON ${SOURCE.database}.* TO ?@?`, [SOURCE.user, host]);
    }
  }),
);
test.afterAll(() => asRoot(dropSource));

test('SQL wizard: connects a real MariaDB database and picks its table from the list', async ({
  page,
  request,
}) => {
  const { token } = await signInThroughApi(page);
  await page.goto('/pipeline/sql');
  const badge = (step: number) => page.getByText(`Step ${step} of 8`, { exact: true });
  await page.getByPlaceholder('Enter a unique name for your agent').fill('Orders analyst');
  await page.getByRole('button', { name: 'Create & Continue' }).click();
  await page.getByRole('button', { name: /^MySQL/ }).click();

  await expect(badge(3)).toBeVisible();
  // The URI stays an alternative to the host, user and password fields (finishable.spec).
  await page.getByRole('button', { name: 'Paste a connection URI' }).click();
  const uri = `mysql://${SOURCE.user}:${encodeURIComponent(SOURCE.password)}@127.0.0.1:3306/${SOURCE.database}`;
  await page.getByLabel('Database URI').fill(uri);
  await page.getByLabel('Database Name').fill(SOURCE.database);
  await page.getByRole('button', { name: 'List tables' }).click();

  const choice = page.getByLabel('Tables in this database');
  await expect(choice.locator('option')).toHaveText(['Pick a table', 'customers', 'orders']);
  await choice.selectOption('orders');
  await expect(page.getByLabel('Table Name')).toHaveValue('orders');
  await page.getByRole('button', { name: 'Connect & Continue' }).click();

  // The gateway probed the picked table for real: its columns are in the saved source.
  await expect(badge(4)).toBeVisible();
  const sessionId = await page.evaluate(() => localStorage.getItem('session_id'));
  const detail = await request.get(`/pipelines/${sessionId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(detail.ok()).toBe(true);
  const { config } = (await detail.json()) as {
    config: { database: { table: string; columns: { name: string }[] } };
  };
  expect(config.database.table).toBe('orders');
  expect(config.database.columns.map((column) => column.name)).toEqual(['id', 'customer', 'total']);
});
