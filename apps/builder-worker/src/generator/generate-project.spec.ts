import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  COMPOSE_VECTOR_STORE_URLS,
  LLM_MODEL_CATALOGUE,
  LLM_MODELS,
  LLM_PROVIDERS,
  modelApiId,
  type TRagPipelineConfig,
  type TSqlPipelineConfig,
} from '@agentloom/contracts';
import {
  ProjectInputError,
  RAG_DEFAULTS,
  TEMPLATES_DIR,
  generateProject,
  generateProjectPart,
  planProject,
  projectFolderName,
  PROJECT_PARTS,
  writeChunksJsonl,
  type ProjectPart,
  type GeneratedFile,
  type ProjectInput,
  type SourceChunk,
} from '.';
import { PINS } from './requirements';
import { providerModelId } from './catalog';
import { markdownText } from './markdown';
import { renderTemplate } from './templates';

const SESSION = '0b5e1f9a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const NOW = '2026-11-21T10:00:00.000Z';
const HOSTILE =
  'Robert"); DROP TABLE x;-- """ ${process.env} {{7*7}} `rm -rf` \n../../etc/passwd @@UI_PORT@@';

let dir: string;
let csvPath: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'agentloom-generate-'));
  csvPath = path.join(dir, 'upload.csv');
  await writeFile(csvPath, 'region,amount\nNorth,10\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function ragConfig(overrides: Partial<TRagPipelineConfig> = {}): TRagPipelineConfig {
  return {
    agent_type: 'rag',
    source_type: 'csv',
    file: {
      original_name: 'sales.csv',
      size_bytes: 20,
      summary: { kind: 'csv', columns: ['region', 'amount'], rows: 1 },
      uploaded_at: NOW,
    },
    embedding_model: 'all-MiniLM-L6-v2',
    vector_store: { vector_db: 'qdrant', url: 'http://localhost:6333', dimensions: 384 },
    llm: { provider: 'claude', model: 'claude-3.5-haiku-20241022' },
    system_prompt: 'Be helpful.',
    ui: 'streamlit',
    ...overrides,
  };
}

function ragInput(overrides: Partial<ProjectInput> = {}): ProjectInput {
  return {
    sessionId: SESSION,
    agentType: 'rag',
    name: 'Sales helper',
    config: ragConfig(),
    sourceFile: { path: csvPath, dataFileName: 'source.csv' },
    ...overrides,
  };
}

function sqlInput(config: Partial<TSqlPipelineConfig> = {}): ProjectInput {
  return {
    sessionId: SESSION,
    agentType: 'sql',
    name: 'Sales analyst',
    config: {
      agent_type: 'sql',
      source_type: 'postgres',
      database: {
        type: 'postgres',
        uri: 'postgresql://app:****@db.example.com/shop',
        database: 'shop',
        table: 'sales',
        columns: [{ name: 'id', type: 'integer' }],
        approximate_rows: 10,
        checked_at: NOW,
      },
      llm: { provider: 'openai', model: 'gpt-4o-mini' },
      system_prompt: 'Be precise.',
      framework: 'sql_query_db',
      ui: 'gradio',
      ...config,
    },
  };
}

/** A PandasAI agent over the sales CSV (PandasAI serves file sources only). */
function pandasaiInput(): ProjectInput {
  return {
    ...sqlInput({
      source_type: 'csv',
      database: undefined,
      file: ragConfig().file,
      framework: 'pandasai',
    }),
    sourceFile: { path: csvPath, dataFileName: 'source.csv' },
  };
}

/** A generated file's bytes, whether held in memory or copied from disk when zipped. */
const bytesOf = (file: GeneratedFile): Buffer =>
  'sourcePath' in file ? readFileSync(file.sourcePath) : Buffer.from(file.content);

const text = (files: GeneratedFile[], file: string): string => {
  const found = files.find((candidate) => candidate.path === file);
  if (!found) throw new Error(`${file} was not generated`);
  return bytesOf(found).toString();
};

/** A chunks file as the worker writes it. */
async function chunksFile(chunks: SourceChunk[]): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'chunks-')), 'chunks.jsonl');
  await writeChunksJsonl(file, [chunks]);
  return file;
}

describe('projectFolderName', () => {
  it('names the zip folder after the type and session', () => {
    expect(projectFolderName('rag', SESSION)).toBe(`rag-agent-${SESSION}`);
    expect(projectFolderName('sql', SESSION)).toBe(`sql-agent-${SESSION}`);
  });

  it('refuses anything that is not a UUID', () => {
    expect(() => projectFolderName('rag', '../../etc')).toThrow(ProjectInputError);
  });
});

