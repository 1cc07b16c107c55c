import { WIZARD_ROUTES } from '@agentloom/contracts';
import { OPENAI_KEY, useRagWizardApp } from '../testing/rag-wizard-app';
import type { TestUser } from '@agentloom/test-kit';
import type { TestApp } from '../testing/test-app';

describe('RAG wizard API', () => {
  const { app, form, newPipeline, detail } = useRagWizardApp();
  let t: TestApp;
  let alice: TestUser;
  beforeAll(() => {
    ({ t, alice } = app);
  });

  describe('validation (the messages the server owns)', () => {
    let id: string;
    beforeAll(async () => {
      id = await newPipeline(alice);
    });

    it.each([
      [
        'database',
        { source_type: 'mysql', uri: 'mysql://x@h/db' },
        'Please fill out URI, database name, and table/collection.',
      ],
      [
        'pinecone',
        { api_key: 'k', environment: 'us-west1-gcp' },
        'Please provide all Pinecone credentials.',
      ],
      [
        'localVectorDb',
        { vector_db: 'chromadb', dimensions: '384' },
        'Please fill local DB settings.',
      ],
      ['localVectorDb', { url: 'http://chroma:8000' }, 'Please fill local DB settings.'],
      ['credentials', { api_key: OPENAI_KEY }, 'API Key and model selection are required.'],
      ['credentials', { model_name: 'gpt-4o' }, 'API Key and model selection are required.'],
      ['systemPrompt', { prompt: '   ' }, 'Please write or select a system prompt.'],
    ])('%s with %j → 400 "%s"', async (route, fields, message) => {
      const { body } = await form(alice, route, { session_id: id, ...fields }).expect(400);
      expect(body).toEqual({ detail: message });
    });

    it('answers "No file selected" for an upload without a file', async () => {
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const { body } = await t.http
        .post(WIZARD_ROUTES.rag.upload)
        .set(alice.auth)
        .field('session_id', id)
        .expect(400);
      expect(body).toEqual({ detail: 'No file selected' });
    });

    it.each([
      [
        'source',
        { source_type: 'docx' },
        'source_type: must be one of: pdf, csv, excel, text_file, postgres, mysql, sqlite, mongo.',
      ],
      [
        'embedding',
        { model_name: 'text-embedding-4' },
        'model_name: must be one of: text-embedding-ada-002, text-embedding-3-small, text-embedding-3-large, all-MiniLM-L6-v2, all-MiniLM-L12-v2, sentence-t5-base, bge-small-en, e5-small-v2.',
      ],
      [
        'vectorDb',
        { vector_db: 'weaviate' },
        'vector_db: must be one of: chromadb, qdrant, milvus, pinecone.',
      ],
      [
        'localVectorDb',
        { vector_db: 'qdrant', url: 'http://q:6333', distance_metric: 'manhattan' },
        'distance_metric: must be one of: cosine, euclidean, dot.',
      ],
      [
        'localVectorDb',
        { vector_db: 'qdrant', url: 'http://q:6333', dimensions: '-3' },
        'dimensions: must be a whole number between 1 and 65536.',
      ],
      [
        'localVectorDb',
        { vector_db: 'qdrant', url: 'file:///etc/passwd' },
        'url: url must be an http:// or https:// URL.',
      ],
      [
        'provider',
        { provider: 'mistral' },
        'provider: must be one of: openai, claude, groq, gemini, deepseek.',
      ],
      ['ui', { ui: 'react' }, 'ui: must be one of: gradio, streamlit.'],
    ])('%s with %j → 400 naming the allowed values', async (route, fields, message) => {
      const { body } = await form(alice, route, { session_id: id, ...fields }).expect(400);
      expect(body).toEqual({ detail: message });
    });

    it('keeps the store’s dimensions to the embedding model’s size', async () => {
      await form(alice, 'embedding', {
        session_id: id,
        model_name: 'text-embedding-ada-002',
      }).expect(200);
      const store = (dimensions: string) =>
        form(alice, 'localVectorDb', {
          session_id: id,
          vector_db: 'chromadb',
          url: 'http://chromadb:8000',
          dimensions,
        });
      // Left empty: the model's size, not the default 384.
      expect((await store('').expect(200)).body.saved.dimensions).toBe(1536);
      const contradiction = await store('384').expect(422);
      expect(contradiction.body.detail).toBe(
        "text-embedding-ada-002 makes vectors of 1536 dimensions, so Vector Dimensions must be 1536. Leave it empty to use the model's size.",
      );
      // A model chosen after the store corrects it.
      await form(alice, 'embedding', {
        session_id: id,
        model_name: 'sentence-t5-base',
      }).expect(200);
      expect((await detail(alice, id)).config.vector_store.dimensions).toBe(768);
    });

    it('refuses a model of another provider with 422', async () => {
      await form(alice, 'provider', { session_id: id, provider: 'claude' }).expect(200);
      const { body } = await form(alice, 'credentials', {
        session_id: id,
        api_key: OPENAI_KEY,
        model_name: 'gpt-4o',
      }).expect(422);
      expect(body.detail).toBe(
        'gpt-4o is not a Claude model. Choose one of: claude-4-opus-20250522.',
      );
      // A model Anthropic retired is not a new choice…
      const retired = await form(alice, 'credentials', {
        session_id: id,
        api_key: OPENAI_KEY,
        model_name: 'claude-3.5-haiku-20241022',
      }).expect(422);
      expect(retired.body.detail).toBe(
        'Claude no longer offers claude-3.5-haiku-20241022. Choose one of: claude-4-opus-20250522.',
      );
      // …while a model Anthropic lists for the key (not in the catalogue) is.
      await form(alice, 'credentials', {
        session_id: id,
        api_key: OPENAI_KEY,
        model_name: 'claude-sonnet-4-20250514',
      }).expect(200);
      // The old list's "{token}" is a placeholder, not a model.
      await form(alice, 'credentials', {
        session_id: id,
        api_key: OPENAI_KEY,
        model_name: '{token}',
      }).expect(422);
    });

    it('asks for a provider before credentials', async () => {
      const fresh = await newPipeline(alice);
      const { body } = await form(alice, 'credentials', {
        session_id: fresh,
        api_key: OPENAI_KEY,
        model_name: 'gpt-4o',
      }).expect(422);
      expect(body.detail).toBe('Choose an LLM provider first.');
    });

    it('answers 400 without a session id', async () => {
      const { body } = await t.http
        .post(WIZARD_ROUTES.rag.ui)
        .set(alice.auth)
        .type('form')
        .send({ ui: 'gradio' })
        .expect(400);
      expect(body).toEqual({ detail: 'session_id: session_id is required.' });
    });
  });
});
