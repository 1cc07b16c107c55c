import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { ChatApp } from './chat-app';
import { LIVE_CASES } from './live-cases';
import { caseEnv, freePort, waitFor, type LiveServices } from './live-services';
import { localModelFolder } from './embedding-weights';
import { LOCKS_DIR } from '../generator/lock-file';
import { SCENARIOS, writeScenarioProjects } from '../testing/project-scenarios';
import { installLockedProject, universeVenv, type AgentPython } from '../testing/python-tools';
import { runProcess } from '../testing/run-process';

/**
 * Issue 43, with the real libraries, on Python 3.11 (the main universe's environment) and 3.13
 * (each project installed from its own lock, as its README says): the command line the README
 * advertises, run while the chat app holds a store kept in a local folder (Qdrant's local mode,
 * Milvus Lite); the local embedding model loaded as the app starts, saying so (item 10); and the
 * start check - a key the provider refuses or a database password that is wrong stops the app as
 * it starts, Streamlit says to restart after editing .env and shows the indexing in its terminal.
 * Stand-in for the LLM providers: agent-runtime's local test server.
 */

const log = (line: string) => process.stdout.write(`${line}\n`);

const QDRANT = 'RAG pdf + qdrant + gradio + bge + claude, read from the file';
const MILVUS = 'RAG excel + milvus + streamlit + e5 + groq';
const SQL_GRADIO = 'SQL sql_query_file + excel + gradio';
const SQL_STREAMLIT = 'SQL sql_query_file + csv + streamlit';
const MYSQL = 'SQL sql_query_db + mysql + gradio';
const TITLES = [QDRANT, MILVUS, SQL_GRADIO, SQL_STREAMLIT, MYSQL];
const REFUSED_KEY = 'sk-refused-by-the-provider';
// Installing, loading a local model and indexing on a shared machine: minutes, not seconds.
const APP_START_MS = 600_000;

const PYTHONS: AgentPython[] = ['3.11', '3.13'];

let root: string;
let llm: LlmTestServer;
let universePython: string;
/** Each Python's own copy of the projects: a store's folder and index records are per copy. */
const dirs = new Map<string, string>();
const pythons = new Map<string, string>();

const services = (): LiveServices => ({
  llm,
  pinecone: { url: 'http://127.0.0.1:9' },
  chromaUrl: '',
  modelPath: localModelFolder(),
});
const dirOf = (version: AgentPython, title: string) => dirs.get(`${version} ${title}`)!;
const envOf = (version: AgentPython, title: string) => ({
  ...caseEnv(LIVE_CASES[title]!, dirOf(version, title), services()),
  HOME: os.tmpdir(),
});

/** The project's chat app on `version`, with the case's settings and any of `env` over them. */
const startApp = (
  version: AgentPython,
  title: string,
  ui: 'gradio' | 'streamlit',
  env: Record<string, string> = {},
) =>
  ChatApp.start({
    dir: dirOf(version, title),
    python: pythonOf(version, title),
    env: { ...envOf(version, title), ...env },
    ui,
  });

/** 3.11: the universe's environment; 3.13: the project's own install from requirements.lock. */
function pythonOf(version: AgentPython, title: string): string {
  if (version === '3.11') return universePython;
  const key = `${version} ${title}`;
  if (!pythons.has(key)) {
    const dir = dirOf(version, title);
    pythons.set(
      key,
      installLockedProject(dir, path.join(dir, `.venv-${version}`), 'requirements.lock', version),
    );
  }
  return pythons.get(key)!;
}
const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'agentloom-app-and-cli-'));
  llm = await startLlmTestServer({ rejectedKeys: [REFUSED_KEY] });
  universePython = universeVenv(path.join(LOCKS_DIR, 'main.lock'));
  const scenarios = SCENARIOS.filter((scenario) => TITLES.includes(scenario.title));
  for (const version of PYTHONS) {
    const folder = path.join(root, version);
    await mkdir(folder);
    for (const project of await writeScenarioProjects(folder, scenarios)) {
      dirs.set(`${version} ${project.scenario.title}`, project.dir);
    }
  }
}, 1_800_000);

afterAll(async () => {
  await llm?.close();
  if (root && !process.env.KEEP_GENERATED) await rm(root, { recursive: true, force: true });
});

