/* eslint-disable max-lines -- every case reads the projects one beforeAll writes and installs
   once; split into files, each would write them again. Helpers live in ./browser-chat.ts,
   ./live-services.ts and ./python-snippets.ts. */
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { askInBrowser } from './browser-chat';
import { LIVE_CASES } from './live-cases';
import { caseEnv, freePort, listeningAddresses, waitFor, type LiveServices } from './live-services';
import { localModelFolder } from './embedding-weights';
import { CLIENT_ACCEPTS, IMPORT_ALL, STREAM_WITH_HISTORY } from './python-snippets';
import { LOCKS_DIR } from '../generator/lock-file';
import { writeScenarioProjects } from '../testing/project-scenarios';
import {
  installLockedProject,
  lockPlatforms,
  pipInstallAsReadme,
  universeVenv,
} from '../testing/python-tools';
import { runProcess, type ProcessRun } from '../testing/run-process';

/**
 * What a user met in the first hour with a downloaded agent (issue 28), each checked with the
 * real libraries (README.md, "The generated agents"). Projects run with the main universe's
 * environment on Python 3.11 and with their own installs on 3.13. Stand-in for outside services:
 * the LLM providers and OpenAI's embeddings (agent-runtime's local test server).
 */

const log = (line: string) => process.stdout.write(`${line}\n`);

let root: string;
let llm: LlmTestServer;
let python311: string;
let pandasai311: string;
const dirs = new Map<string, string>();
const outcomes: { ok: boolean }[] = [];

function record(title: string, step: string, ok: boolean, detail = ''): void {
  outcomes.push({ ok });
  log(`${ok ? 'PASS' : 'FAIL'}  ${title} :: ${step}${detail ? ` — ${detail}` : ''}`);
}

const services = (): LiveServices => ({
  llm,
  // Not used: these checks keep their vectors in memory (VECTOR_STORE=memory).
  pinecone: { url: 'http://127.0.0.1:9' },
  chromaUrl: '',
  modelPath: localModelFolder(),
});

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'agentloom-first-hour-'));
  llm = await startLlmTestServer();
  python311 = universeVenv(path.join(LOCKS_DIR, 'main.lock'));
  pandasai311 = universeVenv(path.join(LOCKS_DIR, 'pandasai.lock'));
  for (const project of await writeScenarioProjects(root)) {
    dirs.set(project.scenario.title, project.dir);
  }
}, 1_800_000);

afterAll(async () => {
  await llm?.close();
  if (root && !process.env.KEEP_GENERATED) await rm(root, { recursive: true, force: true });
  const failed = outcomes.filter((outcome) => !outcome.ok).length;
  log(`${outcomes.length - failed} passed, ${failed} failed`);
});

/**
 * What a user met in the first hour with a downloaded agent (issue 28), each checked with the
 * real libraries against today's templates: where the chat listens, how a setting that cannot
 * work is reported, where the embeddings go, which Pythons and systems the locks serve, and
 * whether the compose file's store servers are releases their clients accept.
 */
