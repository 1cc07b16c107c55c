import { buildPaths, WIZARD_ROUTES } from '@agentloom/contracts';
import type { TApiKey } from '@agentloom/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AuthProvider } from '../../auth/auth-context';
import { deferred, formOf, mockFetch, renderRoute, signIn } from '../testing/render';
import { SESSION, wizardServerPerTest } from '../testing/wizard-server';
import { WizardPage } from './wizard-page';

// A stand-in gateway that answers the agent with what the calls saved, fresh for each test.
const saved = wizardServerPerTest('sql');

function renderWizard(type: string) {
  signIn();
  return renderRoute(`/pipeline/${type}`, '/pipeline/:type/:sessionId?', <WizardPage />);
}

/** The SQL wizard with a given query client, so a second visit can share the first one's. */
function renderWizardWith(client: QueryClient) {
  signIn();
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/pipeline/sql']}>
        <AuthProvider>
          <Routes>
            <Route path="/pipeline/:type/:sessionId?" element={<WizardPage />} />
          </Routes>
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const stepBadge = (step: number) => screen.findByText(`Step ${step} of 8`);

async function toLlmStep(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: /Agent Name/ }), 'Sales analyst');
  await user.click(screen.getByRole('button', { name: 'Create & Continue' }));
  await user.click(await screen.findByRole('button', { name: /^CSV/ }));
  const file = await screen.findByLabelText('Source File');
  expect(file).toHaveAttribute('accept', '.csv');
  await user.upload(file, new File(['region,total\nnorth,3'], 'sales.csv'));
  await user.click(screen.getByRole('button', { name: 'Upload & Continue' }));
  expect(await screen.findByRole('status')).toHaveTextContent('Read 2 rows, 3 columns');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await stepBadge(4);
}

/** Steps 1–4 with an OpenAI key typed in, up to the system prompt. */
async function toPromptStep(user: ReturnType<typeof userEvent.setup>) {
  await toLlmStep(user);
  await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
  await user.type(screen.getByLabelText('API Key'), 'sk-0123456789abcdefgh');
  await user.selectOptions(screen.getByLabelText('Model'), 'gpt-4o');
  await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
}