describe.each(PYTHONS)('on Python %s', (version) => {
  describe('the command line while the chat app holds a local store (issue 43, item 9)', () => {
    /** The README's `ask` answers beside the app; its `index` says plainly the store is in use. */
    async function besideTheApp(title: string, app: ChatApp): Promise<void> {
      const dir = dirOf(version, title);
      const liveCase = LIVE_CASES[title]!;
      const ask = await runProcess(
        pythonOf(version, title),
        ['-m', 'agent', 'ask', liveCase.question!],
        dir,
        APP_START_MS,
        envOf(version, title),
      );
      log(
        `${version} ${title} :: ask beside the app — ${ask.status}: ${ask.stdout.split('\n')[0]}`,
      );
      expect(ask.stderr).not.toContain('Traceback');
      expect(ask.stderr).toMatch(/open in another process .*answering from a copy of it/);
      expect(ask.status).toBe(0);
      expect(ask.stdout).toMatch(liveCase.expect!);

      const index = await runProcess(
        pythonOf(version, title),
        ['-m', 'agent', 'index'],
        dir,
        APP_START_MS,
        {
          ...envOf(version, title),
          VECTOR_STORE_WAIT_SECONDS: '1',
        },
      );
      log(
        `${version} ${title} :: index beside the app — ${index.status}: ${lastLine(index.stderr)}`,
      );
      expect(index.stderr).not.toContain('Traceback');
      expect(lastLine(index.stderr)).toMatch(
        /^The vector store in .* is open in another process .*Stop that process and try again/,
      );
      expect(index.status).toBe(2);
      // The app, its store untouched by either, still runs.
      expect(app.running).toBe(true);
    }

    it('Qdrant local mode, beside the Gradio app', async () => {
      const app = await startApp(version, QDRANT, 'gradio');
      try {
        // Gradio serves once its agent is ready (indexed).
        await waitFor(app.url, APP_START_MS);
        // Item 10: the model is loaded as the app starts, on ONNX Runtime, and says so.
        const loading =
          /Loading the embedding model BAAI\/bge-small-en-v1\.5 \(ONNX Runtime, CPU\)\.\.\./;
        const ready = /The embedding model is ready \((\d+\.\d) s\)/;
        log(`${version} ${QDRANT} :: model at start — ${ready.exec(app.output)?.[0]}`);
        expect(app.output).toMatch(loading);
        expect(app.output.search(ready)).toBeGreaterThan(app.output.search(loading));
        await besideTheApp(QDRANT, app);
      } finally {
        await app.stop();
      }
    }, 1_500_000);

    it('Milvus Lite beside the Streamlit app, whose terminal shows the indexing (item 12)', async () => {
      const app = await startApp(version, MILVUS, 'streamlit');
      try {
        await waitFor(app.url, APP_START_MS);
        // Streamlit prepares the agent for its first visitor: the chat box shows once it is ready.
        await app.visit((page) => page.getByPlaceholder('Ask a question'), APP_START_MS);
        log(`${version} ${MILVUS} :: terminal — ${/^.*Embedded .*$/m.exec(app.output)?.[0]}`);
        expect(app.output).toMatch(/INFO agent\.rag: Embedded \d+ of \d+ chunks \(100%\)/);
        await besideTheApp(MILVUS, app);
      } finally {
        await app.stop();
      }
    }, 1_500_000);
  });

  describe('the start check (issue 43, item 12)', () => {
    it('a key the provider refuses stops the Gradio app before it serves, naming the key', async () => {
      const port = String(await freePort());
      const run = await runProcess(
        pythonOf(version, SQL_GRADIO),
        ['app.py', '--port', port],
        dirOf(version, SQL_GRADIO),
        APP_START_MS,
        {
          ...envOf(version, SQL_GRADIO),
          ANTHROPIC_API_KEY: REFUSED_KEY,
        },
      );
      log(`${version} ${SQL_GRADIO} :: refused key — ${run.status}: ${lastLine(run.stderr)}`);
      expect(run.stderr).not.toContain('Traceback');
      expect(lastLine(run.stderr)).toMatch(
        /^Configuration error: .*refused the key in ANTHROPIC_API_KEY.*Check ANTHROPIC_API_KEY in \.env\.$/,
      );
      expect(run.status).toBe(2);
    }, 600_000);

    it('a wrong database password stops the app as it starts, naming DATABASE_URL', async () => {
      const dir = dirOf(version, MYSQL);
      const env = {
        ...envOf(version, MYSQL),
        DATABASE_URL:
          'mysql://agentloom_live_reader:not-the-password@127.0.0.1:3306/agentloom_live',
      };
      const port = String(await freePort());
      const run = await runProcess(
        pythonOf(version, MYSQL),
        ['app.py', '--port', port],
        dir,
        APP_START_MS,
        env,
      );
      log(`${version} ${MYSQL} :: wrong password — ${run.status}: ${lastLine(run.stderr)}`);
      expect(run.stderr).not.toContain('Traceback');
      expect(lastLine(run.stderr)).toMatch(
        /^Configuration error: Cannot connect to the database in DATABASE_URL \(mysql\+pymysql:\/\/agentloom_live_reader:\*\*\*@127\.0\.0\.1:3306\/agentloom_live\): .*Access denied/,
      );
      expect(run.stderr).not.toContain('not-the-password');
      expect(run.status).toBe(2);
    }, 600_000);

    it('Streamlit shows a refused key on the page and in its terminal, and says to restart', async () => {
      const app = await startApp(version, SQL_STREAMLIT, 'streamlit', {
        OPENAI_API_KEY: REFUSED_KEY,
      });
      try {
        await waitFor(app.url, APP_START_MS);
        const page = await app.visit((shown) => shown.getByText(/restart the app/), APP_START_MS);
        log(
          `${version} ${SQL_STREAMLIT} :: refused key on the page — ${page.replace(/\s+/g, ' ').slice(0, 300)}`,
        );
        expect(page).toMatch(/refused the key in OPENAI_API_KEY/);
        expect(page).toMatch(/After changing \.env, restart the app/);
        await app.waitForOutput(/Configuration error: .*OPENAI_API_KEY/, 60_000);
      } finally {
        await app.stop();
      }
    }, 600_000);
  });
});