describe('the first hour with a downloaded agent', () => {
  const STREAMLIT = 'RAG csv + chromadb + streamlit + MiniLM-L6 + openai, with chunks';
  const ADA = 'RAG text + pinecone + gradio + ada-002 + gemini, with chunks';
  const timed = async (run: () => Promise<ProcessRun>) => {
    const begun = Date.now();
    const result = await run();
    return { ...result, ms: Date.now() - begun };
  };

  it('Streamlit listens on 127.0.0.1 only and shows visitors no error details', async () => {
    const dir = dirs.get(STREAMLIT)!;
    const python = python311;
    const port = await freePort();
    const env = { ...caseEnv(LIVE_CASES[STREAMLIT]!, dir, services()), HOME: os.tmpdir() };
    // The README's command, with only the port changed: no address on the command line.
    const app = spawn(python, ['-m', 'streamlit', 'run', 'app.py', '--server.port', String(port)], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: 'ignore',
    });
    try {
      await waitFor(`http://127.0.0.1:${port}/`, 180_000);
      const addresses = listeningAddresses(port);
      record(
        STREAMLIT,
        'streamlit binds 127.0.0.1',
        addresses.join() === '127.0.0.1',
        addresses.join(', '),
      );
      expect(addresses).toEqual(['127.0.0.1']);
    } finally {
      app.kill('SIGTERM');
    }
    const shown = await runProcess(python, ['-m', 'streamlit', 'config', 'show'], dir, 120_000, {
      HOME: os.tmpdir(),
    });
    expect(shown.stdout).toMatch(/^showErrorDetails = "none"$/m);
  }, 600_000);

  it('a refused key stops indexing in under 10 s, naming the setting, without a traceback', async () => {
    const dir = dirs.get(ADA)!;
    llm.rejectedKeys.add('sk-refused-by-the-provider');
    const run = await timed(() =>
      runProcess(python311, ['-m', 'agent', 'index', '--rebuild'], dir, 120_000, {
        ...caseEnv(LIVE_CASES[ADA]!, dir, services()),
        OPENAI_API_KEY: 'sk-refused-by-the-provider',
        VECTOR_STORE: 'memory',
        VECTOR_STORE_PATH: '.memory-index-refused',
      }),
    );
    const said = run.stderr.trim().split('\n').at(-1) ?? '';
    const ok =
      run.status === 2 && said.includes('OPENAI_API_KEY') && !run.stderr.includes('Traceback');
    record(
      ADA,
      'refused key: plain message at once',
      ok && run.ms < 10_000,
      `${run.ms} ms: ${said}`,
    );
    expect(run.stderr).not.toContain('Traceback');
    expect(said).toMatch(/^Configuration error: .*refused the key in OPENAI_API_KEY/);
    expect(run.status).toBe(2);
    expect(run.ms).toBeLessThan(10_000);
  }, 120_000);

  it('a store host that exists only inside compose fails at once, naming VECTOR_STORE_URL', async () => {
    const dir = dirs.get(STREAMLIT)!;
    const run = await timed(() =>
      runProcess(python311, ['-m', 'agent', 'index'], dir, 300_000, {
        ...caseEnv(LIVE_CASES[STREAMLIT]!, dir, services()),
        VECTOR_STORE_URL: 'http://chromadb:8000',
      }),
    );
    const said = run.stderr.trim().split('\n').at(-1) ?? '';
    record(
      STREAMLIT,
      'unknown store host: plain message at once',
      run.status === 2 && run.ms < 10_000,
      `${run.ms} ms: ${said}`,
    );
    expect(said).toMatch(/^Configuration error: .*VECTOR_STORE_URL/);
    expect(run.stderr).not.toContain('Traceback');
    expect(run.ms).toBeLessThan(10_000);
  }, 300_000);

  it('the Gradio app without its key exits with the setting named, not a traceback', async () => {
    const dir = dirs.get(ADA)!;
    const env: Record<string, string> = {
      ...caseEnv(LIVE_CASES[ADA]!, dir, services()),
      VECTOR_STORE: 'memory',
    };
    delete env.GEMINI_API_KEY;
    const port = await freePort();
    const run = await runProcess(python311, ['app.py', '--port', String(port)], dir, 120_000, env);
    const said = run.stderr.trim().split('\n').at(-1) ?? '';
    record(ADA, 'gradio without its key', run.status === 2, said);
    expect(run.status).toBe(2);
    expect(said).toMatch(/GEMINI_API_KEY/);
    expect(run.stderr).not.toContain('Traceback');
  }, 120_000);

  it('LLM_BASE_URL takes the embeddings too when OpenAI serves both', async () => {
    // The ada-002 project, its LLM switched to OpenAI in agent.json (data, as README says).
    const copy = path.join(root, 'openai-everywhere');
    await cp(dirs.get(ADA)!, copy, {
      recursive: true,
      filter: (source) => !source.includes(`${path.sep}.venv`),
    });
    const manifest = JSON.parse(await readFile(path.join(copy, 'agent.json'), 'utf8')) as {
      llm: Record<string, unknown>;
    };
    manifest.llm = {
      ...manifest.llm,
      provider: 'openai',
      model_id: 'gpt-4o-mini',
      api_key_env: 'OPENAI_API_KEY',
    };
    await writeFile(path.join(copy, 'agent.json'), JSON.stringify(manifest, null, 2));
    const before = llm.requests.filter((request) => request.path === '/v1/embeddings').length;
    const run = await runProcess(
      python311,
      ['-m', 'agent', 'ask', 'How long does shipping to Norway take?'],
      copy,
      300_000,
      {
        OPENAI_API_KEY: 'sk-live-check-stand-in-key',
        LLM_BASE_URL: `${llm.url}/v1`,
        // Nothing answers here: embeddings sent to OpenAI's own setting would fail.
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
        VECTOR_STORE: 'memory',
      },
    );
    const embedded =
      llm.requests.filter((request) => request.path === '/v1/embeddings').length - before;
    record(
      ADA,
      'LLM_BASE_URL reaches the embeddings',
      run.status === 0 && embedded > 0,
      `${embedded} embedding requests to the stand-in`,
    );
    expect(run.stderr).not.toContain('Traceback');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Norway/);
    expect(embedded).toBeGreaterThan(0);
  }, 300_000);

  // SQL agents stream the answer written from the query's result; every request to the model
  // (the SQL it writes, the answer) carries the earlier turns.
  it.each([
    [STREAMLIT, 'openai', '/v1/chat/completions'],
    [
      'RAG pdf + qdrant + gradio + bge + claude, read from the file',
      'claude',
      '/anthropic/v1/messages',
    ],
    [ADA, 'gemini', ':streamGenerateContent'],
    ['SQL sql_query_file + csv + streamlit', 'openai', '/v1/chat/completions'],
    ['SQL sql_query_file + excel + gradio', 'claude', '/anthropic/v1/messages'],
    ['SQL vannaai_file + csv + gradio', 'groq', '/v1/chat/completions'],
  ])(
    '%s streams its answer through the real %s SDK and sends the earlier turns',
    async (title, _provider, endpoint) => {
      const dir = dirs.get(title)!;
      const liveCase = LIVE_CASES[title]!;
      const env = { ...caseEnv(liveCase, dir, services()), VECTOR_STORE: 'memory' };
      const before = llm.requests.length;
      const run = await runProcess(
        python311,
        ['-c', STREAM_WITH_HISTORY, liveCase.question!],
        dir,
        300_000,
        env,
      );
      const said = JSON.parse(run.stdout.trim().split('\n').at(-1) || '{}') as {
        pieces?: number;
        streamed?: string;
        answer?: string;
      };
      const sent = llm.requests.slice(before).filter((request) => request.path.includes(endpoint));
      const remembered =
        sent.length > 0 && sent.every((request) => JSON.stringify(request.body).includes('PAPAYA'));
      record(
        title,
        'streamed answer, earlier turns sent',
        (said.pieces ?? 0) > 1 && remembered,
        `${said.pieces} pieces; history sent in all ${sent.length} requests: ${remembered}`,
      );
      expect(run.stderr).not.toContain('Traceback');
      expect(said.pieces).toBeGreaterThan(1);
      expect(said.answer).toBe(said.streamed?.trim());
      expect(said.answer).toMatch(liveCase.expect!);
      expect(remembered).toBe(true);
    },
    300_000,
  );

  it('a PandasAI agent sends the earlier turns with the code it asks for', async () => {
    const title = 'SQL pandasai + excel + gradio';
    const dir = dirs.get(title)!;
    const before = llm.requests.length;
    const run = await runProcess(
      pandasai311,
      ['-c', STREAM_WITH_HISTORY, 'How many sales are there?'],
      dir,
      300_000,
      { ...caseEnv(LIVE_CASES[title]!, dir, services()), PANDASAI_ALLOW_MODEL_CODE: 'true' },
    );
    const said = JSON.parse(run.stdout.trim().split('\n').at(-1) || '{}') as { answer?: string };
    const sent = llm.requests
      .slice(before)
      .filter((request) => request.path === '/v1/chat/completions');
    const remembered =
      sent.length > 0 && sent.every((request) => JSON.stringify(request.body).includes('PAPAYA'));
    record(title, 'earlier turns sent', remembered && said.answer === '3', `answer ${said.answer}`);
    expect(run.stderr).not.toContain('Traceback');
    expect(said.answer).toBe('3');
    expect(remembered).toBe(true);
  }, 300_000);

  // Both chat apps, driven in Chromium as a user does: two questions, the second a follow-up.
  // The app must stream the answer (the answer request asks the provider for a stream) and send
  // the first exchange with the second question.
  it.each([
    ['SQL sql_query_file + csv + streamlit', 'streamlit', /The answer is 4\./],
    ['SQL sql_query_file + excel + gradio', 'gradio', /The answer is 3\./],
  ] as const)(
    '%s: the %s chat streams and remembers the question before',
    async (title, ui, expected) => {
      const dir = dirs.get(title)!;
      const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir() };
      const chats = await askInBrowser({
        dir,
        python: python311,
        env: { ...env, ...caseEnv(LIVE_CASES[title]!, dir, services()) },
        ui,
        llm,
        questions: ['How many sales are there?', 'And how many of them in the North?'],
        expected,
      });
      // Per question: the SQL to write, then the answer (streamed).
      const [, firstAnswer, secondSql, secondAnswer] = chats.map(
        (request) => request.body as { stream?: boolean },
      );
      const remembered = [secondSql, secondAnswer].every((body) =>
        JSON.stringify(body).includes('How many sales are there?'),
      );
      const streamed = firstAnswer?.stream === true && secondAnswer?.stream === true;
      record(
        title,
        `${ui}: streamed, follow-up sent with the first exchange`,
        chats.length === 4 && remembered && streamed,
        `${chats.length} requests; streamed ${streamed}; remembered ${remembered}`,
      );
      expect(chats).toHaveLength(4);
      expect(streamed).toBe(true);
      expect(remembered).toBe(true);
    },
    600_000,
  );

  it.each([
    ['qdrant', 'RAG pdf + qdrant + gradio + bge + claude, read from the file'],
    ['chromadb', STREAMLIT],
    ['milvus', 'RAG excel + milvus + streamlit + e5 + groq'],
  ])(
    "the compose file's %s server is a release its client accepts",
    async (store, title) => {
      const dir = dirs.get(title)!;
      const compose = await readFile(path.join(dir, 'docker-compose.yml'), 'utf8');
      const image = new RegExp(
        `^  ${store}:\\n(?:    .*\\n)*?    image: (\\S+):v?(\\S+)$`,
        'm',
      ).exec(compose);
      expect(image).not.toBeNull();
      const tag = image![2]!;
      const run = await runProcess(python311, ['-c', CLIENT_ACCEPTS, store, tag], dir, 120_000);
      record(
        title,
        `compose ${image![1]}:${tag} accepted by its client`,
        run.status === 0,
        run.stdout.trim() || run.stderr.trim().slice(-200),
      );
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      // Published on this machine only, never on Agentloom's own 8000.
      expect(compose).not.toMatch(/^\s+- '(?:127\.0\.0\.1:)?8000:/m);
      if (store === 'chromadb') expect(compose).toMatch(/^\s+- chroma-data:\/data$/m);
    },
    120_000,
  );

  it.each([
    ['main', ['3.11', '3.12', '3.13']],
    ['pandasai', ['3.11']],
  ])(
    "the %s lock carries every target's wheel hashes (Linux x86_64/aarch64, macOS arm64)",
    (universe, pythons) => {
      const { status, gaps, needed } = lockPlatforms(path.join(LOCKS_DIR, `${universe}.lock`), [
        ...pythons,
      ]);
      record(
        `${universe}.lock`,
        'wheel hashes for every target',
        status === 0,
        status === 0 ? JSON.stringify(needed) : gaps.slice(0, 5).join('; '),
      );
      expect(gaps).toEqual([]);
      expect(status).toBe(0);
    },
    600_000,
  );

  // One agent of each kind on the newest Python too (3.11 is every project's own install above):
  // a local model (PyPI's torch) with Streamlit and Chroma, OpenAI embeddings with Gradio and
  // Pinecone, and SQL through Vanna (pandas, SQLAlchemy) with Gradio.
  it.each([
    STREAMLIT,
    ADA,
    'SQL vannaai_file + csv + gradio',
    'SQL sql_query_file + csv + streamlit',
  ])(
    '%s installs from its lock and passes its tests on Python 3.13',
    async (title) => {
      const dir = dirs.get(title)!;
      const begun = Date.now();
      const python = installLockedProject(
        dir,
        path.join(dir, '.venv-3.13'),
        'requirements-dev.txt',
        '3.13',
      );
      const installed = Date.now() - begun;
      const imported = await runProcess(python, ['-c', IMPORT_ALL], dir, 300_000);
      const tested = await runProcess(
        python,
        ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
        dir,
        600_000,
      );
      const summary = /\d+ passed[^\n]*/.exec(tested.stdout)?.[0] ?? tested.stdout.slice(-300);
      if (title === ADA) {
        // The README's own commands, with pip: python -m venv, pip install --require-hashes.
        const pip = pipInstallAsReadme(
          dir,
          path.join(dir, '.venv-pip'),
          ['requirements.lock'],
          '3.13',
        );
        const again = await runProcess(pip, ['-c', IMPORT_ALL], dir, 300_000);
        record(
          title,
          'Python 3.13: pip install as README says, import',
          again.status === 0,
          again.stdout.trim().split('\n').at(-1),
        );
        expect(again.stderr).toBe('');
      }
      record(
        title,
        'Python 3.13: install, import, pytest',
        imported.status === 0 && tested.status === 0,
        `installed in ${installed} ms; ${summary}`,
      );
      expect(imported.stderr).toBe('');
      expect(tested.status).toBe(0);
      const liveCase = LIVE_CASES[title]!;
      if (title === STREAMLIT) {
        const env = {
          ...caseEnv(liveCase, dir, services()),
          VECTOR_STORE: 'memory',
          VECTOR_STORE_PATH: '.memory-index-3.13',
        };
        const ask = await runProcess(
          python,
          ['-m', 'agent', 'ask', liveCase.question!],
          dir,
          600_000,
          env,
        );
        record(
          title,
          'Python 3.13: a question end to end',
          ask.status === 0 && liveCase.expect!.test(ask.stdout),
          ask.stdout.split('\n')[0],
        );
        expect(ask.stdout).toMatch(liveCase.expect!);
      }
    },
    1_800_000,
  );
});