describe('SQL wizard', () => {
  it('offers only the SQL agent type and its own step-1 message', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard('sql');
    expect(screen.getByText('Step 1 of 8')).toBeInTheDocument();
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'SQL Agent',
    ]);
    await user.type(screen.getByRole('textbox', { name: /Agent Name/ }), ' ');
    await user.click(screen.getByRole('button', { name: 'Create & Continue' }));
    expect(await screen.findByText('Agent name is required.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows the server’s detail when the pipeline cannot be created', async () => {
    mockFetch(() => ({
      status: 400,
      json: { detail: 'Agent name must be at most 100 characters.' },
    }));
    const user = userEvent.setup();
    renderWizard('sql');
    await user.type(screen.getByRole('textbox', { name: /Agent Name/ }), 'x');
    await user.click(screen.getByRole('button', { name: 'Create & Continue' }));
    expect(
      await screen.findByText('Agent name must be at most 100 characters.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 8')).toBeInTheDocument();
  });

  it('saves provider, then key, then model, and only then advances', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard('sql');
    await toLlmStep(user);

    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'groq');
    // Unlike the RAG wizard, choosing the provider alone saves nothing here.
    expect(calls.some((call) => call.path === WIZARD_ROUTES.sql.provider)).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    expect(
      await screen.findByText('API Key and model selection are required.'),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText('API Key'), 'gsk_0123456789abcdefgh');
    await user.selectOptions(screen.getByLabelText('Model'), 'llama-3.3-70b-versatile');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await stepBadge(5);
    const llmCalls = calls.filter(
      (call) =>
        call.path.startsWith(WIZARD_ROUTES.sql.provider) || call.path === WIZARD_ROUTES.sql.model,
    );
    expect(llmCalls.map((call) => [call.path, formOf(call)])).toEqual([
      [WIZARD_ROUTES.sql.provider, { session_id: SESSION, llm_provider: 'groq' }],
      [WIZARD_ROUTES.sql.key, { session_id: SESSION, api_key: 'gsk_0123456789abcdefgh' }],
      [WIZARD_ROUTES.sql.model, { session_id: SESSION, model: 'llama-3.3-70b-versatile' }],
    ]);
  });

  it('explains a key too short to be one beside the field, and sends nothing', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard('sql');
    await toLlmStep(user);
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
    await user.type(screen.getByLabelText('API Key'), 'short');
    await user.selectOptions(screen.getByLabelText('Model'), 'gpt-4o');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    const verdict = await screen.findByRole('alert');
    expect(verdict).toHaveTextContent(/^An API key has at least 16 characters and no spaces\./);
    expect(verdict).not.toHaveTextContent('api_key');
    expect(screen.getByLabelText('API Key')).toHaveAttribute('aria-invalid', 'true');
    expect(calls.some((call) => call.path.startsWith(WIZARD_ROUTES.sql.provider))).toBe(false);
    expect(screen.getByText('Step 4 of 8')).toBeInTheDocument();
  });

  it('asks for a key when Check key is pressed without one, then checks and saves the key typed', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard('sql');
    await toLlmStep(user);
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
    await user.click(screen.getByRole('button', { name: 'Check key' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter an API key first.');
    await user.type(screen.getByLabelText('API Key'), 'sk-0123456789abcdefghij');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Model'), 'gpt-4o');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await stepBadge(5);
    expect(calls.some((call) => call.path === WIZARD_ROUTES.keyCheck)).toBe(true);
  });

  it('shows the provider’s verdict on a refused key beside it and stays on the step', async () => {
    const { calls } = mockFetch((call) =>
      call.path === WIZARD_ROUTES.keyCheck
        ? {
            json: {
              ok: false,
              rejected: true,
              models: [],
              detail: 'OpenAI rejected this key. Check that you copied all of it.',
            },
          }
        : saved(call),
    );
    const user = userEvent.setup();
    renderWizard('sql');
    await toLlmStep(user);
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
    await user.type(screen.getByLabelText('API Key'), 'sk-0123456789abcdefghij');
    await user.selectOptions(screen.getByLabelText('Model'), 'gpt-4o');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('OpenAI rejected this key.');
    expect(calls.some((call) => call.path === WIZARD_ROUTES.sql.key)).toBe(false);
    expect(screen.getByText('Step 4 of 8')).toBeInTheDocument();
  });

  it('lists the models the provider serves for the key and marks the catalogue models it retired', async () => {
    mockFetch((call) =>
      call.path === WIZARD_ROUTES.keyCheck
        ? {
            json: {
              ok: true,
              rejected: false,
              models: ['gemini-2.0-flash', 'gemini-2.5-pro'],
              detail: 'Connected — 2 models available',
            },
          }
        : saved(call),
    );
    const user = userEvent.setup();
    renderWizard('sql');
    await toLlmStep(user);
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'gemini');
    await user.type(screen.getByLabelText('API Key'), 'AIza0123456789abcdefghij');
    await user.click(screen.getByRole('button', { name: 'Check key' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Connected — 2 models available');
    const option = (name: string) => screen.getByRole<HTMLOptionElement>('option', { name });
    expect(option('gemini-2.5-pro').disabled).toBe(false);
    expect(option('gemini-2.0-flash').disabled).toBe(false);
    expect(option('gemini-1.5-flash (retired)').disabled).toBe(true);
    expect(option('gemini-2.0-flash-lite (not offered for this key)').disabled).toBe(true);
  });

  it('preselects the recommended framework, keeps the others under Advanced (only those that fit), and builds', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard('sql');
    await toPromptStep(user);
    await user.click(await screen.findByRole('button', { name: /^Data analyst/ }));
    await user.click(screen.getByRole('button', { name: 'Save Prompt & Continue' }));
    await stepBadge(6);

    // Plain SQL over the file is chosen already, with the reason; the expert engines wait below.
    expect(screen.getByRole('button', { name: /^SQL Query \(file\)/ })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByText(/one read-only SQL query per question/)).toBeInTheDocument();
    await user.click(screen.getByText(/^Advanced: other query engines/));
    expect(screen.getByRole('button', { name: /^Vanna AI \(database\)/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /^PandasAI/ }));
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await stepBadge(7);
    expect(formOf(calls.find((call) => call.path === WIZARD_ROUTES.sql.framework))).toEqual({
      session_id: SESSION,
      framework: 'pandasai',
    });

    const cards = screen.getAllByRole('button', { name: /^(Streamlit|Gradio)/ });
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent(/Streamlit/);
    expect(cards[1]).toHaveTextContent(/Gradio/);
    expect(screen.getAllByRole('img')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: /^Streamlit/ }));
    await stepBadge(8);
    expect(screen.getByText('Sales analyst')).toBeInTheDocument();
    expect(screen.getByText('sales.csv')).toBeInTheDocument();
    expect(screen.getByText('PandasAI')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Build & Deploy SQL Agent' }));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').at(-1)?.path).toBe(
      buildPaths.start('sql'),
    );
  }, 20_000);

  it('shows the build failure detail and stays on the last step', async () => {
    mockFetch((call) =>
      call.path === buildPaths.start('sql')
        ? { status: 422, json: { detail: 'Complete these steps before building: Framework.' } }
        : saved(call),
    );
    const user = userEvent.setup();
    renderWizard('sql');
    await toPromptStep(user);
    await user.type(await screen.findByLabelText('Custom Prompt'), 'Answer with SQL.');
    await user.click(screen.getByRole('button', { name: 'Save Prompt & Continue' }));
    await user.click(await screen.findByRole('button', { name: /^SQL Query \(file\)/ }));
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await user.click(await screen.findByRole('button', { name: /^Gradio/ }));
    await user.click(await screen.findByRole('button', { name: 'Build & Deploy SQL Agent' }));
    expect(
      await screen.findByText('Complete these steps before building: Framework.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Step 8 of 8')).toBeInTheDocument();
  }, 20_000);
});

