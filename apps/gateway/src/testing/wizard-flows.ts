import type { TestApp, TestUser } from './test-app';

export const WIZARD_LLM_KEY = 'sk-proj-WizardFlowKey-1234567890abcdEFGH';

/** Drives the RAG wizard through HTTP, as the web app does, to a complete configuration. */
export async function configureRagAgent(
  t: TestApp,
  user: TestUser,
  csvPath: string,
): Promise<string> {
  const created = await t.http
    .post('/pipelines')
    .set(user.auth)
    .send({ name: `Buildable ${Math.random()}`, agent_type: 'rag' })
    .expect(201);
  const id = created.body.session_id as string;
  const form = (route: string, fields: Record<string, string>) =>
    t.http
      .post(`/rag/api/${route}`)
      .set(user.auth)
      .type('form')
      .send({ session_id: id, ...fields })
      .expect(200);
  await form('source', { source_type: 'csv' });
  await t.http
    .post('/rag/api/source/upload')
    .set(user.auth)
    .field('session_id', id)
    .attach('file', csvPath)
    .expect(200);
  await form('embeddings/model', { model_name: 'all-MiniLM-L6-v2' });
  await form('vectordb', { vector_db: 'chromadb' });
  await form('vectordb/credentials/local', { vector_db: 'chromadb', url: 'http://chroma:8000' });
  await form('llm/provider', { provider: 'openai' });
  await form('llm/credentials', { api_key: WIZARD_LLM_KEY, model_name: 'gpt-4o-mini' });
  await form('system-prompt', { prompt: 'Answer from the sales data only.' });
  await form('ui', { ui: 'gradio' });
  return id;
}
