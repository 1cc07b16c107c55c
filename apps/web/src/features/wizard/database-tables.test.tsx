import { WIZARD_ROUTES, wizardPaths } from '@agentloom/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { formOf, mockFetch, renderRoute, signIn, textOf, type Call } from '../testing/render';
import { SESSION, wizardServerPerTest } from '../testing/wizard-server';
import { WizardPage } from './wizard-page';

const TABLES_PATH = wizardPaths.sourceTables(SESSION);
const rag = wizardServerPerTest('rag');
const sql = wizardServerPerTest('sql');

function renderWizard(type: 'rag' | 'sql') {
  signIn();
  return renderRoute(`/pipeline/${type}`, '/pipeline/:type/:sessionId?', <WizardPage />);
}

/** Steps 1–2 with a database source chosen, up to its connection form. */
async function toDatabaseStep(user: ReturnType<typeof userEvent.setup>, source: RegExp) {
  await user.type(screen.getByLabelText(/Agent Name/), 'Orders bot');
  await user.click(screen.getByRole('button', { name: 'Create & Continue' }));
  await user.click(await screen.findByRole('button', { name: source }));
  await screen.findByRole('button', { name: 'List tables' });
}

describe('Source step: the tables of a database', () => {
  beforeEach(() => localStorage.clear());

  it('lists the tables, and picking one fills the table field, which stays typeable (RAG)', async () => {
    const { calls } = mockFetch((call: Call) =>
      call.path === TABLES_PATH ? { json: { tables: ['tickets', 'sales.invoices'] } } : rag(call),
    );
    const user = userEvent.setup();
    renderWizard('rag');
    await toDatabaseStep(user, /^Postgres/);
    // Host, port, user and password, not a URI: the password's # @ : / % are encoded for the user.
    expect(screen.getByRole('button', { name: 'Enter host, user and password' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByLabelText('Port')).toHaveValue('5432');
    await user.clear(screen.getByLabelText('Host'));
    await user.type(screen.getByLabelText('Host'), 'db');
    await user.type(screen.getByLabelText('User'), 'u');
    await user.type(screen.getByLabelText('Password'), 'p#@:/%');
    await user.type(screen.getByLabelText(/Database Name/), 'shop');
    await user.click(screen.getByRole('button', { name: 'List tables' }));

    const choice = await screen.findByLabelText('Tables in this database');
    expect(JSON.parse(textOf(calls.find((call) => call.path === TABLES_PATH)))).toEqual({
      source_type: 'postgres',
      uri: 'postgresql://u:p%23%40%3A%2F%25@db:5432/shop',
      database: 'shop',
    });
    expect([...(choice as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'Pick a table',
      'tickets',
      'sales.invoices',
    ]);
    await user.selectOptions(choice, 'sales.invoices');
    const table = screen.getByLabelText(/Table \/ Collection/);
    expect(table).toHaveValue('sales.invoices');
    // The product's text field still takes a typed name; the list then shows no choice.
    await user.clear(table);
    await user.type(table, 'tickets_archive');
    expect(choice).toHaveValue('');
    await user.selectOptions(choice, 'tickets');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await screen.findByText('Step 4 of 9');
    // One database name, sent in the URI and on its own: it is never asked twice.
    expect(formOf(calls.find((call) => call.path === WIZARD_ROUTES.rag.database))).toMatchObject({
      uri: 'postgresql://u:p%23%40%3A%2F%25@db:5432/shop',
      database: 'shop',
      collection_or_table: 'tickets',
    });
  }, 20_000);

  it('shows the gateway’s refusal beside the button, and a listing ends when the database name changes (SQL)', async () => {
    const detail = 'Private and loopback addresses are not allowed on this server.';
    let answer: { status?: number; json: unknown } = { status: 422, json: { detail } };
    const { calls } = mockFetch((call: Call) => (call.path === TABLES_PATH ? answer : sql(call)));
    const user = userEvent.setup();
    renderWizard('sql');
    await toDatabaseStep(user, /^MySQL/);
    await user.click(screen.getByRole('button', { name: 'Paste a connection URI' }));
    await user.type(screen.getByLabelText(/Database URI/), 'mysql://r:pw@10.0.0.5:3306/shop');
    await user.type(screen.getByLabelText(/Database Name/), 'shop');
    await user.click(screen.getByRole('button', { name: 'List tables' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(detail);
    expect(screen.getByText('Step 3 of 8')).toBeInTheDocument();

    answer = { json: { tables: ['orders'] } };
    await user.click(screen.getByRole('button', { name: 'List tables' }));
    expect(await screen.findByLabelText('Tables in this database')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(JSON.parse(textOf(calls.filter((call) => call.path === TABLES_PATH)[1]))).toEqual({
      source_type: 'mysql',
      uri: 'mysql://r:pw@10.0.0.5:3306/shop',
      database: 'shop',
    });
    await user.type(screen.getByLabelText(/Database Name/), '2');
    expect(screen.queryByLabelText('Tables in this database')).not.toBeInTheDocument();
  });

  it('asks for the URI and database before listing, and says when there are no tables', async () => {
    const { calls } = mockFetch((call: Call) =>
      call.path === TABLES_PATH ? { json: { tables: [] } } : sql(call),
    );
    const user = userEvent.setup();
    renderWizard('sql');
    await toDatabaseStep(user, /^MySQL/);
    await user.click(screen.getByRole('button', { name: 'Paste a connection URI' }));
    await user.type(screen.getByLabelText(/Database URI/), 'mysql://r:pw@db:3306/shop');
    await user.click(screen.getByRole('button', { name: 'List tables' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Enter the connection URI and the database name first.',
    );
    expect(calls.some((call) => call.path === TABLES_PATH)).toBe(false);

    await user.type(screen.getByLabelText(/Database Name/), 'empty');
    await user.click(screen.getByRole('button', { name: 'List tables' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'No tables were found in this database; type the name instead.',
    );
  });
});
