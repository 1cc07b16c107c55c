import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LOCKS_DIR } from './lock-file';
import { pool } from '../testing/pool';
import { SCENARIOS, writeScenarioProjects } from '../testing/project-scenarios';
import { universeVenv } from '../testing/python-tools';
import { runProcess, type ProcessRun } from '../testing/run-process';

/**
 * Generates real projects for a spread of configurations, writes them to disk and checks them
 * with the real libraries their locks pin (one shared virtual environment per lock universe,
 * kept between runs): every file compiles, pyflakes is clean, and the project's own pytest
 * suite passes. Installing each project from its own lock, its services and its UI in a
 * browser are the live check's (agents.live-spec.ts, `npm run test:agents-live`).
 */

// ---- generation and checks ----

interface Checked {
  dir: string;
  paths: string[];
  compile: ProcessRun;
  pyflakes: ProcessRun;
  pytest: ProcessRun;
  yaml: ProcessRun;
  roundTrip: ProcessRun;
  compose?: ProcessRun;
}

/** Debian's docker-compose (v1) validates a compose file offline, where it is installed. */
const DOCKER_COMPOSE = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;

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
const PYTEST_TIMEOUT_MS = 300_000;
const checked = new Map<string, Checked>();
let startedAt = 0;

beforeAll(async () => {
  startedAt = Date.now();
  root = await mkdtemp(path.join(os.tmpdir(), 'agentloom-generator-'));
  const projects = await writeScenarioProjects(root);

  const pythons = {
    main: universeVenv(path.join(LOCKS_DIR, 'main.lock')),
    pandasai: universeVenv(path.join(LOCKS_DIR, 'pandasai.lock')),
  };
  const results = await pool(projects, Math.max(2, Math.min(6, os.cpus().length)), async (p) => {
    const { config } = p.scenario.input;
    const pandasai = config.agent_type === 'sql' && config.framework === 'pandasai';
    const PYTHON = pandasai ? pythons.pandasai : pythons.main;
    return {
      title: p.scenario.title,
      dir: p.dir,
      paths: p.paths,
      compile: await runProcess(PYTHON, ['-m', 'compileall', '-q', '.'], p.dir),
      pyflakes: await runProcess(PYTHON, ['-m', 'pyflakes', '.'], p.dir),
      // Some of a project's tests start a second Python process (a store held by another) or
      // import its provider's SDK: on a busy machine, minutes.
      pytest: await runProcess(
        PYTHON,
        ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
        p.dir,
        PYTEST_TIMEOUT_MS,
      ),
      yaml: await runProcess(PYTHON, ['-c', READ_YAML], p.dir),
      roundTrip: await runProcess(PYTHON, ['-c', ROUND_TRIP], p.dir),
      compose: DOCKER_COMPOSE ? await validateCompose(p.dir) : undefined,
    };
  });
  for (const result of results) checked.set(result.title, result);
}, 900_000);

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
  'agent/curated.py',
  'agent/llm.py',
  'agent/words.py',
  'app.py',
  'docker-compose.yml',
  'prompts/system.txt',
  'pyproject.toml',
  'requirements-dev.txt',
  'requirements.lock',
  'requirements.txt',
  'data/curated_answers.json',
  'tests/conftest.py',
  'tests/test_config.py',
  'tests/test_curated.py',
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
  'tests/test_indexing.py',
  'agent/indexing.py',
  'agent/sources.py',
  'agent/web.py',
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
    if (config.agent_type === 'rag') {
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

  it('has a valid compose file and workflow', () => {
    const { yaml } = result();
    if (yaml.status !== 0) throw new Error(failure(yaml));
    const docs = JSON.parse(yaml.stdout) as {
      'docker-compose.yml': { services: Record<string, { ports?: string[] }> };
      '.github/workflows/ci.yml': { jobs: Record<string, unknown> };
    };
    const compose = docs['docker-compose.yml'];
    const port = scenario.input.config.ui === 'streamlit' ? 8501 : 7860;
    expect(compose.services.agent!.ports).toEqual([
      `\${UI_BIND_ADDRESS:-127.0.0.1}:${port}:${port}`,
    ]);
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
