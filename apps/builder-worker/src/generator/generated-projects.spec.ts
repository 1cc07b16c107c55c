import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { TDatabaseSource, TPipelineConfig, TUploadedFile } from '@agentloom/contracts';
import {
  chunkText,
  generateProject,
  writeChunksJsonl,
  projectFolderName,
  type ProjectInput,
  type SourceChunk,
} from '.';
import { PYTHON, runProcess, type ProcessRun } from '../testing/run-process';

/**
 * Generates real projects for a spread of configurations, writes them to disk and checks
 * them with Debian's Python (pandas 1.5, SQLAlchemy 1.4, no LiteLLM/UI/vector store
 * packages): every file compiles, pyflakes is clean, and the project's own pytest suite passes.
 */

const HOSTILE =
  'Robert"); DROP TABLE x;-- """ ${process.env} {{7*7}} `rm -rf` \n../../etc/passwd \\ \'\'\' ' +
  '\r\n\u2028 émoji 🤖';
const HOSTILE_TABLE = 'Robert"); DROP TABLE x;--';
const NOW = '2026-11-21T10:00:00.000Z';

async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

// ---- fixture files ----

const CSV = [
  'region,amount,note',
  'North,10.5,first sale of the year',
  'South,20,"refund requested, then cancelled"',
  'East,7.25,',
  'West,12,bulk order for the Oslo office',
].join('\n');

const TEXT = [
  'Refund policy',
  '',
  'Refunds are paid back within five working days after the returned item arrives.',
  'Shipping to Norway takes two weeks by sea and three days by air.',
  '',
  'Support answers the phone from 9 to 5 on weekdays. '.repeat(30),
].join('\n');

async function writePdf(file: string): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const line of [
    'Refunds are paid back within five working days.',
    'Shipping to Norway takes two weeks by sea.',
  ]) {
    pdf.addPage([400, 200]).drawText(line, { x: 20, y: 150, size: 11, font });
  }
  await writeFile(file, await pdf.save());
}

async function writeXlsx(file: string): Promise<void> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sales');
  sheet.addRow(['region', 'amount', 'note']);
  sheet.addRow(['North', 10.5, 'first sale']);
  sheet.addRow(['South', 20, 'refund requested']);
  sheet.addRow(['East', 7.25, null]);
  workbook.addWorksheet('Notes').addRow(['not read']);
  await workbook.xlsx.writeFile(file);
}

function uploaded(kind: 'pdf' | 'csv' | 'excel' | 'text_file', name: string): TUploadedFile {
  const summaries = {
    pdf: { kind: 'pdf' as const, pages: 2, characters: 90 },
    text_file: { kind: 'text_file' as const, lines: 6, characters: TEXT.length },
    csv: { kind: 'csv' as const, columns: ['region', 'amount', 'note'], rows: 4 },
    excel: {
      kind: 'excel' as const,
      sheet: 'Sales',
      sheets: ['Sales', 'Notes'],
      columns: ['region', 'amount', 'note'],
      rows: 3,
    },
  };
  return { original_name: name, size_bytes: 1000, summary: summaries[kind], uploaded_at: NOW };
}

function database(type: TDatabaseSource['type'], table: string): TDatabaseSource {
  return {
    type,
    uri: `${type}://app:****@db.example.com/shop`,
    database: 'shop',
    table,
    columns: type === 'sqlite' ? null : [{ name: 'id', type: 'integer' }],
    approximate_rows: 3,
    checked_at: NOW,
  };
}

// ---- scenarios ----

interface Scenario {
  title: string;
  input: Omit<ProjectInput, 'sourceFile' | 'chunksFile'>;
  fixture?: { kind: 'pdf' | 'csv' | 'excel' | 'text_file'; file: string };
  /** RAG: chunks prepared "at build time", written with writeChunksJsonl as the worker does. */
  chunks?: SourceChunk[];
  /** The vector store's extra compose services. */
  services?: string[];
}

let counter = 0;
function sessionId(): string {
  counter += 1;
  return `3f2a6c1e-9b7d-4c1a-8e2f-${String(counter).padStart(12, '0')}`;
}

const llm = (provider: NonNullable<TPipelineConfig['llm']>['provider'], model: string) => ({
  provider,
  model,
});

function rag(
  title: string,
  config: TPipelineConfig,
  extra: Partial<Scenario> & { name?: string } = {},
): Scenario {
  return {
    title,
    fixture: extra.fixture,
    services: extra.services,
    chunks: extra.chunks,
    input: {
      sessionId: sessionId(),
      agentType: 'rag',
      name: extra.name ?? `Helpful ${title}`,
      config: { system_prompt: 'You answer questions about the company documents.', ...config },
    },
  };
}

