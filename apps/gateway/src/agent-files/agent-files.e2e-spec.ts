import {
  configureRagAgent,
  readZip,
  signUpAndLogIn,
  WIZARD_LLM_KEY,
  type TestUser,
} from '@agentloom/test-kit';
import { crc32 } from 'node:zlib';
import { createTestApp, type TestApp } from '../testing/test-app';

const CSV = 'region,product,units\nPorto,Lantern kits,1204\nLisbon,Quokka umbrellas,7342\n';
const PROMPT = 'Answer from the sales data only. Quote "units" as they are.';

/** A zip with entries stored as given — names included, `../` and all (archiver would clean them). */
function storedZip(entries: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = Buffer.from(content);
    const fileName = Buffer.from(name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(header, fileName, data);
    centrals.push(central, fileName);
    offset += header.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('agents as files: export and import', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_MAX_BYTES: String(64 * 1024) });
    alice = await signUpAndLogIn(t.url, 'alice');
    bob = await signUpAndLogIn(t.url, 'bob');
  });
  afterAll(() => t.close());

  const exportOf = async (user: TestUser, id: string) => {
    const res = await t.http
      .get(`/pipelines/${id}/export`)
      .set(user.auth)
      .buffer(true)
      .parse((stream, done) => {
        const parts: Buffer[] = [];
        stream.on('data', (part: Buffer) => parts.push(part));
        stream.on('end', () => done(null, Buffer.concat(parts)));
      })
      .expect(200)
      .expect('Content-Type', /application\/zip/)
      .expect('Content-Disposition', /^attachment; filename=".+\.agentloom\.zip"$/)
      .expect('X-Content-Type-Options', 'nosniff');
    return res.body as Buffer;
  };
  const check = (user: TestUser, file: Buffer, name = 'agent.zip') =>
    t.http.post('/pipelines/import/check').set(user.auth).attach('file', file, name);
  const importAgent = (
    user: TestUser,
    file: Buffer,
    fields: Record<string, string>,
    name = 'agent.zip',
  ) => {
    const req = t.http.post('/pipelines/import').set(user.auth);
    for (const [key, value] of Object.entries(fields)) void req.field(key, value);
    return req.attach('file', file, name);
  };
  const countOf = (user: TestUser) => t.prisma.pipeline.count({ where: { userId: user.id } });

  it('exports without secrets and imports a new draft equal to the original', async () => {
    const id = await configureRagAgent(t.url, alice, {
      name: 'Sales desk',
      file: { name: 'sales.csv', content: CSV },
      prompt: PROMPT,
    });
    const zip = await exportOf(alice, id);
    expect(zip.includes(Buffer.from(WIZARD_LLM_KEY))).toBe(false);
    const files = await readZip(zip);
    expect([...files.keys()].sort()).toEqual([
      'agent.json',
      'agentloom-export.json',
      'data/source.csv',
      'prompts/system.txt',
    ]);
    expect(files.get('data/source.csv')?.toString()).toBe(CSV);
    expect(files.get('prompts/system.txt')?.toString()).toBe(PROMPT);
    const original = JSON.parse(files.get('agent.json')!.toString()) as Record<string, unknown>;
    expect(original).toMatchObject({
      version: 1,
      type: 'rag',
      name: 'Sales desk',
      source: { type: 'csv', file: 'data/source.csv', original_name: 'sales.csv' },
      llm: { provider: 'openai', model: 'gpt-4o-mini' },
      embedding: { model: 'all-MiniLM-L6-v2' },
      vector_store: { provider: 'chromadb', url: 'http://chroma:8000' },
    });
    await t.http.get(`/pipelines/${id}/export`).set(bob.auth).expect(404);

    const plan = await check(alice, zip).expect(200);
    expect(plan.body).toEqual({
      name: 'Sales desk',
      agent_type: 'rag',
      llm_provider: 'openai',
      llm_model: 'gpt-4o-mini',
      summary: 'RAG over sales.csv · gpt-4o-mini · Gradio',
      database: null,
      needs: {
        llm_api_key: true,
        vector_db_api_key: false,
        vector_store_url: false,
        database_uri: false,
        database_password: false,
        system_prompt: false,
      },
    });

    // The key is what the file left out: asked with the wizard's own words.
    const noKey = await importAgent(alice, zip, { name: 'Sales desk copy' }).expect(400);
    expect(noKey.body).toEqual({ detail: 'API Key and model selection are required.' });
    // Same name as the original: the wizard's rule, and nothing is left behind.
    const before = await countOf(alice);
    const taken = await importAgent(alice, zip, { api_key: WIZARD_LLM_KEY }).expect(409);
    expect(taken.body.detail).toMatch(/already have an agent named "Sales desk"/);
    expect(await countOf(alice)).toBe(before);

    const created = await importAgent(alice, zip, {
      name: 'Sales desk copy',
      api_key: WIZARD_LLM_KEY,
    }).expect(201);
    const copyId = created.body.session_id as string;
    const detail = await t.http.get(`/pipelines/${copyId}`).set(alice.auth).expect(200);
    expect(detail.body).toMatchObject({ status: 'Draft', missing_steps: [] });
    expect(detail.body.config).toMatchObject({
      source_type: 'csv',
      file: { original_name: 'sales.csv' },
      system_prompt: PROMPT,
      ui: 'gradio',
    });

    const again = await readZip(await exportOf(alice, copyId));
    const copy = JSON.parse(again.get('agent.json')!.toString()) as Record<string, unknown>;
    expect({ ...copy, session_id: 'id', name: 'n' }).toEqual({
      ...original,
      session_id: 'id',
      name: 'n',
    });
    expect(again.get('data/source.csv')?.toString()).toBe(CSV);
  });

  it('imports the agent.json of a downloaded zip and asks for the prompt a bare agent.json lacks', async () => {
    const id = await configureRagAgent(t.url, alice, { file: { name: 'sales.csv', content: CSV } });
    const files = await readZip(await exportOf(alice, id));
    const agentJson = JSON.parse(files.get('agent.json')!.toString()) as { name: string };
    agentJson.name = `Downloaded ${Math.random()}`;
    // A project zip: one top folder, no export info.
    const folder = `rag-agent-${id}/`;
    const project = storedZip({
      [`${folder}agent.json`]: JSON.stringify(agentJson),
      [`${folder}prompts/system.txt`]: PROMPT,
      [`${folder}data/source.csv`]: CSV,
      [`${folder}app.py`]: 'print("hi")\n',
    });
    const created = await importAgent(alice, project, { api_key: WIZARD_LLM_KEY }).expect(201);
    expect(created.body.name).toBe(agentJson.name);

    // A bare agent.json of a file agent carries no data: refused, with what to import instead.
    const bare = Buffer.from(JSON.stringify(agentJson));
    const refused = await check(alice, bare, 'agent.json').expect(422);
    expect(refused.body.detail).toMatch(/only its zip carries/);
  });

  // Issue 42, finding 7: agent.json carried the vector store's password and API key verbatim.
  it("leaves the vector store URL's password and key out of the export, and the import asks for the URL", async () => {
    const secretUrl =
      'http://admin:S3cretVecPass@qdrant.internal:6333/?api_key=QDRANT-SECRET-123&timeout=30';
    const id = await configureRagAgent(t.url, alice, {
      name: 'Vector secrets',
      file: { name: 'sales.csv', content: CSV },
      prompt: PROMPT,
      vectorStore: { vector_db: 'qdrant', url: secretUrl },
    });
    const zip = await exportOf(alice, id);
    const files = await readZip(zip);
    for (const [name, content] of files) {
      for (const secret of ['S3cretVecPass', 'QDRANT-SECRET-123', 'admin:']) {
        expect([name, content.includes(Buffer.from(secret))]).toEqual([name, false]);
      }
    }
    const agent = JSON.parse(files.get('agent.json')!.toString()) as {
      vector_store: { url: string };
    };
    expect(agent.vector_store.url).toBe('http://qdrant.internal:6333/?timeout=30');
    expect(JSON.parse(files.get('agentloom-export.json')!.toString())).toMatchObject({
      vector_store_url_credentials: true,
    });

    const plan = await check(alice, zip).expect(200);
    expect(plan.body.needs).toMatchObject({ vector_store_url: true, vector_db_api_key: false });
    const asked = await importAgent(alice, zip, {
      name: 'Vector secrets copy',
      api_key: WIZARD_LLM_KEY,
    }).expect(400);
    expect(asked.body).toEqual({
      detail: expect.stringMatching(/vector store's URL with its password or key/),
    });
    const created = await importAgent(alice, zip, {
      name: 'Vector secrets copy',
      api_key: WIZARD_LLM_KEY,
      vector_store_url: secretUrl,
    }).expect(201);
    const copy = await t.prisma.pipeline.findUniqueOrThrow({
      where: { id: created.body.session_id as string },
    });
    expect(JSON.stringify(copy.config)).toContain('QDRANT-SECRET-123');
  });

  describe('hostile files are refused with {detail} and create nothing', () => {
    let agentJson: Record<string, unknown>;
    beforeAll(async () => {
      const id = await configureRagAgent(t.url, bob, { file: { name: 'sales.csv', content: CSV } });
      const files = await readZip(await exportOf(bob, id));
      agentJson = JSON.parse(files.get('agent.json')!.toString()) as Record<string, unknown>;
      agentJson.name = 'Hostile';
    });
    const zipWith = (json: unknown, extra: Record<string, string> = {}) =>
      storedZip({
        'agent.json': JSON.stringify(json),
        'prompts/system.txt': PROMPT,
        'data/source.csv': CSV,
        ...extra,
      });

    const cases: [string, () => Buffer, number, RegExp][] = [
      [
        'an entry with ../',
        () => zipWith(agentJson, { '../../evil.sh': 'rm -rf /' }),
        422,
        /outside its folder/,
      ],
      [
        'an absolute entry',
        () => zipWith(agentJson, { '/etc/cron.d/x': 'x' }),
        422,
        /outside its folder/,
      ],
      [
        'a data file outside data/',
        () => zipWith({ ...agentJson, source: { type: 'csv', file: '../../etc/passwd' } }),
        422,
        /must be a file in data\//,
      ],
      [
        'a newer format',
        () => zipWith({ ...agentJson, version: 2 }),
        422,
        /newer Agentloom \(format 2\)/,
      ],
      [
        'no format version',
        () => zipWith({ ...agentJson, version: 'one' }),
        422,
        /no format version/,
      ],
      ['a name of the wrong type', () => zipWith({ ...agentJson, name: 42 }), 422, /name/],
      [
        'an unknown provider',
        () => zipWith({ ...agentJson, llm: { provider: 'skynet', model: 'x' } }),
        422,
        /llm\.provider/,
      ],
      [
        'a file too large',
        () => Buffer.alloc(64 * 1024 + 1024 * 1024 + 1, 32),
        413,
        /1\.06 MB|or smaller/,
      ],
      [
        'a data entry past the limit',
        () =>
          storedZip({
            'agent.json': JSON.stringify(agentJson),
            'data/source.csv': 'a,b\n'.repeat(20_000),
          }),
        422,
        /larger than/,
      ],
      ['not an agent file', () => Buffer.from('%PDF-1.4 not json'), 415, /not an agent file/],
    ];

    it.each(cases)('%s', async (_what, file, status, detail) => {
      const before = await countOf(bob);
      const checked = await check(bob, file()).expect(status);
      expect(checked.body).toEqual({ detail: expect.stringMatching(detail) });
      const imported = await importAgent(bob, file(), { api_key: WIZARD_LLM_KEY }).expect(status);
      expect(imported.body).toEqual({ detail: expect.stringMatching(detail) });
      expect(await countOf(bob)).toBe(before);
    });

    it('a step the wizard refuses removes the draft it started', async () => {
      const before = await countOf(bob);
      const refused = await importAgent(
        bob,
        zipWith({
          ...agentJson,
          vector_store: { provider: 'chromadb', url: 'http://chroma:8000', dimensions: 999 },
        }),
        { api_key: WIZARD_LLM_KEY },
      ).expect(422);
      expect(refused.body.detail).toMatch(/Vector Dimensions must be 384/);
      expect(await countOf(bob)).toBe(before);
    });
  });
});
