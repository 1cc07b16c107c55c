import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formOf, mockFetch, renderRoute, signIn, type Call, type Reply } from '../testing/render';
import { WizardPage } from './wizard-page';

const SESSION = '5d1e9c1a-3b7f-4d8e-9c2a-1f0e6b7a8c90';

const saved = (call: Call): Reply =>
  call.path === '/pipelines'
    ? { status: 201, json: { session_id: SESSION } }
    : call.path === '/apikeys'
      ? { json: [] }
      : { json: { session_id: SESSION, message: 'Saved.', saved: {} } };

function renderWizard(type: string) {
  signIn();
  return renderRoute(`/pipeline/${type}`, '/pipeline/:type', <WizardPage />);
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
  await stepBadge(4);
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
    expect(calls.some((call) => call.path === '/sql/config/llm')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    expect(
      await screen.findByText('API Key and model selection are required.'),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText('API Key'), 'gsk_0123456789abcdefgh');
    await user.selectOptions(screen.getByLabelText('Model'), 'llama-3.3-70b-versatile');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await stepBadge(5);
    const llmCalls = calls.filter(
      (call) => call.path.startsWith('/sql/config/llm') || call.path === '/sql/config/model',
    );
    expect(llmCalls.map((call) => [call.path, formOf(call)])).toEqual([
      ['/sql/config/llm', { session_id: SESSION, llm_provider: 'groq' }],
      ['/sql/config/llm-key', { session_id: SESSION, api_key: 'gsk_0123456789abcdefgh' }],
      ['/sql/config/model', { session_id: SESSION, model: 'llama-3.3-70b-versatile' }],
    ]);
  });

  it('stops at the key when it is refused, and stays on the step', async () => {
    const { calls } = mockFetch((call) =>
      call.path === '/sql/config/llm-key'
        ? {
            status: 400,
            json: { detail: 'api_key: an API key has at least 16 characters and no spaces.' },
          }
        : saved(call),
    );
    const user = userEvent.setup();
    renderWizard('sql');
    await toLlmStep(user);
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
    await user.type(screen.getByLabelText('API Key'), 'short');
    await user.selectOptions(screen.getByLabelText('Model'), 'gpt-4o');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    expect(await screen.findByText('Failed to submit LLM credentials.')).toBeInTheDocument();
    expect(screen.getByText(/at least 16 characters/)).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/sql/config/model')).toBe(false);
    expect(screen.getByText('Step 4 of 8')).toBeInTheDocument();
  });

  it('requires a framework, offers only those that fit the source, and builds', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard('sql');
    await toLlmStep(user);
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
    await user.type(screen.getByLabelText('API Key'), 'sk-0123456789abcdefgh');
    await user.selectOptions(screen.getByLabelText('Model'), 'gpt-4o');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await user.click(await screen.findByRole('button', { name: /^Data analyst/ }));
    await user.click(screen.getByRole('button', { name: 'Save Prompt & Continue' }));
    await stepBadge(6);

    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    expect(await screen.findByText('Please select a SQL framework.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Vanna AI \(database\)/ })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: /^PandasAI/ }));
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await stepBadge(7);
    expect(formOf(calls.find((call) => call.path === '/sql/config/framework'))).toEqual({
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
    expect(calls.at(-1)?.path).toBe('/sql/build/api/build/agent');
  }, 20_000);

  it('shows the build failure detail and stays on the last step', async () => {
    mockFetch((call) =>
      call.path === '/sql/build/api/build/agent'
        ? { status: 422, json: { detail: 'Complete these steps before building: Framework.' } }
        : saved(call),
    );
    const user = userEvent.setup();
    renderWizard('sql');
    await toLlmStep(user);
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
    await user.type(screen.getByLabelText('API Key'), 'sk-0123456789abcdefgh');
    await user.selectOptions(screen.getByLabelText('Model'), 'gpt-4o');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
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

describe('wizard route', () => {
  it('shows Invalid pipeline type. for any other type', () => {
    mockFetch();
    renderWizard('xyz');
    expect(screen.getByText('Invalid pipeline type.')).toBeInTheDocument();
  });
});
