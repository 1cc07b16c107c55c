import { buildPaths, WIZARD_ROUTES } from '@agentloom/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  createAgent,
  renderWizard,
  stepBadge,
  toEmbeddingStep,
  chooseEmbedding,
} from '../testing/rag-wizard-steps';
import { deferred, formOf, mockFetch, textOf } from '../testing/render';
import { SESSION, wizardServerPerTest } from '../testing/wizard-server';

// A stand-in gateway that answers the agent with what the calls saved, fresh for each test.
const saved = wizardServerPerTest('rag');

describe('RAG wizard', () => {
  beforeEach(() => localStorage.clear());

  it('shows step 1 with its fields, and Previous disabled', () => {
    mockFetch(saved);
    renderWizard();
    expect(screen.getByText('Step 1 of 9')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Enter a unique name for your agent')).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'RAG Agent' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create & Continue' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  });

  it('refuses a blank name with the product message and calls nothing', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard();
    await user.type(screen.getByLabelText(/Agent Name/), '   ');
    await user.click(screen.getByRole('button', { name: 'Create & Continue' }));
    expect(await screen.findByText('Agent name and type are required.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    expect(screen.getByText('Step 1 of 9')).toBeInTheDocument();
  });

  it('creates the session, stores session_id, and only then advances', async () => {
    const answer = deferred<{ status: number; json: unknown }>();
    const { calls } = mockFetch((call) =>
      call.path === '/pipelines' ? answer.promise : saved(call),
    );
    const user = userEvent.setup();
    renderWizard();
    await user.type(screen.getByLabelText(/Agent Name/), 'Docs bot');
    await user.click(screen.getByRole('button', { name: 'Create & Continue' }));

    expect(await screen.findByRole('button', { name: 'Creating…' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    expect(screen.getByText('Step 1 of 9')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/pipelines' });
    expect(JSON.parse(textOf(calls[0]))).toEqual({ name: 'Docs bot', agent_type: 'rag' });

    answer.resolve({ status: 201, json: { session_id: SESSION } });
    await stepBadge(2);
    expect(localStorage.getItem('session_id')).toBe(SESSION);
    expect(screen.getByRole('button', { name: 'Back' })).toBeEnabled();
  });

  it('stays on step 1 and says so when the session cannot be created', async () => {
    mockFetch(() => ({ status: 500, json: { detail: 'Database down.' } }));
    const user = userEvent.setup();
    renderWizard();
    await user.type(screen.getByLabelText(/Agent Name/), 'Docs bot');
    await user.click(screen.getByRole('button', { name: 'Create & Continue' }));
    expect(await screen.findByText('Failed to create agent.')).toBeInTheDocument();
    expect(screen.getByText('Database down.')).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 9')).toBeInTheDocument();
  });

  it('saves the source type (lower-case wire value) and advances; Previous goes back one', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard();
    await createAgent(user);
    await user.click(screen.getByRole('button', { name: /^TXT/ }));
    await stepBadge(3);
    const call = calls.find((c) => c.path === WIZARD_ROUTES.rag.source);
    expect(formOf(call)).toEqual({ session_id: SESSION, source_type: 'text_file' });

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await stepBadge(2);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await stepBadge(1);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
  });

  it('does not advance when the source type cannot be saved', async () => {
    mockFetch((call) =>
      call.path === WIZARD_ROUTES.rag.source
        ? { status: 404, json: { detail: 'Agent not found.' } }
        : saved(call),
    );
    const user = userEvent.setup();
    renderWizard();
    await createAgent(user);
    await user.click(screen.getByRole('button', { name: /^CSV/ }));
    expect(await screen.findByText('Failed to set source type')).toBeInTheDocument();
    expect(screen.getByText('Step 2 of 9')).toBeInTheDocument();
  });

  it('asks for a file, then shows the server’s reason when an upload is refused', async () => {
    const { calls } = mockFetch((call) =>
      call.path === WIZARD_ROUTES.rag.upload
        ? {
            status: 415,
            json: { detail: 'A CSV source takes a .csv file; "notes.txt" is not one.' },
          }
        : saved(call),
    );
    const user = userEvent.setup();
    renderWizard();
    await createAgent(user);
    await user.click(screen.getByRole('button', { name: /^CSV/ }));
    await stepBadge(3);
    expect(screen.getByText('Supports: PDF, CSV, TXT, Excel files')).toBeInTheDocument();
    expect(screen.getByLabelText('Source File')).toHaveAttribute('accept', '.pdf,.csv,.txt,.xlsx');

    await user.click(screen.getByRole('button', { name: 'Upload & Continue' }));
    expect(await screen.findByText('No file selected')).toBeInTheDocument();
    expect(calls.some((c) => c.path === WIZARD_ROUTES.rag.upload)).toBe(false);

    await user.upload(screen.getByLabelText('Source File'), new File(['a'], 'notes.txt'));
    await user.click(screen.getByRole('button', { name: 'Upload & Continue' }));
    // Said where the upload was, and kept there (not a toast) until the next try.
    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('File upload failed');
    expect(failure).toHaveTextContent(/"notes.txt" is not one/);
    expect(screen.getByText(/You chose CSV: pick a CSV file \(\.csv\)/)).toBeInTheDocument();
    expect(screen.getByText('Step 3 of 9')).toBeInTheDocument();
  });

  it('checks the database fields before connecting', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard();
    await createAgent(user);
    await user.click(screen.getByRole('button', { name: /^Postgres/ }));
    await stepBadge(3);
    await user.click(screen.getByRole('button', { name: 'Paste a connection URI' }));
    await user.type(screen.getByLabelText(/Connection URI/), 'postgresql://u:p@db:5432/shop');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    expect(
      await screen.findByText('Please fill out URI, database name, and table/collection.'),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText(/Database Name/), 'shop');
    await user.type(screen.getByLabelText(/Table \/ Collection/), 'orders');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await stepBadge(4);
    expect(formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.database))).toEqual({
      session_id: SESSION,
      source_type: 'postgres',
      uri: 'postgresql://u:p@db:5432/shop',
      database: 'shop',
      collection_or_table: 'orders',
    });
  });

  it('says the embedding model is being set up while it saves, and only then advances', async () => {
    const answer = deferred<{ json: unknown }>();
    const { calls } = mockFetch((call) =>
      call.path === WIZARD_ROUTES.rag.embedding ? answer.promise : saved(call),
    );
    const user = userEvent.setup();
    renderWizard();
    await toEmbeddingStep(user);
    // The catalogue's labels: each OpenAI model says so in brackets, a local one is its name.
    for (const label of ['text-embedding-3-small (OpenAI)', 'text-embedding-3-large (OpenAI)']) {
      expect(screen.getByRole('option', { name: label })).toBeInTheDocument();
    }
    expect(screen.getByRole('option', { name: 'e5-small-v2' })).toBeInTheDocument();

    // Choosing from the list saves it and advances (SPEC.md, RAG step 4); no button to press.
    await user.selectOptions(screen.getByLabelText('Embedding Model'), 'e5-small-v2');
    expect(await screen.findByText('Setting up embedding model...')).toBeInTheDocument();
    expect(screen.getByLabelText('Embedding Model')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    expect(screen.getByText('Step 4 of 9')).toBeInTheDocument();
    expect(formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.embedding))).toEqual({
      session_id: SESSION,
      model_name: 'e5-small-v2',
    });

    answer.resolve({ json: { session_id: SESSION, message: 'Saved.', saved: {} } });
    await stepBadge(5);
    expect(screen.queryByText('Setting up embedding model...')).not.toBeInTheDocument();
  });

  it('saves the recommended model shown at first with Continue, the one button on the step', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard();
    await toEmbeddingStep(user);
    expect(screen.getByLabelText('Embedding Model')).toHaveValue('all-MiniLM-L6-v2');
    expect(screen.queryByRole('button', { name: 'Use this model' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await stepBadge(5);
    const sent = formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.embedding));
    expect(sent).toEqual({ session_id: SESSION, model_name: 'all-MiniLM-L6-v2' });
  });

  it('preselects the recommended store, which needs nothing set up, and explains each in a line', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard();
    await toEmbeddingStep(user);
    await chooseEmbedding(user, 'all-MiniLM-L6-v2');
    await stepBadge(5);

    const qdrant = screen.getByRole('button', { name: /^Qdrant/ });
    expect(qdrant).toHaveAttribute('aria-pressed', 'true');
    expect(qdrant).toHaveTextContent(/Recommended: nothing to set up/);
    expect(screen.getByRole('button', { name: /^Pinecone/ })).toHaveTextContent(
      /needs a Pinecone account/,
    );
    expect(screen.queryByText('Self-hosted server')).not.toBeInTheDocument();
    // Nothing is saved until the one press that accepts it, which saves store and settings.
    expect(calls.find((c) => c.path === WIZARD_ROUTES.rag.vectorDb)).toBeUndefined();
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await stepBadge(6);
    expect(formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.localVectorDb))).toMatchObject({
      vector_db: 'qdrant',
      url: 'http://qdrant:6333',
      dimensions: '384',
    });
  });

  it('saves the vector store at once without advancing; settings then save and advance', async () => {
    const { calls } = mockFetch(saved);
    const user = userEvent.setup();
    renderWizard();
    await toEmbeddingStep(user);
    await chooseEmbedding(user, 'all-MiniLM-L6-v2');
    await stepBadge(5);

    await user.click(screen.getByRole('button', { name: /^Pinecone/ }));
    await waitFor(() => expect(screen.getByLabelText(/Environment/)).toBeInTheDocument());
    expect(formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.vectorDb))).toEqual({
      session_id: SESSION,
      vector_db: 'pinecone',
    });
    expect(screen.getByText('Step 5 of 9')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('us-west1-gcp')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    expect(await screen.findByText('Please provide all Pinecone credentials.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^ChromaDB/ }));
    expect(await screen.findByPlaceholderText('384')).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Dot Product' })).toHaveValue('dot');
    // The URL is the generated project's own ChromaDB service; emptied, the product's message.
    const url = screen.getByLabelText(/Database URL/);
    expect(url).toHaveValue('http://chromadb:8000');
    expect(url.closest('details')).not.toHaveAttribute('open');
    await user.clear(url);
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    expect(await screen.findByText('Please fill local DB settings.')).toBeInTheDocument();
    await user.type(url, 'http://localhost:8000');
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await stepBadge(6);
    // all-MiniLM-L6-v2 (step 4) makes vectors of 384 dimensions.
    expect(formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.localVectorDb))).toEqual({
      session_id: SESSION,
      vector_db: 'chromadb',
      url: 'http://localhost:8000',
      dimensions: '384',
      distance_metric: 'cosine',
    });

    // Step 6: the provider choice saves at once and stays; key and model then advance.
    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'claude');
    expect(await screen.findByRole('link', { name: /Get a Claude API key/ })).toHaveAttribute(
      'href',
      'https://console.anthropic.com/settings/keys',
    );
    await waitFor(() =>
      expect(formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.provider))).toEqual({
        session_id: SESSION,
        provider: 'claude',
      }),
    );
    expect(screen.getByText('Step 6 of 9')).toBeInTheDocument();
    expect(screen.getByLabelText('API Key')).toHaveAttribute('type', 'password');
    expect(screen.getByLabelText('API Key')).toHaveAttribute(
      'placeholder',
      'Enter your Claude API key (sk-ant-...)',
    );
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    expect(
      await screen.findByText('API Key and model selection are required.'),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText('API Key'), 'sk-ant-0123456789abcdef');
    await user.selectOptions(screen.getByLabelText('Model'), 'claude-4-opus-20250522');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await stepBadge(7);
    expect(formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.credentials))).toEqual({
      session_id: SESSION,
      api_key: 'sk-ant-0123456789abcdef',
      model_name: 'claude-4-opus-20250522',
    });

    // Step 7: a prompt is required; a template fills the textarea and the counter follows.
    await user.click(screen.getByRole('button', { name: 'Save Prompt & Continue' }));
    expect(await screen.findByText('Please write or select a system prompt.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Helpful assistant/ }));
    const prompt = screen.getByLabelText('Custom Prompt');
    expect(prompt).toHaveAttribute('rows', '6');
    expect(
      screen.getByText(`${(prompt as HTMLTextAreaElement).value.length} / 8000 characters`),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Prompt & Continue' }));
    await stepBadge(8);

    await user.click(screen.getByRole('button', { name: /^Gradio/ }));
    await stepBadge(9);
    expect(formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.ui))).toEqual({
      session_id: SESSION,
      ui: 'gradio',
    });
    expect(screen.getByText('This may take a few minutes to complete')).toBeInTheDocument();
    expect(screen.getByText('CSV · d.csv')).toBeInTheDocument();
    expect(screen.getByText('claude-4-opus-20250522')).toBeInTheDocument();
    // Before the first build, more sources can be added beside the wizard's: it reads them all.
    const knowledge = await screen.findByRole('region', { name: 'Knowledge of Docs bot' });
    expect(knowledge).toHaveTextContent('Its first build reads them all.');
    expect(within(knowledge).getByRole('button', { name: 'Add another source' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Build & Deploy RAG Agent' }));
    expect(await screen.findByText('RAG agent build started!')).toBeInTheDocument();
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    expect(formOf(calls.find((c) => c.path === buildPaths.start('rag')))).toEqual({
      session_id: SESSION,
    });
  }, 30_000);

  it('offers the user’s saved vault keys for the chosen provider and sends api_key_id', async () => {
    const keyId = '7d9a2c55-9a3e-4b1e-8f8e-2b7f0f6c1a22';
    const { calls } = mockFetch((call) =>
      call.path === '/apikeys'
        ? {
            json: [
              {
                id: keyId,
                provider: 'openai',
                name: 'Team key',
                key: 'sk-proj-...abcd',
                created_at: '2025-01-01T00:00:00.000Z',
              },
              {
                id: 'x',
                provider: 'groq',
                name: null,
                key: 'gsk_1234...wxyz',
                created_at: '2025-01-01T00:00:00.000Z',
              },
            ],
          }
        : saved(call),
    );
    const user = userEvent.setup();
    renderWizard();
    await createAgent(user);
    await user.click(screen.getByRole('button', { name: /^MySQL/ }));
    await user.click(await screen.findByRole('button', { name: 'Paste a connection URI' }));
    await user.type(screen.getByLabelText(/Connection URI/), 'mysql://u:p@db/shop');
    await user.type(screen.getByLabelText(/Database Name/), 'shop');
    await user.type(screen.getByLabelText(/Table \/ Collection/), 'orders');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await chooseEmbedding(user, 'bge-small-en');
    await user.click(await screen.findByRole('button', { name: /^Qdrant/ }));
    // Accepting the defaults is enough.
    expect(await screen.findByLabelText(/Database URL/)).toHaveValue('http://qdrant:6333');
    await user.click(screen.getByRole('button', { name: 'Save & Continue' }));
    await stepBadge(6);

    await user.selectOptions(screen.getByLabelText(/LLM Provider/), 'openai');
    const saved_ = await screen.findByLabelText('Saved Key');
    expect(screen.getByRole('option', { name: 'Team key · sk-proj-...abcd' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /gsk_/ })).not.toBeInTheDocument();
    expect(saved_).toHaveValue(keyId);
    await user.selectOptions(screen.getByLabelText('Model'), 'gpt-4o-mini');
    await user.click(screen.getByRole('button', { name: 'Connect & Continue' }));
    await stepBadge(7);
    expect(formOf(calls.find((c) => c.path === WIZARD_ROUTES.rag.credentials))).toEqual({
      session_id: SESSION,
      api_key_id: keyId,
      model_name: 'gpt-4o-mini',
    });
  }, 30_000);
});
