import {
  WIZARD_ROUTES,
  wizardRoute,
  ZDatabaseSourceSaved,
  ZEmbeddingModelSaved,
  ZLlmCredentialsSaved,
  ZLlmKeySaved,
  ZLlmModelSaved,
  ZLlmProviderSaved,
  ZLocalVectorDbSaved,
  ZPineconeSaved,
  ZRagSourceTypeSaved,
  ZSqlFrameworkSaved,
  ZSqlSourceTypeSaved,
  ZSystemPromptSaved,
  ZUiSaved,
  ZUploadSaved,
  ZVectorDbSaved,
} from '@agentloom/contracts';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * Every wizard step answers exactly its own schema (the one /docs shows for it): the schemas are
 * strict, so a field a step starts to answer fails here until its schema names it.
 */
describe('wizard step answers', () => {
  let t: TestApp;
  let alice: TestUser;
  let csv: string;
  let vaultKeyId: string;

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.url, 'answers');
    const dir = await mkdtemp(path.join(tmpdir(), 'wizard-answers-'));
    csv = path.join(dir, 'sales.csv');
    await writeFile(csv, 'region,amount\nnorth,10\nsouth,20\n');
    const key = await t.http
      .post('/apikeys')
      .set(alice.auth)
      .send({ provider: 'openai', key: 'sk-proj-VaultKeyForAnswers-1234567890' })
      .expect(201);
    vaultKeyId = key.body.id as string;
  });
  afterAll(async () => {
    await rm(path.dirname(csv), { recursive: true, force: true });
    await t.close();
  });

  async function newPipeline(agentType: 'rag' | 'sql'): Promise<string> {
    const { body } = await t.http
      .post('/pipelines')
      .set(alice.auth)
      .send({ name: `Answers ${Math.random()}`, agent_type: agentType })
      .expect(201);
    return body.session_id as string;
  }

  /** One step as the web app sends it, its answer checked against the step's schema. */
  async function step(route: string, fields: Record<string, string>, schema: z.ZodType) {
    const { body } = await t.http.post(route).set(alice.auth).type('form').send(fields).expect(200);
    expect(schema.safeParse(body).error?.issues ?? []).toEqual([]);
  }

  async function upload(route: string, session_id: string) {
    const { body } = await t.http
      .post(route)
      .set(alice.auth)
      .field('session_id', session_id)
      .attach('file', csv)
      .expect(200);
    expect(ZUploadSaved.safeParse(body).error?.issues ?? []).toEqual([]);
  }

  it('answers each RAG step with its schema', async () => {
    const id = await newPipeline('rag');
    const rag = (name: string, fields: Record<string, string>, schema: z.ZodType) =>
      step(wizardRoute('rag', name), { session_id: id, ...fields }, schema);
    await rag('source', { source_type: 'sqlite' }, ZRagSourceTypeSaved);
    const sqlite = { uri: 'sqlite:///data/shop.db', database: 'main', collection_or_table: 'x' };
    await rag('database', { source_type: 'sqlite', ...sqlite }, ZDatabaseSourceSaved);
    await rag('source', { source_type: 'csv' }, ZRagSourceTypeSaved);
    await upload(WIZARD_ROUTES.rag.upload, id);
    await rag('embedding', { model_name: 'all-MiniLM-L6-v2' }, ZEmbeddingModelSaved);
    await rag('vectorDb', { vector_db: 'pinecone' }, ZVectorDbSaved);
    const pinecone = { api_key: 'pc-key-1234567890', environment: 'us-west1-gcp' };
    await rag('pinecone', { ...pinecone, index_name: 'sales' }, ZPineconeSaved);
    await rag('localVectorDb', { vector_db: 'qdrant', url: 'http://q:6333' }, ZLocalVectorDbSaved);
    await rag('provider', { provider: 'openai' }, ZLlmProviderSaved);
    const model_name = 'gpt-4o-mini';
    await rag(
      'credentials',
      { api_key: 'sk-proj-Typed-1234567890abcd', model_name },
      ZLlmCredentialsSaved,
    );
    await rag('credentials', { api_key_id: vaultKeyId, model_name }, ZLlmCredentialsSaved);
    await rag('systemPrompt', { prompt: 'Answer from the sales data.' }, ZSystemPromptSaved);
    await rag('ui', { ui: 'gradio' }, ZUiSaved);
  });

  it('answers each SQL step with its schema', async () => {
    const id = await newPipeline('sql');
    const sql = (name: string, fields: Record<string, string>, schema: z.ZodType) =>
      step(wizardRoute('sql', name), { session_id: id, ...fields }, schema);
    await sql('source', { source_type: 'sqlite' }, ZSqlSourceTypeSaved);
    const sqlite = { db_uri: 'sqlite:///data/shop.db', db_name: 'main', table_name: 'orders' };
    await sql('database', sqlite, ZDatabaseSourceSaved);
    await sql('source', { source_type: 'csv' }, ZSqlSourceTypeSaved);
    await upload(WIZARD_ROUTES.sql.upload, id);
    await sql('provider', { llm_provider: 'openai' }, ZLlmProviderSaved);
    await sql('key', { api_key: 'sk-proj-Typed-1234567890abcd' }, ZLlmKeySaved);
    await sql('key', { api_key_id: vaultKeyId }, ZLlmKeySaved);
    await sql('model', { model: 'gpt-4o-mini' }, ZLlmModelSaved);
    await sql('systemPrompt', { prompt: 'Only read data.' }, ZSystemPromptSaved);
    await sql('framework', { framework: 'pandasai' }, ZSqlFrameworkSaved);
    await sql('ui', { ui: 'streamlit' }, ZUiSaved);
  });

  it('would catch a field a step answers beyond its schema', () => {
    const answer = {
      session_id: crypto.randomUUID(),
      message: 'UI saved.',
      saved: { ui: 'gradio' },
    };
    expect(ZUiSaved.safeParse(answer).success).toBe(true);
    expect(ZUiSaved.safeParse({ ...answer, saved: { ui: 'gradio', extra: 1 } }).success).toBe(
      false,
    );
    expect(ZUiSaved.safeParse({ ...answer, extra: 1 }).success).toBe(false);
  });
});
