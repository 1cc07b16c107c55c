// The compose check's driver (run.sh builds the base-image stand-ins, then runs this with the
// host's address): docker-compose.yml built and started as an operator would (`-p agentloom-ci`,
// two builder workers), then used through the web origin only, as a browser does:
//   sign up and in; a RAG agent over a CSV configured through the wizard's API (OpenAI
//   embeddings and chat against the agent runtime's OpenAI-compatible test server, run here on
//   0.0.0.0 so the containers reach it); built by a worker, watched over Socket.IO; the zip
//   downloaded and its files checked; published, and asked through its API key (the gateway
//   forwards to the agent-runtime service); `restart gateway`, and everything found again;
//   agent-runtime stopped, and the published agent then refuses (so the answers came from it).
// Then the downloaded project itself: built from its own Dockerfile (python:3.11-slim) with its
// own compose file and the store it names, and asked over its Gradio API.
// `down -v` at the end, also on failure. Prints the time of each phase.
import { BUILD_EVENTS } from '@agentloom/contracts';
import { startLlmTestServer } from '@agentloom/agent-runtime/testing';
import {
  apiCall,
  BuildFeed,
  configureRagAgent,
  downloadZip,
  expectStatus,
  projectFiles,
  signUpAndLogIn,
  startBuild,
  waitForBuild,
} from '@agentloom/test-kit';
import { spawnSync } from 'node:child_process';
import { generatedAgent } from './generated-agent.mjs';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hostIp = process.argv[2];
if (!hostIp) throw new Error('usage: node flow.mjs <host address the containers reach>');

const PROJECT = 'agentloom-ci';
const port = (name, fallback) => process.env[name] ?? String(fallback);
const WEB_PORT = port('COMPOSE_CHECK_WEB_PORT', 28173);
const web = `http://127.0.0.1:${WEB_PORT}`;
const MARKER = 'Zephyr-4471';
const CSV = [
  'region,product,amount',
  `North,${MARKER} lantern,7342`,
  'South,Kettle,1200',
  'East,Compass,880',
  'West,Teapot,415',
].join('\n');
const QUESTION = `How much did North sell of the ${MARKER} lantern?`;

const phases = [];
let phaseStart = performance.now();
function phase(name) {
  const now = performance.now();
  if (phases.length > 0) phases.at(-1).seconds = (now - phaseStart) / 1000;
  phases.push({ name, seconds: 0 });
  phaseStart = now;
  console.log(`\n--- compose check: ${name}`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    stdio: options.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
  if (result.status !== 0 && !options.allowFailure) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  }
  return result.stdout ?? '';
}

// Only what the compose file reads: a setting of this shell (LOG_LEVEL, QUEUE_PREFIX…) must not
// leak into the containers, nor a .env in the checkout (--env-file below).
const llmPort = Number(port('COMPOSE_CHECK_LLM_PORT', 28090));
const composeEnv = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DOCKER_BUILDKIT: '0',
  COMPOSE_DOCKER_CLI_BUILD: '0',
  JWT_SECRET: randomBytes(48).toString('base64url'),
  VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
  RUNTIME_SHARED_SECRET: randomBytes(32).toString('hex'),
  S3_SECRET_ACCESS_KEY: randomBytes(16).toString('hex'),
  WEB_PORT,
  GATEWAY_PORT: port('COMPOSE_CHECK_GATEWAY_PORT', 28000),
  POSTGRES_PORT: port('COMPOSE_CHECK_POSTGRES_PORT', 28432),
  REDIS_PORT: port('COMPOSE_CHECK_REDIS_PORT', 28379),
  MINIO_CONSOLE_PORT: port('COMPOSE_CHECK_MINIO_CONSOLE_PORT', 28901),
  MAIL_SMTP_PORT: port('COMPOSE_CHECK_MAIL_SMTP_PORT', 28025),
  MAIL_WEB_PORT: port('COMPOSE_CHECK_MAIL_WEB_PORT', 28825),
  PUBLIC_URL: web,
  OPENAI_BASE_URL: `http://${hostIp}:${llmPort}/v1`,
};
const emptyEnvFile = path.join(mkdtempSync(path.join(tmpdir(), 'agentloom-compose-')), 'env');
writeFileSync(emptyEnvFile, '');
const composeArgs = [
  '-p',
  PROJECT,
  '-f',
  path.join(root, 'docker-compose.yml'),
  '-f',
  path.join(root, 'scripts/compose-check/docker-compose.ci.yml'),
  '--env-file',
  emptyEnvFile,
];
const compose = (args, options) =>
  run('docker-compose', [...composeArgs, ...args], { env: composeEnv, cwd: root, ...options });

