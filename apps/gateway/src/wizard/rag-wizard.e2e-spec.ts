import { OPENAI_KEY, PINECONE_KEY, SALES_CSV, useRagWizardApp } from '../testing/rag-wizard-app';
import type { TestUser } from '@agentloom/test-kit';
import type { TestApp } from '../testing/test-app';

describe('RAG wizard API', () => {
  const { app, form, upload, newPipeline, fixture, detail, storedFiles } = useRagWizardApp();
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(() => {
    ({ t, alice, bob } = app);
  });

  it('configures a complete RAG agent over a CSV exactly as the web app calls it', async () => {
    const id = await newPipeline(alice, 'Sales RAG');
    expect(
      (await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200)).body,
    ).toEqual({
      session_id: id,
      message: 'Source type saved.',
      saved: { source_type: 'csv' },
    });

    const uploaded = await upload(alice, id, await fixture('sales.csv', SALES_CSV)).expect(200);
    expect(uploaded.body.saved.file).toEqual({
      original_name: 'sales.csv',
      size_bytes: SALES_CSV.length,
      summary: { kind: 'csv', columns: ['region', 'product', 'amount'], rows: 3 },
      uploaded_at: expect.any(String),
    });

    await form(alice, 'embedding', {
      session_id: id,
      model_name: 'all-MiniLM-L6-v2',
    }).expect(200);
    await form(alice, 'vectorDb', { session_id: id, vector_db: 'qdrant' }).expect(200);
    const local = await form(alice, 'localVectorDb', {
      session_id: id,
      vector_db: 'qdrant',
      url: 'http://qdrant:6333',
      dimensions: '',
      distance_metric: '',
    }).expect(200);
    // docs/product.md#the-wizard-vector-store: dimensions default to 384 and the metric to cosine.
    expect(local.body.saved).toEqual({
      vector_db: 'qdrant',
      url: 'http://qdrant:6333',
      dimensions: 384,
      distance_metric: 'cosine',
    });
    await form(alice, 'provider', { session_id: id, provider: 'OpenAI' }).expect(200);
    const llm = await form(alice, 'credentials', {
      session_id: id,
      api_key: OPENAI_KEY,
      model_name: 'gpt-4o-mini',
    }).expect(200);
    expect(llm.body.saved).toEqual({
      provider: 'openai',
      model_name: 'gpt-4o-mini',
      api_key: 'sk-proj-...WXYZ',
    });
    const prompt = 'You answer questions about "sales" in `plain` words.\nNever invent ${numbers}.';
    await form(alice, 'systemPrompt', { session_id: id, prompt }).expect(200);
    await form(alice, 'ui', { session_id: id, ui: 'streamlit' }).expect(200);

    const body = await detail(alice, id);
    expect(body).toMatchObject({
      agent_type: 'rag',
      name: 'Sales RAG',
      status: 'Draft',
      description: 'RAG over sales.csv · gpt-4o-mini · Streamlit',
      missing_steps: [],
      config: {
        source_type: 'csv',
        file: { original_name: 'sales.csv', summary: { kind: 'csv', rows: 3 } },
        database: null,
        embedding_model: 'all-MiniLM-L6-v2',
        vector_store: {
          vector_db: 'qdrant',
          url: 'http://qdrant:6333',
          dimensions: 384,
          distance_metric: 'cosine',
          environment: null,
          index_name: null,
          api_key: null,
        },
        llm: {
          provider: 'openai',
          model: 'gpt-4o-mini',
          api_key: 'sk-proj-...WXYZ',
          api_key_id: null,
        },
        system_prompt: prompt,
        ui: 'streamlit',
      },
    });
    expect(body.steps.every((step: { complete: boolean }) => step.complete)).toBe(true);
    expect(JSON.stringify(body)).not.toContain(OPENAI_KEY);

    const list = await t.http.get('/pipelines').set(alice.auth).expect(200);
    expect(list.body.find((item: { id: string }) => item.id === id).description).toBe(
      'RAG over sales.csv · gpt-4o-mini · Streamlit',
    );

    // The key is encrypted at rest: no column of the raw row holds it.
    const [row] = await t.prisma.$queryRaw<Array<Record<string, unknown>>>`
      SELECT * FROM pipelines WHERE id = ${id}::uuid`;
    expect(JSON.stringify(row)).not.toContain(OPENAI_KEY);
    expect(row?.llm_api_key_encrypted).toEqual(expect.any(String));
  });

  it('saves Pinecone credentials encrypted and shows the key masked', async () => {
    const id = await newPipeline(alice);
    await form(alice, 'vectorDb', { session_id: id, vector_db: 'pinecone' }).expect(200);
    const { body } = await form(alice, 'pinecone', {
      session_id: id,
      api_key: PINECONE_KEY,
      environment: 'us-west1-gcp',
      index_name: 'sales-index',
    }).expect(200);
    expect(body.saved).toEqual({
      vector_db: 'pinecone',
      api_key: 'pcsk_Pin...qrst',
      environment: 'us-west1-gcp',
      index_name: 'sales-index',
    });
    expect((await detail(alice, id)).config.vector_store).toEqual({
      vector_db: 'pinecone',
      url: null,
      dimensions: null,
      distance_metric: null,
      environment: 'us-west1-gcp',
      index_name: 'sales-index',
      api_key: 'pcsk_Pin...qrst',
    });
    const [row] = await t.prisma.$queryRaw<Array<Record<string, unknown>>>`
      SELECT * FROM pipelines WHERE id = ${id}::uuid`;
    expect(JSON.stringify(row)).not.toContain(PINECONE_KEY);
  });

  it('takes the LLM key from the caller’s vault by api_key_id, never from someone else’s', async () => {
    const id = await newPipeline(alice);
    const aliceKey = await t.http
      .post('/apikeys')
      .set(alice.auth)
      .send({ provider: 'groq', key: 'gsk_VaultKeyForWizard_1234567890' })
      .expect(201);
    const bobKey = await t.http
      .post('/apikeys')
      .set(bob.auth)
      .send({ provider: 'groq', key: 'gsk_BobsOwnKey_abcdefghijklmnop' })
      .expect(201);
    await form(alice, 'provider', { session_id: id, provider: 'groq' }).expect(200);

    const stolen = await form(alice, 'credentials', {
      session_id: id,
      api_key_id: bobKey.body.id,
      model_name: 'llama-3.3-70b-versatile',
    }).expect(404);
    expect(stolen.body).toEqual({ detail: 'API key not found.' });

    const { body } = await form(alice, 'credentials', {
      session_id: id,
      api_key_id: aliceKey.body.id,
      model_name: 'llama-3.3-70b-versatile',
    }).expect(200);
    expect(body.saved).toEqual({
      provider: 'groq',
      model_name: 'llama-3.3-70b-versatile',
      api_key: 'gsk_Vaul...7890',
      api_key_id: aliceKey.body.id,
    });
    const view = await detail(alice, id);
    expect(view.config.llm).toEqual({
      provider: 'groq',
      model: 'llama-3.3-70b-versatile',
      api_key: null,
      api_key_id: aliceKey.body.id,
    });
    expect(view.steps.find((s: { key: string }) => s.key === 'llm').complete).toBe(true);

    // A vault key of another provider does not fit.
    const openaiKey = await t.http
      .post('/apikeys')
      .set(alice.auth)
      .send({ provider: 'openai', key: 'sk-AnotherProviderKey-12345678' })
      .expect(201);
    const mismatch = await form(alice, 'credentials', {
      session_id: id,
      api_key_id: openaiKey.body.id,
      model_name: 'llama-3.3-70b-versatile',
    }).expect(422);
    expect(mismatch.body.detail).toBe('That saved key is for OpenAI, not Groq.');
  });

  it('user B using user A’s session id gets 404 on every call, and A’s config is unchanged', async () => {
    const id = await newPipeline(alice, 'Alice private RAG');
    await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
    await upload(alice, id, await fixture('private.csv', SALES_CSV)).expect(200);
    const before = await detail(alice, id);

    const calls: Array<[string, Record<string, string>]> = [
      ['source', { source_type: 'pdf' }],
      [
        'database',
        {
          source_type: 'mysql',
          uri: 'mysql://u:p@10.0.0.1/x',
          database: 'x',
          collection_or_table: 't',
        },
      ],
      ['embedding', { model_name: 'bge-small-en' }],
      ['vectorDb', { vector_db: 'milvus' }],
      ['pinecone', { api_key: PINECONE_KEY, environment: 'e', index_name: 'i' }],
      ['localVectorDb', { vector_db: 'chromadb', url: 'http://evil:8000' }],
      ['provider', { provider: 'gemini' }],
      ['credentials', { api_key: OPENAI_KEY, model_name: 'gpt-4o' }],
      ['systemPrompt', { prompt: 'pwned' }],
      ['ui', { ui: 'gradio' }],
    ];
    for (const [route, fields] of calls) {
      const response = await form(bob, route, { session_id: id, ...fields });
      expect([route, response.status, response.body]).toEqual([
        route,
        404,
        { detail: 'Agent not found.' },
      ]);
    }
    await upload(bob, id, await fixture('evil.csv', 'a\n1\n')).expect(404);
    await t.http.get(`/pipelines/${id}`).set(bob.auth).expect(404);
    await t.http.delete(`/pipelines/${id}`).set(bob.auth).expect(404);

    const after = await detail(alice, id);
    expect(after).toEqual(before);
    expect(await storedFiles(id)).toHaveLength(1);
  });

  it('a SQL session id on a RAG call → 404', async () => {
    const { body } = await t.http
      .post('/pipelines')
      .set(alice.auth)
      .send({ name: `SQL ${Math.random()}`, agent_type: 'sql' })
      .expect(201);
    await form(alice, 'source', { session_id: body.session_id, source_type: 'csv' }).expect(404);
  });

  it('deleting a pipeline removes its uploads', async () => {
    const id = await newPipeline(alice);
    await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
    await upload(alice, id, await fixture('gone.csv', SALES_CSV)).expect(200);
    expect(await storedFiles(id)).toHaveLength(1);
    await t.http.delete(`/pipelines/${id}`).set(alice.auth).expect(200);
    expect(await storedFiles(id)).toEqual([]);
  });
});