describe('generateProject', () => {
  it('writes agent.json with the whole configuration and no secret', async () => {
    const files = await generateProject(ragInput());
    const manifest = JSON.parse(text(files, 'agent.json')) as Record<string, unknown>;

    expect(manifest).toEqual({
      version: 1,
      generator: 'agentloom',
      session_id: SESSION,
      type: 'rag',
      name: 'Sales helper',
      prompt_file: 'prompts/system.txt',
      source: {
        type: 'csv',
        file: 'data/source.csv',
        original_name: 'sales.csv',
        columns: ['region', 'amount'],
      },
      llm: {
        provider: 'claude',
        model: 'claude-3.5-haiku-20241022',
        model_id: 'claude-3-5-haiku-20241022',
        api_key_env: 'ANTHROPIC_API_KEY',
        temperature: 0,
        max_tokens: 1024,
      },
      ui: { framework: 'streamlit', port: 8501 },
      embedding: {
        model: 'all-MiniLM-L6-v2',
        backend: 'sentence-transformers',
        model_id: 'sentence-transformers/all-MiniLM-L6-v2',
        dimensions: 384,
        query_prefix: '',
        passage_prefix: '',
      },
      vector_store: {
        provider: 'qdrant',
        url: 'http://localhost:6333',
        collection: 'agent_0b5e1f9a2c3d4e5f8a9b0c1d2e3f4a5b',
        distance_metric: 'cosine',
        dimensions: 384,
      },
      rag: { ...RAG_DEFAULTS },
    });
    expect(RAG_DEFAULTS).toMatchObject({ chunk_size: 800, chunk_overlap: 100, top_k: 4 });
  });

  it('keeps the database details but never the connection URI', async () => {
    const files = await generateProject(sqlInput());
    const manifest = JSON.parse(text(files, 'agent.json')) as { source: unknown; sql: unknown };

    expect(manifest.source).toEqual({
      type: 'postgres',
      database: 'shop',
      table: 'sales',
      columns: [{ name: 'id', type: 'integer' }],
    });
    expect(manifest.sql).toEqual({
      framework: 'sql_query_db',
      max_rows: 200,
      timeout_seconds: 15,
    });
    for (const file of files) expect(bytesOf(file).toString()).not.toContain('db.example.com');
  });

  it('ships the system prompt byte for byte and the source file unchanged', async () => {
    const prompt = '  Line one\r\nline two\n\n\u2028 😀 """ {{x}} ';
    const files = await generateProject(ragInput({ config: ragConfig({ system_prompt: prompt }) }));

    const promptFile = files.find((file) => file.path === 'prompts/system.txt')!;
    expect(bytesOf(promptFile).equals(Buffer.from(prompt, 'utf8'))).toBe(true);
    const data = files.find((file) => file.path === 'data/source.csv')!;
    expect(bytesOf(data).equals(await readFile(csvPath))).toBe(true);
  });

  it('puts a hostile name only into data files and, escaped, into the README', async () => {
    const files = await generateProject(
      ragInput({ name: HOSTILE, config: ragConfig({ system_prompt: HOSTILE }) }),
    );

    expect((JSON.parse(text(files, 'agent.json')) as { name: string }).name).toBe(HOSTILE);
    expect(text(files, 'prompts/system.txt')).toBe(HOSTILE);
    const readme = text(files, 'README.md');
    expect(readme.split('\n')[0]).toBe(`# ${markdownText(HOSTILE)}`);
    expect(readme).not.toContain('`rm -rf`');
    // Every other file is a template copied as it is, or data that cannot hold the name.
    for (const file of files) {
      if (['agent.json', 'prompts/system.txt', 'README.md'].includes(file.path)) continue;
      expect(bytesOf(file).toString()).not.toContain('DROP TABLE x');
      expect(bytesOf(file).toString()).not.toContain('@@');
    }
  });

  it('copies Python templates verbatim: no string is ever interpolated into code', async () => {
    const files = await generateProject(ragInput({ name: HOSTILE }));
    const config = await readFile(path.join(TEMPLATES_DIR, 'common/agent/config.py'), 'utf8');

    expect(text(files, 'agent/config.py')).toBe(config);
    for (const file of files.filter((candidate) => candidate.path.endsWith('.py'))) {
      expect(bytesOf(file).toString()).not.toMatch(/@@[A-Z_]+@@/);
    }
  });

  it('returns sorted, relative POSIX paths inside the project', async () => {
    const files = await generateProject(
      ragInput({ chunksFile: await chunksFile([{ text: 'x', source: 's' }]) }),
    );
    const paths = files.map((file) => file.path);

    expect(paths).toEqual([...paths].sort());
    for (const file of paths) {
      expect(file).not.toMatch(/^\/|\\|(^|\/)\.\.?(\/|$)/);
    }
    expect(paths).toContain('data/chunks.jsonl');
    expect(paths).toContain('.github/workflows/ci.yml');
  });

  it('is made of parts that together are the whole project, each file in one part', async () => {
    for (const input of [ragInput(), sqlInput()]) {
      const whole = (await generateProject(input)).map((file) => file.path);
      const plan = planProject(input);
      const byPart = await Promise.all(
        PROJECT_PARTS.map(async (part) =>
          (await generateProjectPart(plan, part)).map((file) => file.path),
        ),
      );
      expect(byPart.flat().sort()).toEqual(whole);
    }
    const rag = planProject(ragInput());
    const paths = async (part: ProjectPart) =>
      (await generateProjectPart(rag, part)).map((file) => file.path).sort();
    expect(await paths('vector-store')).toEqual([
      'agent/stores/__init__.py',
      'agent/stores/base.py',
      'agent/stores/memory_store.py',
      'agent/stores/qdrant_store.py',
      'docker-compose.yml',
      'tests/test_vector_store.py',
    ]);
    expect(await paths('deployment')).toEqual(
      expect.arrayContaining(['.dockerignore', '.github/workflows/ci.yml', 'Dockerfile']),
    );
    expect(await paths('models')).toEqual(
      expect.arrayContaining(['.env.example', 'agent/llm.py', 'requirements.txt']),
    );
  });

  it('writes chunks one JSON object per line, whatever their text', async () => {
    const chunks = [
      { text: 'line\nbreak "quote" \u2028', source: 'a.pdf', page: 2 },
      { text: 'row', source: 'b.csv', row: 7 },
      { text: 'db row', source: 'orders', row: 1, ref: 'id=42' },
    ];
    const files = await generateProject(ragInput({ chunksFile: await chunksFile(chunks) }));
    const lines = text(files, 'data/chunks.jsonl').trimEnd().split('\n');

    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(
      chunks.map((chunk, index) => ({ id: `chunk-00000${index}`, ...chunk })),
    );
  });

  it('lists every variable the app reads in .env.example, with empty values', async () => {
    const pinecone = ragConfig({
      embedding_model: 'text-embedding-ada-002',
      vector_store: { vector_db: 'pinecone', environment: 'us-east-1', index_name: 'docs' },
    });
    const env = text(await generateProject(ragInput({ config: pinecone })), '.env.example');
    const names = env
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        expect(line).toMatch(/^[A-Z_]+=$/);
        return line.slice(0, -1);
      });

    expect(names).toEqual([
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'PINECONE_API_KEY',
      'PINECONE_CLOUD',
      'VECTOR_STORE',
      'LLM_BASE_URL',
      'UI_PASSWORD',
      'UI_BIND_ADDRESS',
    ]);
    const sqlEnv = text(await generateProject(sqlInput()), '.env.example');
    expect(sqlEnv).toMatch(/^OPENAI_API_KEY=$/m);
    expect(sqlEnv).toMatch(/^DATABASE_URL=$/m);
    expect(sqlEnv).toContain('# Example: postgresql://USER:PASSWORD@HOST:5432/DBNAME');
  });

  it('pins only what the chosen options need', async () => {
    const requirements = (files: GeneratedFile[]) =>
      text(files, 'requirements.txt')
        .split('\n')
        .filter((line) => line && !line.startsWith('#'));

    const ragFiles = await generateProject(ragInput());
    const rag = requirements(ragFiles);
    for (const line of rag) expect(line).toMatch(/^[A-Za-z0-9_.-]+==\d[\w.+]*$/);
    expect(rag).toEqual(
      expect.arrayContaining([
        PINS.anthropic,
        PINS.streamlit,
        PINS.qdrant,
        PINS.sentenceTransformers,
        PINS.torch,
        PINS.pandas,
      ]),
    );
    expect(rag.join('\n')).not.toMatch(
      /gradio|chromadb|pymilvus|pinecone|pypdf|pandasai|vanna|litellm|openai|google-genai/,
    );

    const sql = requirements(await generateProject(sqlInput()));
    expect(sql).toEqual(
      expect.arrayContaining([PINS.openai, PINS.gradio, PINS.sqlalchemy, PINS.psycopg2]),
    );
    expect(sql.join('\n')).not.toMatch(/anthropic|google-genai/);
    expect(sql.join('\n')).not.toMatch(/streamlit|sentence-transformers|torch|qdrant/);

    const pandasai = requirements(await generateProject(pandasaiInput()));
    expect(pandasai).toEqual(
      expect.arrayContaining([PINS.pandasai, PINS.pandasForPandasAI, PINS.openaiForPandasAI]),
    );
    expect(pandasai).not.toContain(PINS.pandas);
  });

  it('locks every package it installs with hashes, torch apart from the rest', async () => {
    const files = await generateProject(ragInput());
    const lock = text(files, 'requirements.lock');
    const entries = lock.split('\n').filter((line) => /^[a-z0-9]/i.test(line));
    // Direct pins and what they need, e.g. sentence-transformers' transformers and Qdrant's grpc.
    for (const pin of [PINS.anthropic, PINS.streamlit, PINS.qdrant, PINS.sentenceTransformers]) {
      expect(entries).toContain(`${pin.toLowerCase()} \\`);
    }
    expect(entries.some((line) => line.startsWith('transformers=='))).toBe(true);
    expect(entries.some((line) => line.startsWith('torch=='))).toBe(false);
    for (const entry of lock.split(/\n(?=[a-z0-9])/i).slice(1)) {
      expect(entry).toMatch(/--hash=sha256:[0-9a-f]{64}/);
    }
    expect(text(files, 'requirements-torch.lock')).toMatch(/^torch==2\.\d+\.\d+\+cpu \\$/m);
    const dev = text(files, 'requirements-dev.txt');
    expect(dev).toMatch(/^-r requirements\.lock$/m);
    expect(dev).toMatch(/^pytest==/m);

    const openai = await generateProject(
      ragInput({ config: ragConfig({ embedding_model: 'text-embedding-ada-002' }) }),
    );
    expect(openai.some((file) => file.path === 'requirements-torch.lock')).toBe(false);
    expect(text(openai, 'requirements.lock')).not.toMatch(/^(torch|sentence-transformers)==/m);
  });

  it('builds a non-root image with a health check on the UI port', async () => {
    const streamlit = text(await generateProject(ragInput()), 'Dockerfile');
    expect(streamlit).toMatch(/^FROM python:3\.11-slim$/m);
    expect(streamlit).toMatch(/^USER agent$/m);
    expect(streamlit).toContain('http://127.0.0.1:8501/_stcore/health');
    expect(streamlit).toMatch(/^CMD \["streamlit", "run", "app.py", .*"--server.port=8501"\]$/m);

    const gradio = text(await generateProject(sqlInput()), 'Dockerfile');
    expect(gradio).toContain('http://127.0.0.1:7860/');
    expect(gradio).toMatch(/^EXPOSE 7860$/m);
    for (const dockerfile of [streamlit, gradio]) {
      expect(dockerfile).not.toMatch(/chown/);
      expect(dockerfile).toMatch(/^COPY \. \.\nUSER agent$/m);
    }
  });

  it('installs from the locks, PyTorch’s index for torch alone, the model before the code', async () => {
    const local = text(await generateProject(ragInput()), 'Dockerfile');
    const index = local.split('\n').filter((line) => line.includes('download.pytorch.org'));
    expect(index).toEqual(['        --index-url https://download.pytorch.org/whl/cpu \\']);
    expect(local).toContain(
      'RUN pip install --no-deps --require-hashes -r requirements-torch.lock \\\n' +
        '        --index-url https://download.pytorch.org/whl/cpu \\\n' +
        '    && pip install --require-hashes -r requirements.lock',
    );
    // The model's layer comes before the code's, so a code edit does not download it again.
    expect(local.indexOf('SentenceTransformer(')).toBeGreaterThan(0);
    expect(local.indexOf('SentenceTransformer(')).toBeLessThan(local.indexOf('COPY . .'));

    const api = text(await generateProject(sqlInput()), 'Dockerfile');
    expect(api).not.toMatch(/pytorch|torch|SentenceTransformer/);
    expect(api).toContain('RUN pip install --require-hashes -r requirements.lock');
  });

  it('lets a PandasAI agent write its charts, and nothing else', async () => {
    const dockerfile = text(await generateProject(pandasaiInput()), 'Dockerfile');
    // After the code is copied in as root, before the unprivileged user takes over.
    expect(dockerfile).toMatch(
      /^COPY \. \.\n#.*\nRUN mkdir -p exports\/charts && chown agent exports\/charts\nUSER agent$/m,
    );
  });

  it('lists an unfixed advisory in the README and ignores exactly it in CI, only where locked', async () => {
    const vanna = await generateProject(sqlInput({ framework: 'vannaai_db' }));
    const readme = text(vanna, 'README.md');
    expect(readme).toContain('## Known vulnerabilities');
    expect(readme).toMatch(
      /\| vanna 2\.0\.2 \| CVE-2026-4229, GHSA-6mj8-jmp2-g8q7, PYSEC-2026-3397 \|/,
    );
    const audit = text(vanna, '.github/workflows/ci.yml')
      .split('\n')
      .find((line) => line.includes('pip-audit'));
    expect(audit).toMatch(
      / -r requirements\.lock --ignore-vuln GHSA-6mj8-jmp2-g8q7 --ignore-vuln PYSEC-2026-3397$/,
    );

    const plain = await generateProject(sqlInput());
    expect(text(plain, 'README.md')).not.toContain('Known vulnerabilities');
    expect(text(plain, '.github/workflows/ci.yml')).not.toContain('--ignore-vuln');
  });

  it('refuses configurations that cannot make a working project', async () => {
    const refused = (input: ProjectInput) =>
      expect(generateProject(input)).rejects.toThrow(ProjectInputError);

    await refused(ragInput({ sessionId: 'not-a-uuid' }));
    await refused(
      ragInput({
        config: ragConfig({ llm: { provider: 'openai', model: 'claude-4-opus-20250522' } }),
      }),
    );
    await refused(
      ragInput({ config: ragConfig({ llm: { provider: 'openai', model: 'gpt 4o; rm -rf /' } }) }),
    );
    await refused(ragInput({ config: ragConfig({ embedding_model: undefined }) }));
    await refused(ragInput({ sourceFile: undefined }));
    await refused(ragInput({ sourceFile: { path: csvPath, dataFileName: '../x.csv' } }));
    await refused(ragInput({ sourceFile: { path: csvPath, dataFileName: 'source.pdf' } }));
    await expect(chunksFile([{ text: 'x', source: 's', row: 1.5 }])).rejects.toThrow(
      ProjectInputError,
    );
    await refused(sqlInput({ framework: 'pandasai' }));
    await refused({ ...sqlInput(), chunksFile: await chunksFile([]) });
    await refused(
      ragInput({ config: ragConfig({ vector_store: { vector_db: 'pinecone', index_name: 'x' } }) }),
    );
  });
});