describe('SQL wizard: database source, busy flag, vault keys', () => {
  it('requires every database field, then sends db_uri, db_name and table_name', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard('sql');
    await user.type(screen.getByRole('textbox', { name: /Agent Name/ }), 'Orders analyst');
    await user.click(screen.getByRole('button', { name: 'Create & Continue' }));
    await user.click(await screen.findByRole('button', { name: /^MySQL/ }));
    await stepBadge(3);
    expect(formOf(calls.find((call) => call.path === WIZARD_ROUTES.sql.source))).toEqual({
      session_id: SESSION,
      source_type: 'mysql',
    });

    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    expect(await screen.findByText('All DB fields are required.')).toBeInTheDocument();
    // One field missing is still refused.
    await user.click(screen.getByRole('button', { name: 'Paste a connection URI' }));
    await user.type(screen.getByLabelText(/Database URI/), 'mysql://reader:pw@db:3306/shop');
    await user.type(screen.getByLabelText(/Database Name/), 'shop');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    expect(calls.some((call) => call.path === WIZARD_ROUTES.sql.database)).toBe(false);
    expect(screen.getByText('Step 3 of 8')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/Table Name/), 'orders');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await stepBadge(4);
    expect(formOf(calls.find((call) => call.path === WIZARD_ROUTES.sql.database))).toEqual({
      session_id: SESSION,
      db_uri: 'mysql://reader:pw@db:3306/shop',
      db_name: 'shop',
      table_name: 'orders',
    });
  });

  it('disables Back, Previous, the prompt templates and the submit button during a call', async () => {
    const answer = deferred<{ json: unknown }>();
    mockFetch((call) =>
      call.path === WIZARD_ROUTES.sql.systemPrompt ? answer.promise : saved(call),
    );
    const user = userEvent.setup();
    renderWizard('sql');
    await toPromptStep(user);
    await stepBadge(5);

    const templates = within(screen.getByRole('group', { name: 'Quick prompt templates' }));
    await user.click(templates.getByRole('button', { name: /^SQL tutor/ }));
    await user.click(screen.getByRole('button', { name: 'Save Prompt & Continue' }));
    expect(await screen.findByRole('button', { name: 'Saving…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    const buttons = templates.getAllByRole('button');
    expect(buttons).toHaveLength(4);
    for (const button of buttons) expect(button).toBeDisabled();

    answer.resolve({ json: { session_id: SESSION, message: 'Saved.', saved: {} } });
    await stepBadge(6);
    expect(screen.getByRole('button', { name: 'Back' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  }, 20_000);

  it('offers the vault keys as they are now when the wizard is opened again', async () => {
    const vaultKey = (id: string, name: string): TApiKey => ({
      id,
      provider: 'openai',
      name,
      key: 'sk-proj-...abcd',
      created_at: '2025-01-01T00:00:00.000Z',
    });
    let vault = [vaultKey('0c9e1f3a-5b7d-4e2f-8a1c-3e5f7a9b1c2d', 'Old key')];
    mockFetch((call) => (call.path === '/apikeys' ? { json: vault } : saved(call)));
    // One client for both visits, as in the app: whatever the first visit cached is still there.
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const user = userEvent.setup();

    const first = renderWizardWith(client);
    await toLlmStep(user);
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
    expect(
      await screen.findByRole('option', { name: 'Old key · sk-proj-...abcd' }),
    ).toBeInTheDocument();
    first.unmount();

    // Meanwhile, in the dashboard: the old key deleted, a new one added.
    vault = [vaultKey('4a6c8e0f-2b4d-4f6a-9c8e-0a2c4e6f8a1b', 'New key')];
    renderWizardWith(client);
    await toLlmStep(user);
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
    expect(
      await screen.findByRole('option', { name: 'New key · sk-proj-...abcd' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Old key/ })).not.toBeInTheDocument();
  }, 20_000);
});

describe('wizard route', () => {
  it('shows Invalid pipeline type. for any other type', () => {
    mockFetch();
    renderWizard('xyz');
    expect(screen.getByText('Invalid pipeline type.')).toBeInTheDocument();
    // Not a dead end: the way back to the agent types.
    expect(screen.getByRole('link', { name: 'Choose an agent type' })).toHaveAttribute(
      'href',
      '/dashboard/create-agent',
    );
  });
});
