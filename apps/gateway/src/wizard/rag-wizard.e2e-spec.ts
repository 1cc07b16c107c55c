import { readdir, rm, writeFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';
import {
  createMariaDbSource,
  createPostgresSource,
  dropMariaDbSource,
  dropPostgresSource,
  MARIADB,
  POSTGRES_SOURCE_DB,
} from '../testing/source-databases';
import { startTcpForwarder } from '../testing/tcp-forwarder';
import {
  deflated,
  deflatedZeros,
  peopleWorkbook,
  twoPagePdf,
  oneSheetWorkbook,
  zip,
} from '@agentloom/source-readers/testing';

const OPENAI_KEY = 'sk-proj-RagWizardKey-1234567890abcdWXYZ';
const PINECONE_KEY = 'pcsk_PineconeSecret_0987654321_qrst';
const SALES_CSV = 'region,product,amount\nNorth,Widget,120\nSouth,Gadget,80\nEast,Widget,42\n';

describe('RAG wizard API', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let fixtures: string;
  let forwarder: { port: number; close: () => Promise<void> };

  beforeAll(async () => {
    t = await createTestApp();
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
    fixtures = mkdtempSync(path.join(tmpdir(), 'rag-wizard-'));
    await Promise.all([createMariaDbSource(), createPostgresSource()]);
    forwarder = await startTcpForwarder(5432);
  });
  afterAll(async () => {
    await forwarder.close();
    await Promise.all([dropMariaDbSource(), dropPostgresSource()]);
    await rm(fixtures, { recursive: true, force: true });
    await t.close();
  });

  const form = (user: TestUser, route: string, fields: Record<string, string | number>) =>
    t.http.post(`/rag/api/${route}`).set(user.auth).type('form').send(fields);

  const upload = (user: TestUser, sessionId: string, file: string | Buffer, name?: string) =>
    t.http
      .post('/rag/api/source/upload')
      .set(user.auth)
      .field('session_id', sessionId)
      .attach('file', file, name ? { filename: name } : undefined);

  async function newPipeline(user: TestUser, name = `RAG ${Math.random()}`): Promise<string> {
    const { body } = await t.http
      .post('/pipelines')
      .set(user.auth)
      .send({ name, agent_type: 'rag' })
      .expect(201);
    return body.session_id as string;
  }

  async function fixture(name: string, content: string | Uint8Array): Promise<string> {
    const file = path.join(fixtures, name);
    await writeFile(file, content);
    return file;
  }

  /** GET /pipelines/{id} as the owner sees it (untyped JSON, like every supertest body). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const detail = async (user: TestUser, id: string): Promise<Record<string, any>> => {
    const response = await t.http.get(`/pipelines/${id}`).set(user.auth).expect(200);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return response.body as Record<string, any>;
  };

  /** Every file the gateway keeps for the pipeline (server-made names only). */
  const storedFiles = (id: string) =>
    readdir(path.join(t.config.DATA_DIR, 'uploads', id)).catch(() => [] as string[]);

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

    await form(alice, 'embeddings/model', {
      session_id: id,
      model_name: 'all-MiniLM-L6-v2',
    }).expect(200);
    await form(alice, 'vectordb', { session_id: id, vector_db: 'qdrant' }).expect(200);
    const local = await form(alice, 'vectordb/credentials/local', {
      session_id: id,
      vector_db: 'qdrant',
      url: 'http://qdrant:6333',
      dimensions: '',
      distance_metric: '',
    }).expect(200);
    // SPEC §5: dimensions default to 384 and the metric to cosine.
    expect(local.body.saved).toEqual({
      vector_db: 'qdrant',
      url: 'http://qdrant:6333',
      dimensions: 384,
      distance_metric: 'cosine',
    });
    await form(alice, 'llm/provider', { session_id: id, provider: 'OpenAI' }).expect(200);
    const llm = await form(alice, 'llm/credentials', {
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
    await form(alice, 'system-prompt', { session_id: id, prompt }).expect(200);
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
    await form(alice, 'vectordb', { session_id: id, vector_db: 'pinecone' }).expect(200);
    const { body } = await form(alice, 'vectordb/credentials/remote', {
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
    await form(alice, 'llm/provider', { session_id: id, provider: 'groq' }).expect(200);

    const stolen = await form(alice, 'llm/credentials', {
      session_id: id,
      api_key_id: bobKey.body.id,
      model_name: 'llama-3.3-70b-versatile',
    }).expect(404);
    expect(stolen.body).toEqual({ detail: 'API key not found.' });

    const { body } = await form(alice, 'llm/credentials', {
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
    const mismatch = await form(alice, 'llm/credentials', {
      session_id: id,
      api_key_id: openaiKey.body.id,
      model_name: 'llama-3.3-70b-versatile',
    }).expect(422);
    expect(mismatch.body.detail).toBe('That saved key is for OpenAI, not Groq.');
  });

  describe('validation (SPEC §5 messages the server owns)', () => {
    let id: string;
    beforeAll(async () => {
      id = await newPipeline(alice);
    });

    it.each([
      [
        'source/db',
        { source_type: 'mysql', uri: 'mysql://x@h/db' },
        'Please fill out URI, database name, and table/collection.',
      ],
      [
        'vectordb/credentials/remote',
        { api_key: 'k', environment: 'us-west1-gcp' },
        'Please provide all Pinecone credentials.',
      ],
      [
        'vectordb/credentials/local',
        { vector_db: 'chromadb', dimensions: '384' },
        'Please fill local DB settings.',
      ],
      [
        'vectordb/credentials/local',
        { url: 'http://chroma:8000' },
        'Please fill local DB settings.',
      ],
      ['llm/credentials', { api_key: OPENAI_KEY }, 'API Key and model selection are required.'],
      ['llm/credentials', { model_name: 'gpt-4o' }, 'API Key and model selection are required.'],
      ['system-prompt', { prompt: '   ' }, 'Please write or select a system prompt.'],
    ])('%s with %j → 400 "%s"', async (route, fields, message) => {
      const { body } = await form(alice, route, { session_id: id, ...fields }).expect(400);
      expect(body).toEqual({ detail: message });
    });

    it('answers "No file selected" for an upload without a file', async () => {
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const { body } = await t.http
        .post('/rag/api/source/upload')
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
        'embeddings/model',
        { model_name: 'text-embedding-3-large' },
        'model_name: must be one of: text-embedding-ada-002, all-MiniLM-L6-v2, all-MiniLM-L12-v2, sentence-t5-base, bge-small-en, e5-small-v2.',
      ],
      [
        'vectordb',
        { vector_db: 'weaviate' },
        'vector_db: must be one of: chromadb, qdrant, milvus, pinecone.',
      ],
      [
        'vectordb/credentials/local',
        { vector_db: 'qdrant', url: 'http://q:6333', distance_metric: 'manhattan' },
        'distance_metric: must be one of: cosine, euclidean, dot.',
      ],
      [
        'vectordb/credentials/local',
        { vector_db: 'qdrant', url: 'http://q:6333', dimensions: '-3' },
        'dimensions: must be a whole number between 1 and 65536.',
      ],
      [
        'vectordb/credentials/local',
        { vector_db: 'qdrant', url: 'file:///etc/passwd' },
        'url: url must be an http:// or https:// URL.',
      ],
      [
        'llm/provider',
        { provider: 'mistral' },
        'provider: must be one of: openai, claude, groq, gemini, deepseek.',
      ],
      ['ui', { ui: 'react' }, 'ui: must be one of: gradio, streamlit.'],
    ])('%s with %j → 400 naming the allowed values', async (route, fields, message) => {
      const { body } = await form(alice, route, { session_id: id, ...fields }).expect(400);
      expect(body).toEqual({ detail: message });
    });

    it('keeps the store’s dimensions to the embedding model’s size', async () => {
      await form(alice, 'embeddings/model', {
        session_id: id,
        model_name: 'text-embedding-ada-002',
      }).expect(200);
      const store = (dimensions: string) =>
        form(alice, 'vectordb/credentials/local', {
          session_id: id,
          vector_db: 'chromadb',
          url: 'http://chromadb:8000',
          dimensions,
        });
      // Left empty: the model's size, not SPEC's 384.
      expect((await store('').expect(200)).body.saved.dimensions).toBe(1536);
      const contradiction = await store('384').expect(422);
      expect(contradiction.body.detail).toBe(
        "text-embedding-ada-002 makes vectors of 1536 dimensions, so Vector Dimensions must be 1536. Leave it empty to use the model's size.",
      );
      // A model chosen after the store corrects it.
      await form(alice, 'embeddings/model', {
        session_id: id,
        model_name: 'sentence-t5-base',
      }).expect(200);
      expect((await detail(alice, id)).config.vector_store.dimensions).toBe(768);
    });

    it('refuses a model of another provider with 422', async () => {
      await form(alice, 'llm/provider', { session_id: id, provider: 'claude' }).expect(200);
      const { body } = await form(alice, 'llm/credentials', {
        session_id: id,
        api_key: OPENAI_KEY,
        model_name: 'gpt-4o',
      }).expect(422);
      expect(body.detail).toBe(
        'gpt-4o is not a Claude model. Choose one of: claude-4-opus-20250522.',
      );
      // A model Anthropic retired is not a new choice…
      const retired = await form(alice, 'llm/credentials', {
        session_id: id,
        api_key: OPENAI_KEY,
        model_name: 'claude-3.5-haiku-20241022',
      }).expect(422);
      expect(retired.body.detail).toBe(
        'Claude no longer offers claude-3.5-haiku-20241022. Choose one of: claude-4-opus-20250522.',
      );
      // …while a model Anthropic lists for the key (not in the SPEC's list) is.
      await form(alice, 'llm/credentials', {
        session_id: id,
        api_key: OPENAI_KEY,
        model_name: 'claude-sonnet-4-20250514',
      }).expect(200);
      // SPEC's "{token}" is a placeholder, not a model.
      await form(alice, 'llm/credentials', {
        session_id: id,
        api_key: OPENAI_KEY,
        model_name: '{token}',
      }).expect(422);
    });

    it('asks for a provider before credentials', async () => {
      const fresh = await newPipeline(alice);
      const { body } = await form(alice, 'llm/credentials', {
        session_id: fresh,
        api_key: OPENAI_KEY,
        model_name: 'gpt-4o',
      }).expect(422);
      expect(body.detail).toBe('Choose an LLM provider first.');
    });

    it('answers 400 without a session id', async () => {
      const { body } = await t.http
        .post('/rag/api/ui')
        .set(alice.auth)
        .type('form')
        .send({ ui: 'gradio' })
        .expect(400);
      expect(body).toEqual({ detail: 'session_id: session_id is required.' });
    });
  });

  describe('uploads', () => {
    it('checks content, not the name: HTML renamed .pdf → 415', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const { body } = await upload(
        alice,
        id,
        await fixture(
          'report.pdf',
          '<!doctype html><html><body><script>alert(1)</script></body></html>',
        ),
      ).expect(415);
      expect(body).toEqual({ detail: 'The file is not a PDF.' });
      expect(await storedFiles(id)).toEqual([]);
    });

    it('shows an upload back: the first rows with counts, or the first passages', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
      await upload(alice, id, await fixture('sales.csv', SALES_CSV)).expect(200);
      const sample = await t.http.get(`/wizard/${id}/source/sample`).set(alice.auth).expect(200);
      expect(sample.body).toEqual({
        kind: 'csv',
        counts: '3 rows · 3 columns',
        columns: ['region', 'product', 'amount'],
        rows: [
          ['North', 'Widget', '120'],
          ['South', 'Gadget', '80'],
          ['East', 'Widget', '42'],
        ],
        passages: [],
      });
      await t.http.get(`/wizard/${id}/source/sample`).set(bob.auth).expect(404);

      await form(alice, 'source', { session_id: id, source_type: 'text_file' }).expect(200);
      await upload(alice, id, await fixture('notes.txt', 'First note.\n\nSecond note.\n')).expect(
        200,
      );
      const text = await t.http.get(`/wizard/${id}/source/sample`).set(alice.auth).expect(200);
      expect(text.body).toMatchObject({
        kind: 'text_file',
        counts: expect.stringMatching(/^\d+ lines · \d+ characters$/),
        passages: ['First note. Second note.'],
      });
    });

    it('reads a real PDF and reports pages and characters', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const { body } = await upload(
        alice,
        id,
        await fixture('guide.pdf', await twoPagePdf()),
      ).expect(200);
      expect(body.saved.file.summary).toEqual({ kind: 'pdf', pages: 2, characters: 30 });
    });

    it('a corrupt PDF → 422 with the parser’s reason', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const corrupt = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4000, 'x')]);
      const { body } = await upload(alice, id, await fixture('broken.pdf', corrupt)).expect(422);
      expect(body.detail).toMatch(/^The PDF could not be read: .+/);
    });

    it('a zip renamed .csv → 415', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
      const archive = zip([deflated('data.csv', SALES_CSV)]);
      const { body } = await upload(alice, id, await fixture('data.csv', archive)).expect(415);
      expect(body.detail).toMatch(/not UTF-8 text|is a zip/i);
    });

    it('an XLSX zip bomb is refused without inflating it', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'excel' }).expect(200);
      const bomb = zip(
        oneSheetWorkbook({
          name: 'xl/worksheets/sheet1.xml',
          data: deflatedZeros(300),
          uncompressedSize: 300 * 1024 * 1024,
        }),
      );
      const rssBefore = process.memoryUsage().rss;
      const { body } = await upload(alice, id, await fixture('bomb.xlsx', bomb)).expect(415);
      expect(body.detail).toMatch(/expand/i);
      // The 300 MB were never materialized.
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    });

    it('reads a real workbook: sheet, columns and rows', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'excel' }).expect(200);
      const { body } = await upload(alice, id, await peopleWorkbook(fixtures)).expect(200);
      expect(body.saved.file.summary).toMatchObject({
        kind: 'excel',
        sheet: 'People',
        sheets: ['People', 'Notes'],
        rows: 5,
      });
    });

    it('the extension must match the chosen source type → 415', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      const { body } = await upload(alice, id, await fixture('notes.txt', 'plain text')).expect(
        415,
      );
      expect(body.detail).toBe('A PDF source takes a .pdf file; "notes.txt" is not one.');
    });

    it('a path in the file name never reaches the file system', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'text_file' }).expect(200);
      const { body } = await upload(
        alice,
        id,
        Buffer.from('hello\nworld\n'),
        '../../etc/passwd.txt',
      ).expect(200);
      expect(body.saved.file.original_name).toBe('passwd.txt');
      const files = await storedFiles(id);
      expect(files).toEqual([expect.stringMatching(/^[0-9a-f-]{36}\.txt$/)]);
      // Nothing was written next to the data folder.
      await expect(readdir(path.join(t.config.DATA_DIR, '..', 'etc'))).rejects.toThrow();
    });

    it('replacing the upload removes the old file; a new source type drops it', async () => {
      const id = await newPipeline(alice);
      await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
      await upload(alice, id, await fixture('one.csv', SALES_CSV)).expect(200);
      const [first] = await storedFiles(id);
      await upload(alice, id, await fixture('two.csv', 'a,b\n1,2\n')).expect(200);
      const after = await storedFiles(id);
      expect(after).toHaveLength(1);
      expect(after[0]).not.toBe(first);
      expect((await detail(alice, id)).config.file.original_name).toBe('two.csv');

      await form(alice, 'source', { session_id: id, source_type: 'pdf' }).expect(200);
      expect(await storedFiles(id)).toEqual([]);
      expect((await detail(alice, id)).config.file).toBeNull();
    });

    it('a file over the size limit → 413 naming the limit, and nothing is kept', async () => {
      const small = await createTestApp({ UPLOAD_MAX_BYTES: '2048' });
      try {
        const carol = await signUpAndLogIn(small.url, 'carol');
        const created = await small.http
          .post('/pipelines')
          .set(carol.auth)
          .send({ name: 'Big file', agent_type: 'rag' })
          .expect(201);
        const id = created.body.session_id as string;
        await small.http
          .post('/rag/api/source')
          .set(carol.auth)
          .type('form')
          .send({ session_id: id, source_type: 'text_file' })
          .expect(200);
        const { body } = await small.http
          .post('/rag/api/source/upload')
          .set(carol.auth)
          .field('session_id', id)
          .attach('file', Buffer.alloc(10_000, 'a'), { filename: 'big.txt' })
          .expect(413);
        expect(body).toEqual({ detail: 'The file must be 2 KB or smaller.' });
        expect(await readdir(path.join(small.config.DATA_DIR, 'incoming'))).toEqual([]);
      } finally {
        await small.close();
      }
    });
  });

  describe('database sources', () => {
    it('connects a Postgres table and answers its columns and approximate rows', async () => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'source/db', {
        session_id: id,
        source_type: 'postgres',
        uri: `postgresql://postgres:pg-secret-pw@127.0.0.1:${forwarder.port}/${POSTGRES_SOURCE_DB}`,
        database: POSTGRES_SOURCE_DB,
        collection_or_table: 'tickets',
      }).expect(200);
      expect(body.saved.database).toEqual({
        type: 'postgres',
        uri: `postgresql://postgres:****@127.0.0.1:${forwarder.port}/${POSTGRES_SOURCE_DB}`,
        database: POSTGRES_SOURCE_DB,
        table: 'tickets',
        columns: [
          { name: 'id', type: 'integer' },
          { name: 'subject', type: 'text' },
          { name: 'body', type: 'text' },
          { name: 'opened_at', type: 'timestamp with time zone' },
        ],
        approximate_rows: 25,
        // The test connects as postgres: the answer says so, and how to make a read-only login.
        privilege_warning: expect.stringMatching(
          /^This login can do anything on the server \(it is a superuser\)\. .*GRANT SELECT ON "public"\."tickets" TO agent_reader;$/,
        ),
        checked_at: expect.any(String),
      });
      const view = await detail(alice, id);
      expect(view.config.source_type).toBe('postgres');
      expect(view.description).toBe('RAG over tickets (Postgres)');
      expect(JSON.stringify(view)).not.toContain('pg-secret-pw');
      const [row] = await t.prisma.$queryRaw<Array<Record<string, unknown>>>`
        SELECT * FROM pipelines WHERE id = ${id}::uuid`;
      expect(JSON.stringify(row)).not.toContain('pg-secret-pw');
    });

    it('connects a MySQL/MariaDB table with a password', async () => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'source/db', {
        session_id: id,
        source_type: 'mysql',
        uri: `mysql://${MARIADB.user}:${encodeURIComponent(MARIADB.password)}@127.0.0.1:3306/${MARIADB.database}`,
        database: MARIADB.database,
        collection_or_table: 'orders',
      }).expect(200);
      expect(body.saved.database.columns.map((c: { name: string }) => c.name)).toEqual([
        'id',
        'customer',
        'total',
        'placed_on',
      ]);
      expect(JSON.stringify(body)).not.toContain(MARIADB.password);
    });

    it('a wrong password → 422 whose detail never contains the password', async () => {
      const id = await newPipeline(alice);
      const wrong = 'Wr0ng-Guess-pw!';
      const { body } = await form(alice, 'source/db', {
        session_id: id,
        source_type: 'mysql',
        uri: `mysql://${MARIADB.user}:${encodeURIComponent(wrong)}@127.0.0.1:3306/${MARIADB.database}`,
        database: MARIADB.database,
        collection_or_table: 'orders',
      }).expect(422);
      expect(body.detail).toMatch(/^Could not connect to the MySQL server at 127\.0\.0\.1:3306\. /);
      expect(body.detail).not.toContain(wrong);
      expect(body.detail).not.toContain(encodeURIComponent(wrong));
      expect((await detail(alice, id)).config.database).toBeNull();
    });

    it.each([
      [
        'the platform’s own Postgres',
        'postgres',
        'postgresql://postgres:x@127.0.0.1:5432/agentloom_test',
      ],
      [
        'the platform’s own Postgres by name',
        'postgres',
        'postgresql://postgres@localhost:5432/agentloom_test',
      ],
      ['the platform’s Redis', 'mysql', 'mysql://root@127.0.0.1:6379/x'],
      ['cloud metadata', 'mysql', 'mysql://root@169.254.169.254:3306/x'],
    ])('refuses %s with 422', async (_what, type, uri) => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'source/db', {
        session_id: id,
        source_type: type,
        uri,
        database: 'x',
        collection_or_table: 'users',
      }).expect(422);
      expect(body.detail).toMatch(/cannot be used as a data source/);
    });

    it('refuses loopback and private addresses in strict mode', async () => {
      const strict = await createTestApp({ DATA_SOURCE_STRICT: 'true' });
      try {
        const dave = await signUpAndLogIn(strict.url, 'dave');
        const created = await strict.http
          .post('/pipelines')
          .set(dave.auth)
          .send({ name: 'Strict', agent_type: 'rag' })
          .expect(201);
        const { body } = await strict.http
          .post('/rag/api/source/db')
          .set(dave.auth)
          .type('form')
          .send({
            session_id: created.body.session_id,
            source_type: 'mysql',
            uri: `mysql://${MARIADB.user}:x@127.0.0.1:3306/${MARIADB.database}`,
            database: MARIADB.database,
            collection_or_table: 'orders',
          })
          .expect(422);
        expect(body.detail).toMatch(/not allowed/);
      } finally {
        await strict.close();
      }
    });

    it('validates the URI form per type (400)', async () => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'source/db', {
        session_id: id,
        source_type: 'postgres',
        uri: 'mysql://root:hunter2@db:3306/x',
        database: 'x',
        collection_or_table: 't',
      }).expect(400);
      expect(body.detail).toMatch(/postgresql:\/\//);
      expect(body.detail).not.toContain('hunter2');
    });

    it('saves a SQLite path without opening any file on the server', async () => {
      const id = await newPipeline(alice);
      const { body } = await form(alice, 'source/db', {
        session_id: id,
        source_type: 'sqlite',
        uri: 'sqlite:////etc/shadow',
        database: 'main',
        collection_or_table: 'users',
      }).expect(200);
      expect(body.saved.database).toMatchObject({
        type: 'sqlite',
        columns: null,
        approximate_rows: null,
      });
    });
  });

  it('user B using user A’s session id gets 404 on every call, and A’s config is unchanged', async () => {
    const id = await newPipeline(alice, 'Alice private RAG');
    await form(alice, 'source', { session_id: id, source_type: 'csv' }).expect(200);
    await upload(alice, id, await fixture('private.csv', SALES_CSV)).expect(200);
    const before = await detail(alice, id);

    const calls: Array<[string, Record<string, string>]> = [
      ['source', { source_type: 'pdf' }],
      [
        'source/db',
        {
          source_type: 'mysql',
          uri: 'mysql://u:p@10.0.0.1/x',
          database: 'x',
          collection_or_table: 't',
        },
      ],
      ['embeddings/model', { model_name: 'bge-small-en' }],
      ['vectordb', { vector_db: 'milvus' }],
      ['vectordb/credentials/remote', { api_key: PINECONE_KEY, environment: 'e', index_name: 'i' }],
      ['vectordb/credentials/local', { vector_db: 'chromadb', url: 'http://evil:8000' }],
      ['llm/provider', { provider: 'gemini' }],
      ['llm/credentials', { api_key: OPENAI_KEY, model_name: 'gpt-4o' }],
      ['system-prompt', { prompt: 'pwned' }],
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