/** Every container of a compose project: service, state, health and exit code. */
function containers(project) {
  const ids = run(
    'docker',
    ['ps', '-aq', '--filter', `label=com.docker.compose.project=${project}`],
    {
      capture: true,
    },
  )
    .split('\n')
    .filter(Boolean);
  if (ids.length === 0) return [];
  return JSON.parse(run('docker', ['inspect', ...ids], { capture: true })).map((c) => ({
    name: c.Name.slice(1),
    service: c.Config.Labels['com.docker.compose.service'],
    status: c.State.Status,
    health: c.State.Health?.Status,
    exitCode: c.State.ExitCode,
    ip: Object.values(c.NetworkSettings.Networks)[0]?.IPAddress,
  }));
}

/** Waits until every container is healthy (or running, without a check; or exited 0, a job). */
async function waitHealthy(project, expected, timeoutS = 300) {
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const all = containers(project);
    const broken = all.filter(
      (c) => c.health === 'unhealthy' || (c.status === 'exited' && c.exitCode !== 0),
    );
    if (broken.length > 0) throw new Error(`not healthy: ${JSON.stringify(broken)}`);
    const ready = all.filter((c) =>
      c.health ? c.health === 'healthy' : c.status === 'running' || c.status === 'exited',
    );
    if (all.length >= expected && ready.length === all.length) return all;
    if (Date.now() > deadline) {
      throw new Error(`not healthy after ${timeoutS} s: ${JSON.stringify(all)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

function check(condition, what) {
  if (!condition) throw new Error(`compose check failed: ${what}`);
  console.log(`  ok  ${what}`);
}

/** One question to a published agent through its API key (not streamed): the answer. */
async function askPublished(agentId, key) {
  return apiCall(web, `/agents/${agentId}/chat`, {
    headers: { authorization: `Bearer ${key}` },
    json: { message: QUESTION },
  });
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

async function startStack() {
  phase('docker-compose build');
  compose(['build']);
  phase('docker-compose up -d --scale builder-worker=2');
  compose(['up', '-d', '--scale', 'builder-worker=2']);
  // postgres, redis, mailpit, minio, minio-bucket, gateway, agent-runtime, 2 workers, web.
  const started = await waitHealthy(PROJECT, 10);
  const workers = started.filter((c) => c.service === 'builder-worker');
  check(workers.length === 2, `two builder workers healthy (${workers.map((w) => w.name)})`);
}

/** The agent's build started and watched over Socket.IO (through the web origin) to its end. */
async function buildWatched(user, sessionId) {
  const feed = await BuildFeed.connect(web, user.token, 30_000);
  try {
    const subscribed = await feed.subscribe(sessionId, 30_000);
    check(subscribed.ok === true, 'Socket.IO through the web origin: subscribed to the build');
    expectStatus(await startBuild(web, user, sessionId), 200, 'start build');
    await feed.waitFor(
      sessionId,
      (heard) =>
        heard.some((e) => e.event === BUILD_EVENTS.completed || e.event === BUILD_EVENTS.failed),
      300_000,
      'the build ending',
    );
    const events = feed.events(sessionId);
    check(
      events.some((e) => e.event === BUILD_EVENTS.completed),
      `the build completed, heard live (${events.length} events)`,
    );
  } finally {
    feed.close();
  }
  const build = await waitForBuild(web, user, sessionId, 10_000);
  check(build.status === 'Built', `GET /builds/${sessionId}: ${build.status}`);
}

/** Sign-up to the published agent's answer, through the web origin: what the restart must keep. */
async function useThroughWeb(llm) {
  phase('the flow through the web origin');
  const page = await fetch(`${web}/`);
  check(page.ok && (await page.text()).includes('<div id="root">'), `${web}/ serves the app`);
  const health = await apiCall(web, '/health');
  check(
    health.status === 200,
    `GET /health through the web origin: ${JSON.stringify(health.body)}`,
  );
  const user = await signUpAndLogIn(web, 'compose');
  check(Boolean(user.token), 'signed up and logged in (argon2 hashes and verifies in the image)');
  const sessionId = await configureRagAgent(web, user, {
    file: { name: 'orders.csv', content: CSV },
    embeddingModel: 'text-embedding-ada-002',
    vectorStore: { vector_db: 'chromadb', url: 'http://chromadb:8000' },
    ui: 'gradio',
  });
  check(Boolean(sessionId), `RAG agent ${sessionId} configured (CSV, OpenAI embeddings, Chroma)`);

  await buildWatched(user, sessionId);

  const download = await downloadZip(web, user, `/rag/builds/${sessionId}/download`);
  check(download.status === 200, `zip downloaded (${download.zip.length} bytes)`);
  const files = await projectFiles(download.zip);
  for (const file of [
    'Dockerfile',
    'docker-compose.yml',
    'agent.json',
    'requirements.lock',
    'app.py',
    '.env.example',
  ]) {
    check(files.includes(file), `the zip holds ${file}`);
  }

  const published = await fetch(`${web}/agents/${sessionId}/publication`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${user.token}` },
  });
  check(published.ok, `published (PUT /agents/${sessionId}/publication: ${published.status})`);
  const key = expectStatus(
    await apiCall(web, `/agents/${sessionId}/keys`, {
      token: user.token,
      json: { name: 'compose check' },
    }),
    201,
    'access key',
  ).body.secret;
  const asked = llm.requests.length;
  const answer = await askPublished(sessionId, key);
  check(
    answer.status === 200 && String(answer.body.answer).includes('7342'),
    `the published agent answers: ${JSON.stringify(answer.body.answer)}`,
  );
  check(
    llm.requests.slice(asked).some((r) => r.path === '/v1/embeddings'),
    'the question was embedded through the provider stand-in',
  );
  return { user, sessionId, key, zip: download.zip };
}

