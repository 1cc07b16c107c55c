import { buildPaths, type TBuildView } from '@agentloom/contracts';
import { configureRagAgent, WIZARD_LLM_KEY, type TestUser } from '@agentloom/test-kit';
import { csvChunks, markBuilt } from '../testing/built-agents';
import type { TestApp } from '../testing/test-app';
import { SALES_HEADER, SALES_ROWS, usePreviewsApp } from '../previews/previews.spec-helper';

/**
 * A build whose embedding model could not be used is Built with every stage green, and answers by
 * keywords only: GET /builds/{id} says so, with the one-click fix when the agent's key is OpenAI's.
 */
describe('build warnings', () => {
  const { app } = usePreviewsApp();
  let t: TestApp;
  let alice: TestUser;
  beforeAll(() => {
    ({ t, alice } = app);
  });

  async function built(llm?: { provider: string; api_key: string; model_name: string }) {
    const id = await configureRagAgent(t.url, alice, { file: app.salesCsv, llm });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id, userId: alice.id, type: 'rag' },
      csvChunks('sales.csv', SALES_HEADER, SALES_ROWS),
      t.config,
    );
    const answer = await t.http.get(buildPaths.view(id)).set(alice.auth).expect(200);
    return answer.body as TBuildView;
  }

  it('says a local model that could not load left keyword search, and offers OpenAI search with an OpenAI key', async () => {
    const view = await built();
    expect(view.status).toBe('Built');
    expect(view.warnings).toEqual([
      {
        code: 'keyword_search',
        detail: expect.stringMatching(
          /all-MiniLM-L6-v2 could not be loaded.*keyword \(full-text\) search.*switch to OpenAI search/,
        ),
        fix: {
          embedding_model: 'text-embedding-3-small',
          label: 'Use OpenAI search instead and rebuild',
        },
      },
    ]);
  });

  it('offers no one-click fix when the agent has no OpenAI key', async () => {
    const view = await built({
      provider: 'claude',
      api_key: WIZARD_LLM_KEY,
      model_name: 'claude-4-opus-20250522',
    });
    expect(view.warnings).toEqual([expect.objectContaining({ code: 'keyword_search', fix: null })]);
    expect(view.warnings[0]?.detail).toMatch(/choose an OpenAI embedding model/);
  });

  it('has no warning when the chosen model searched by meaning', async () => {
    const id = await configureRagAgent(t.url, alice, {
      file: app.salesCsv,
      embeddingModel: 'text-embedding-3-small',
    });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id, userId: alice.id, type: 'rag' },
      csvChunks('sales.csv', SALES_HEADER, SALES_ROWS),
      t.config,
    );
    const { body } = await t.http.get(buildPaths.view(id)).set(alice.auth).expect(200);
    expect(body.warnings).toEqual([]);
  });
});