function sql(
  title: string,
  config: TPipelineConfig,
  extra: Partial<Scenario> & { name?: string } = {},
): Scenario {
  return {
    title,
    fixture: extra.fixture,
    input: {
      sessionId: sessionId(),
      agentType: 'sql',
      name: extra.name ?? `Analyst ${title}`,
      config: { system_prompt: 'You are a careful data analyst.', ...config },
    },
  };
}

const csvChunks: SourceChunk[] = CSV.split('\n')
  .slice(1)
  .map((line, index) => ({
    text: line.replace(/,/g, '; '),
    source: 'sales.csv',
    row: index + 1,
  }));
const textChunks: SourceChunk[] = chunkText(TEXT, 800, 100).map((text) => ({
  text,
  source: 'policy.txt',
}));
const orderChunks: SourceChunk[] = [
  { text: 'id: 1; item: lamp; status: shipped', source: 'orders', row: 1 },
  { text: 'id: 2; item: desk; status: refunded', source: 'orders', row: 2 },
];

const SCENARIOS: Scenario[] = [
  rag(
    'RAG csv + chromadb + streamlit + MiniLM-L6 + openai, with chunks',
    {
      source_type: 'csv',
      file: uploaded('csv', 'sales.csv'),
      embedding_model: 'all-MiniLM-L6-v2',
      vector_store: { vector_db: 'chromadb', url: 'http://localhost:8000', dimensions: 384 },
      llm: llm('openai', 'gpt-4o-mini'),
      ui: 'streamlit',
    },
    { fixture: { kind: 'csv', file: 'sales.csv' }, chunks: csvChunks, services: ['chromadb'] },
  ),
  rag(
    'RAG pdf + qdrant + gradio + bge + claude, read from the file',
    {
      source_type: 'pdf',
      file: uploaded('pdf', 'policy.pdf'),
      embedding_model: 'bge-small-en',
      vector_store: { vector_db: 'qdrant', url: 'http://localhost:6333', distance_metric: 'dot' },
      llm: llm('claude', 'claude-3.5-haiku-20241022'),
      ui: 'gradio',
    },
    { fixture: { kind: 'pdf', file: 'policy.pdf' }, services: ['qdrant'] },
  ),
  rag(
    'RAG excel + milvus + streamlit + e5 + groq',
    {
      source_type: 'excel',
      file: uploaded('excel', 'sales.xlsx'),
      embedding_model: 'e5-small-v2',
      vector_store: {
        vector_db: 'milvus',
        url: 'http://localhost:19530',
        distance_metric: 'euclidean',
      },
      llm: llm('groq', 'llama-3.1-8b-instant'),
      ui: 'streamlit',
    },
    { fixture: { kind: 'excel', file: 'sales.xlsx' }, services: ['milvus', 'etcd', 'minio'] },
  ),
  rag(
    'RAG text + pinecone + gradio + ada-002 + gemini, with chunks',
    {
      source_type: 'text_file',
      file: uploaded('text_file', 'policy.txt'),
      embedding_model: 'text-embedding-ada-002',
      vector_store: { vector_db: 'pinecone', environment: 'us-east-1', index_name: 'docs' },
      llm: llm('gemini', 'gemini-2.0-flash'),
      ui: 'gradio',
    },
    { fixture: { kind: 'text_file', file: 'policy.txt' }, chunks: textChunks, services: [] },
  ),
  rag(
    'RAG postgres + qdrant + streamlit + t5 + deepseek, with chunks',
    {
      source_type: 'postgres',
      database: database('postgres', 'orders'),
      embedding_model: 'sentence-t5-base',
      vector_store: { vector_db: 'qdrant', url: 'http://qdrant.internal:6333' },
      llm: llm('deepseek', 'deepseek-chat'),
      ui: 'streamlit',
    },
    { chunks: orderChunks, services: ['qdrant'] },
  ),
  rag(
    'RAG mongo + chromadb + gradio + MiniLM-L12 + claude',
    {
      source_type: 'mongo',
      database: database('mongo', 'articles'),
      embedding_model: 'all-MiniLM-L12-v2',
      vector_store: { vector_db: 'chromadb', url: 'http://localhost:8000' },
      llm: llm('claude', 'claude-3.7-sonnet-20250219'),
      ui: 'gradio',
    },
    { services: ['chromadb'] },
  ),
  rag(
    'RAG mysql + milvus + gradio + hostile name, prompt and table',
    {
      source_type: 'mysql',
      database: database('mysql', HOSTILE_TABLE),
      embedding_model: 'all-MiniLM-L6-v2',
      vector_store: { vector_db: 'milvus', url: 'http://localhost:19530' },
      llm: llm('openai', 'gpt-4.1'),
      system_prompt: HOSTILE,
      ui: 'gradio',
    },
    { name: HOSTILE, services: ['milvus', 'etcd', 'minio'] },
  ),
  sql(
    'SQL sql_query_file + csv + streamlit',
    {
      source_type: 'csv',
      file: uploaded('csv', 'sales.csv'),
      llm: llm('openai', 'gpt-4o'),
      framework: 'sql_query_file',
      ui: 'streamlit',
    },
    { fixture: { kind: 'csv', file: 'sales.csv' } },
  ),
  sql(
    'SQL sql_query_file + excel + gradio',
    {
      source_type: 'excel',
      file: uploaded('excel', 'sales.xlsx'),
      llm: llm('claude', 'claude-4-opus-20250522'),
      framework: 'sql_query_file',
      ui: 'gradio',
    },
    { fixture: { kind: 'excel', file: 'sales.xlsx' } },
  ),
  sql(
    'SQL pandasai + csv + streamlit',
    {
      source_type: 'csv',
      file: uploaded('csv', 'sales.csv'),
      llm: llm('gemini', 'gemini-1.5-flash'),
      framework: 'pandasai',
      ui: 'streamlit',
    },
    { fixture: { kind: 'csv', file: 'sales.csv' } },
  ),
  sql(
    'SQL pandasai + excel + gradio',
    {
      source_type: 'excel',
      file: uploaded('excel', 'sales.xlsx'),
      llm: llm('openai', 'gpt-4.1-mini'),
      framework: 'pandasai',
      ui: 'gradio',
    },
    { fixture: { kind: 'excel', file: 'sales.xlsx' } },
  ),
  sql(
    'SQL vannaai_file + csv + gradio',
    {
      source_type: 'csv',
      file: uploaded('csv', 'sales.csv'),
      llm: llm('groq', 'llama-3.3-70b-versatile'),
      framework: 'vannaai_file',
      ui: 'gradio',
    },
    { fixture: { kind: 'csv', file: 'sales.csv' } },
  ),
  sql('SQL vannaai_db + postgres + streamlit', {
    source_type: 'postgres',
    database: database('postgres', 'sales'),
    llm: llm('deepseek', 'deepseek-reasoner'),
    framework: 'vannaai_db',
    ui: 'streamlit',
  }),
  sql('SQL sql_query_db + mysql + gradio', {
    source_type: 'mysql',
    database: database('mysql', 'sales'),
    llm: llm('openai', 'gpt-4o-mini'),
    framework: 'sql_query_db',
    ui: 'gradio',
  }),
  sql(
    'SQL sql_query_db + sqlite + streamlit + hostile name, prompt and table',
    {
      source_type: 'sqlite',
      database: database('sqlite', HOSTILE_TABLE),
      llm: llm('claude', 'claude-3.5-haiku-20241022'),
      system_prompt: HOSTILE,
      framework: 'sql_query_db',
      ui: 'streamlit',
    },
    { name: HOSTILE },
  ),
];