/** `restart gateway`, and everything found again; then the runtime stopped: who answered. */
async function restartAndFind({ user, sessionId, key, zip }) {
  phase('docker-compose restart gateway');
  compose(['restart', 'gateway']);
  await waitHealthy(PROJECT, 10);
  const again = expectStatus(
    await apiCall(web, '/auth/login', { json: { email: user.email, password: user.password } }),
    200,
    'login after the restart',
  );
  const token = again.body.access_token;
  const agents = await apiCall(web, '/pipelines', { token });
  check(JSON.stringify(agents.body).includes(sessionId), 'the agent is listed after the restart');
  const rebuilt = await waitForBuild(web, { token }, sessionId, 10_000);
  check(rebuilt.status === 'Built', 'its build is still Built');
  const second = await downloadZip(web, { token }, `/rag/builds/${sessionId}/download`);
  check(
    second.status === 200 && sha256(second.zip) === sha256(zip),
    'the same zip downloads from the object store',
  );
  const afterRestart = await askPublished(sessionId, key);
  check(
    afterRestart.status === 200 && String(afterRestart.body.answer).includes('7342'),
    'the published agent still answers',
  );

  compose(['stop', 'agent-runtime']);
  const withoutRuntime = await askPublished(sessionId, key);
  check(
    withoutRuntime.status === 503,
    `with agent-runtime stopped the published agent answers 503 (${JSON.stringify(withoutRuntime.body)}): its answers came from agent-runtime`,
  );
}

async function main() {
  const llm = await startLlmTestServer({ host: '0.0.0.0', port: llmPort });
  let failed = false;
  try {
    phase('clean start (down -v of an earlier run)');
    compose(['down', '-v', '--remove-orphans'], { allowFailure: true });
    await startStack();
    const used = await useThroughWeb(llm);
    await restartAndFind(used);
    await generatedAgent(used.zip, llm, {
      run,
      containers,
      check,
      phase,
      env: composeEnv,
      llmPort,
      question: QUESTION,
    });
  } catch (error) {
    failed = true;
    console.error(error);
    compose(['ps'], { allowFailure: true });
    compose(['logs', '--tail', '40'], { allowFailure: true });
  } finally {
    phase('docker-compose down -v');
    compose(['down', '-v', '--remove-orphans'], { allowFailure: true });
    phase('done');
    await llm.close();
  }
  console.log('\ncompose check, seconds per phase:');
  for (const { name, seconds } of phases.slice(0, -1)) {
    console.log(`  ${seconds.toFixed(0).padStart(5)}  ${name}`);
  }
  process.exit(failed ? 1 : 0);
}

main();