describe('providerModelId', () => {
  it('maps every SPEC model through the catalogue the preview uses', () => {
    for (const provider of LLM_PROVIDERS) {
      for (const model of LLM_MODELS[provider]) {
        // languageModel (agent-runtime, the preview) sends modelApiId too.
        expect(providerModelId(provider, model)).toBe(modelApiId(provider, model));
        expect(providerModelId(provider, model)).toBe(LLM_MODEL_CATALOGUE[model].apiId);
      }
    }
    expect(providerModelId('claude', 'claude-3.7-sonnet-20250219')).toBe(
      'claude-3-7-sonnet-20250219',
    );
    expect(providerModelId('gemini', 'gemini-2.0-flash')).toBe('gemini-2.0-flash');
    expect(() => providerModelId('groq', 'gpt-4o')).toThrow();
  });
});

describe('the wizard’s vector store defaults', () => {
  it('are the addresses the generated compose files give the stores', () => {
    for (const [store, url] of Object.entries(COMPOSE_VECTOR_STORE_URLS)) {
      const compose = readFileSync(
        path.resolve(__dirname, `../../templates/rag/compose/${store}.yml.tmpl`),
        'utf8',
      );
      expect(compose).toContain(`VECTOR_STORE_URL: ${url}\n`);
    }
  });
});

describe('renderTemplate', () => {
  it('fills placeholders in one pass', () => {
    expect(renderTemplate('a @@X@@ b @@Y@@', { X: '@@Y@@', Y: 2 })).toBe('a @@Y@@ b 2');
  });

  it('fails on a missing or an unused value', () => {
    expect(() => renderTemplate('@@X@@', {})).toThrow(/X/);
    expect(() => renderTemplate('none', { X: 1 })).toThrow(/Unused/);
  });
});

describe('markdownText', () => {
  it('keeps user text on one line and literal', () => {
    expect(markdownText('a\nb\r\n*c* `d` [e](f) <g> # h | i')).toBe(
      'a b \\*c\\* \\`d\\` \\[e\\](f) \\<g\\> \\# h \\| i',
    );
  });
});