// ---- generation and checks ----

interface Checked {
  dir: string;
  paths: string[];
  compile: ProcessRun;
  pyflakes: ProcessRun;
  pytest: ProcessRun;
  yaml: ProcessRun;
  roundTrip: ProcessRun;
  app: ProcessRun;
  compose?: ProcessRun;
}

/** Debian's docker-compose (v1) validates a compose file offline, where it is installed. */
const DOCKER_COMPOSE = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;

/** Runs app.py with stand-ins for Streamlit/Gradio, LiteLLM and the other missing packages. */
const RUN_APP = path.join(__dirname, 'smoke', 'run_app.py');

const ROUND_TRIP = [
  'import json, sys',
  'from agent.config import load_settings',
  's = load_settings()',
  'sys.stdout.write(json.dumps({"name": s.name, "prompt": s.system_prompt}))',
].join('\n');

const READ_YAML = [
  'import json, yaml',
  'docs = {p: yaml.safe_load(open(p)) for p in ("docker-compose.yml", ".github/workflows/ci.yml")}',
  'print(json.dumps(docs, default=str))',
].join('\n');

async function validateCompose(dir: string): Promise<ProcessRun> {
  await writeFile(path.join(dir, '.env'), ''); // compose's env_file must exist
  const result = await runProcess(
    'docker-compose',
    ['-f', 'docker-compose.yml', 'config', '-q'],
    dir,
  );
  await rm(path.join(dir, '.env'));
  return result;
}

let root: string;
const checked = new Map<string, Checked>();
let startedAt = 0;

beforeAll(async () => {
  startedAt = Date.now();
  root = await mkdtemp(path.join(os.tmpdir(), 'agentloom-generator-'));
  const fixtures = path.join(root, 'fixtures');
  await mkdir(fixtures);
  await writeFile(path.join(fixtures, 'sales.csv'), CSV);
  await writeFile(path.join(fixtures, 'policy.txt'), TEXT);
  await writePdf(path.join(fixtures, 'policy.pdf'));
  await writeXlsx(path.join(fixtures, 'sales.xlsx'));
  const extensions = { pdf: '.pdf', csv: '.csv', excel: '.xlsx', text_file: '.txt' };

  const projects = await Promise.all(
    SCENARIOS.map(async (scenario) => {
      const input: ProjectInput = { ...scenario.input };
      if (scenario.fixture) {
        input.sourceFile = {
          path: path.join(fixtures, scenario.fixture.file),
          dataFileName: `source${extensions[scenario.fixture.kind]}`,
        };
      }
      if (scenario.chunks) {
        input.chunksFile = path.join(fixtures, `chunks-${input.sessionId}.jsonl`);
        await writeChunksJsonl(input.chunksFile, [scenario.chunks]);
      }
      const files = await generateProject(input);
      const dir = path.join(root, projectFolderName(input.agentType, input.sessionId));
      for (const file of files) {
        await mkdir(path.dirname(path.join(dir, file.path)), { recursive: true });
        const target = path.join(dir, file.path);
        if ('sourcePath' in file) await copyFile(file.sourcePath, target);
        else await writeFile(target, file.content);
      }
      return { scenario, dir, paths: files.map((file) => file.path) };
    }),
  );

  const results = await pool(projects, Math.max(2, Math.min(6, os.cpus().length)), async (p) => ({
    title: p.scenario.title,
    dir: p.dir,
    paths: p.paths,
    compile: await runProcess(PYTHON, ['-m', 'compileall', '-q', '.'], p.dir),
    pyflakes: await runProcess(PYTHON, ['-m', 'pyflakes', '.'], p.dir),
    pytest: await runProcess(PYTHON, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], p.dir),
    yaml: await runProcess(PYTHON, ['-c', READ_YAML], p.dir),
    roundTrip: await runProcess(PYTHON, ['-c', ROUND_TRIP], p.dir),
    app: await runProcess(PYTHON, [RUN_APP], p.dir),
    compose: DOCKER_COMPOSE ? await validateCompose(p.dir) : undefined,
  }));
  for (const result of results) checked.set(result.title, result);
}, 240_000);

afterAll(async () => {
  // KEEP_GENERATED=1 leaves the projects on disk, to look at them.
  if (root && !process.env.KEEP_GENERATED) await rm(root, { recursive: true, force: true });
  else if (root) console.log(`Generated projects kept in ${root}`);
  console.log(`Generated and checked ${SCENARIOS.length} projects in ${Date.now() - startedAt} ms`);
});

const COMMON_FILES = [
  '.dockerignore',
  '.env.example',
  '.github/workflows/ci.yml',
  '.gitignore',
  'Dockerfile',
  'README.md',
  'agent.json',
  'agent/__init__.py',
  'agent/__main__.py',
  'agent/answer.py',
  'agent/config.py',
  'agent/llm.py',
  'app.py',
  'docker-compose.yml',
  'prompts/system.txt',
  'pyproject.toml',
  'requirements-dev.txt',
  'requirements.txt',
  'tests/conftest.py',
  'tests/test_config.py',
];
const RAG_FILES = [
  'agent/chunking.py',
  'agent/db.py',
  'agent/embeddings.py',
  'agent/loaders.py',
  'agent/rag.py',
  'agent/stores/__init__.py',
  'agent/stores/base.py',
  'agent/stores/memory_store.py',
  'tests/test_rag_agent.py',
  'tests/test_vector_store.py',
];
const SQL_ENGINE_FILES = ['agent/engine.py', 'tests/test_engine.py'];
const SQL_GUARDED_FILES = ['agent/database.py', 'agent/sql_guard.py', 'tests/test_sql_guard.py'];

describe.each(SCENARIOS)('$title', (scenario) => {
  const result = () => checked.get(scenario.title)!;
  const failure = (run: ProcessRun) => `${run.stdout}\n${run.stderr}`;

  it('has the expected files', () => {
    const { paths } = result();
    const expected = [...COMMON_FILES];
    const config = scenario.input.config;
    if (scenario.input.agentType === 'rag') {
      const module = {
        chromadb: 'chroma_store',
        qdrant: 'qdrant_store',
        milvus: 'milvus_store',
        pinecone: 'pinecone_store',
      }[config.vector_store!.vector_db];
      expected.push(...RAG_FILES, `agent/stores/${module}.py`);
      if (scenario.chunks) expected.push('data/chunks.jsonl');
    } else {
      expected.push(...SQL_ENGINE_FILES);
      if (config.framework !== 'pandasai') expected.push(...SQL_GUARDED_FILES);
    }
    if (scenario.fixture) expected.push(`data/source${path.extname(scenario.fixture.file)}`);
    if (config.ui === 'streamlit') expected.push('.streamlit/config.toml');
    expect(paths).toEqual(expect.arrayContaining(expected));
    for (const file of paths) {
      expect(file).not.toMatch(/(^|\/)\.\.(\/|$)|^\/|\\/);
    }
  });

  it('compiles and passes pyflakes', () => {
    expect(result().compile.status).toBe(0);
    expect(failure(result().pyflakes)).toBe('\n');
    expect(result().pyflakes.status).toBe(0);
  });

  it("passes the project's own tests", () => {
    const { pytest } = result();
    if (pytest.status !== 0) throw new Error(failure(pytest));
    expect(pytest.stdout).toMatch(/\d+ passed/);
    expect(pytest.stdout).not.toMatch(/failed|error/i);
  });

  it('gives the name and the system prompt back unchanged at run time', () => {
    const { roundTrip } = result();
    if (roundTrip.status !== 0) throw new Error(failure(roundTrip));
    expect(JSON.parse(roundTrip.stdout)).toEqual({
      name: scenario.input.name,
      prompt: scenario.input.config.system_prompt,
    });
  });

  it('answers a question through its UI, end to end', () => {
    const { app } = result();
    if (app.status !== 0) throw new Error(failure(app));
    const { shown, prompts } = JSON.parse(app.stdout) as {
      shown: { title: string; markdown: string[]; code: string[]; captions: string[] };
      prompts: { role: string; content: string }[][];
    };
    const everything = [...shown.markdown, ...shown.code, ...shown.captions].join('\n');
    const { agentType, config } = scenario.input;
    expect(shown.title).toBeTruthy();
    expect(prompts[0]![0]!.role).toBe('system');
    expect(prompts[0]![0]!.content.startsWith(config.system_prompt!)).toBe(true);
    if (agentType === 'rag') {
      expect(everything).toContain('The documents answer it [1].');
      expect(everything).toMatch(/Sources/);
    } else if (config.framework === 'pandasai') {
      expect(everything).toMatch(/There were \d+ sales\./);
    } else {
      expect(everything).toContain('There were 3 sales.');
      expect(everything).toContain('SELECT count(*) AS n FROM');
      expect(everything).toMatch(/LIMIT 200/);
    }
  });

  it('has a valid compose file and workflow', () => {
    const { yaml } = result();
    if (yaml.status !== 0) throw new Error(failure(yaml));
    const docs = JSON.parse(yaml.stdout) as {
      'docker-compose.yml': { services: Record<string, { ports?: string[] }> };
      '.github/workflows/ci.yml': { jobs: Record<string, unknown> };
    };
    const compose = docs['docker-compose.yml'];
    const port = scenario.input.config.ui === 'streamlit' ? 8501 : 7860;
    expect(compose.services.agent!.ports).toEqual([`${port}:${port}`]);
    expect(Object.keys(compose.services).sort()).toEqual(
      ['agent', ...(scenario.services ?? [])].sort(),
    );
    const workflow = docs['.github/workflows/ci.yml'];
    expect(Object.keys(workflow.jobs)).toEqual(['test', 'image']);
  });

  (DOCKER_COMPOSE ? it : it.skip)('passes docker-compose config', () => {
    const { compose } = result();
    expect(compose && failure(compose)).toBe('\n');
    expect(compose?.status).toBe(0);
  });

  it('ships no secret and no user string in code', async () => {
    const { dir, paths } = result();
    const { name, config } = scenario.input;
    for (const file of paths) {
      const content = await readFile(path.join(dir, file), 'utf8');
      // No key, and nothing of the stored (redacted) connection URI.
      expect(content).not.toMatch(/sk-[A-Za-z0-9]|app:\*{4}@|db\.example\.com/);
      if (file.endsWith('.py') || file === 'Dockerfile' || file.endsWith('.yml')) {
        expect(content).not.toContain(name);
        expect(content).not.toContain(config.system_prompt);
      }
    }
  });
});
