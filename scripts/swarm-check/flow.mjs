// The swarm check's driver (run.sh deploys the stack, then runs this): the product on a swarm of
// two Docker engines, used through the web origin only, as browsers behind a load balancer do
// (the web service answers on both nodes; calls take the two origins in turn):
//   the stack spread over both nodes (docker service ps); sign up; a RAG agent configured,
//   built by a worker of either node, published and asked, with answers coming from the
//   gateways of both nodes (each gateway's own metrics count them);
//   the engine of agentloom-n2 killed outright: published answers keep coming from agentloom-n1;
//   the engine restarted, the node back, the workers spread again;
//   a build held in its embeddings stage on a worker of agentloom-n2, the node drained under it:
//   the worker is killed and the build runs again, to the end, on agentloom-n1 (BullMQ).
// Each phase's time is appended to $SWARM_CHECK_TIMES for run.sh's summary.
import {
  apiCall,
  configureRagAgent,
  expectStatus,
  signUpAndLogIn,
  startBuild,
  waitForBuild,
} from '@agentloom/test-kit';
import {
  answeredSeries,
  check,
  containersOn,
  converged,
  endPhase,
  engines,
  manager,
  NODES,
  nodeStatus,
  perTask,
  phase,
  RUNTIME_ANSWERS,
  sleep,
  STACK,
  tasks,
  until,
} from './swarm.mjs';

const WEB_PORT = process.env.SWARM_WEB_PORT ?? '28173';
const LLM_PORT = process.env.SWARM_LLM_PORT ?? '28090';
const web = (node) => `http://${NODES[node].address}:${WEB_PORT}`;
/** The data node, which also runs the provider stand-in (its control port). */
const llm = `http://${NODES.n1.address}:${LLM_PORT}`;
const MARKER = 'Zephyr-4471';
const CSV = [
  'region,product,amount',
  `North,${MARKER} lantern,7342`,
  'South,Kettle,1200',
  'East,Compass,880',
  'West,Teapot,415',
].join('\n');
const QUESTION = `How much did North sell of the ${MARKER} lantern?`;

// ---- the product ----------------------------------------------------------------------------------

const origins = [web('n1'), web('n2')];
let turn = 0;
const nextOrigin = () => origins[turn++ % origins.length];

async function ask(origin, agentId, key) {
  const started = performance.now();
  const answer = await apiCall(origin, `/agents/${agentId}/chat`, {
    headers: { authorization: `Bearer ${key}` },
    json: { message: QUESTION },
  });
  return { ...answer, seconds: (performance.now() - started) / 1000 };
}

async function builtAgent(user, name) {
  const sessionId = await configureRagAgent(origins, user, {
    name,
    file: { name: 'orders.csv', content: CSV },
    embeddingModel: 'text-embedding-ada-002',
    vectorStore: { vector_db: 'chromadb', url: 'http://chromadb:8000' },
    ui: 'gradio',
  });
  expectStatus(await startBuild(origins, user, sessionId), 200, 'start build');
  return sessionId;
}

function showSpread() {
  console.log(
    manager([
      'service',
      'ps',
      '--filter',
      'desired-state=running',
      '--format',
      'table {{.Name}}\t{{.Node}}\t{{.CurrentState}}',
      ...[
        'gateway',
        'agent-runtime',
        'builder-worker',
        'web',
        'postgres',
        'redis',
        'minio',
        'llm',
      ].map((s) => `${STACK}_${s}`),
    ]),
  );
}

async function spreadAndOrigin() {
  phase('the stack spread over both nodes (docker service ps)');
  showSpread();
  for (const service of ['gateway', 'agent-runtime', 'builder-worker', 'web']) {
    const nodes = new Set(tasks(service).map((task) => task.node));
    check(
      nodes.has(NODES.n1.name) && nodes.has(NODES.n2.name),
      `${service}: tasks on ${[...nodes].sort().join(' and ')}`,
    );
  }
  for (const service of ['postgres', 'redis', 'minio']) {
    const nodes = tasks(service).map((task) => task.node);
    check(nodes.length === 1 && nodes[0] === NODES.n1.name, `${service} on the data node ${nodes}`);
  }
  for (const origin of origins) {
    const page = await fetch(`${origin}/`);
    check(page.ok && (await page.text()).includes('<div id="root">'), `${origin}/ serves the app`);
    const health = await apiCall(origin, '/health');
    check(health.status === 200, `GET ${origin}/health: ${JSON.stringify(health.body)}`);
    const metrics = await fetch(`${origin}/metrics`);
    check(
      metrics.status === 404,
      `GET ${origin}/metrics: ${metrics.status}, not served by the web origin`,
    );
  }
}

async function buildPublishAsk() {
  phase('sign up, build on a worker, publish, answer from both gateways');
  const user = await signUpAndLogIn(origins, 'swarm');
  check(Boolean(user.token), 'signed up and logged in through the web origins');
  const builtBefore = await perTask(
    'builder-worker',
    'agentloom_build_duration_seconds_count{outcome="built"}',
  );
  const sessionId = await builtAgent(user, `Swarm orders ${Date.now()}`);
  const build = await waitForBuild(origins, user, sessionId, 180_000);
  check(build.status === 'Built', `GET /builds/${sessionId}: ${build.status}`);
  const builtAfter = await perTask(
    'builder-worker',
    'agentloom_build_duration_seconds_count{outcome="built"}',
  );
  const builder = builtAfter.find(
    (worker) =>
      worker.value > (builtBefore.find((w) => w.container === worker.container)?.value ?? 0),
  );
  check(Boolean(builder), `built by the worker ${builder?.container} on ${builder?.node}`);

  const published = await fetch(`${origins[0]}/agents/${sessionId}/publication`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${user.token}` },
  });
  check(published.ok, `published (PUT /agents/${sessionId}/publication: ${published.status})`);
  const key = expectStatus(
    await apiCall(origins[1], `/agents/${sessionId}/keys`, {
      token: user.token,
      json: { name: 'swarm check' },
    }),
    201,
    'access key',
  ).body.secret;
  const before = await perTask('gateway', answeredSeries(sessionId));
  const runtimeBefore = await perTask('agent-runtime', RUNTIME_ANSWERS);
  const QUESTIONS = 8;
  for (let i = 0; i < QUESTIONS; i += 1) {
    const answer = await ask(nextOrigin(), sessionId, key);
    if (answer.status !== 200 || !String(answer.body.answer).includes('7342')) {
      throw new Error(
        `swarm check failed: answer ${i + 1}: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
  }
  check(true, `${QUESTIONS} questions answered through both web origins, each quoting 7342`);
  const after = await perTask('gateway', answeredSeries(sessionId));
  for (const gateway of after) {
    const answered =
      gateway.value - (before.find((g) => g.container === gateway.container)?.value ?? 0);
    check(answered > 0, `the gateway ${gateway.container} on ${gateway.node} answered ${answered}`);
  }
  const runtimes = await perTask('agent-runtime', RUNTIME_ANSWERS);
  for (const runtime of runtimes) {
    const answered =
      runtime.value - (runtimeBefore.find((r) => r.container === runtime.container)?.value ?? 0);
    check(
      answered > 0,
      `the runtime replica ${runtime.container} on ${runtime.node} answered ${answered}`,
    );
  }
  return { user, sessionId, key };
}

async function killAnEngine({ sessionId, key }) {
  phase('kill the engine of agentloom-n2: answers keep coming from agentloom-n1');
  const survivors = await perTask('gateway', answeredSeries(sessionId), ['n1']);
  check(
    survivors.length > 0,
    `a gateway runs on agentloom-n1 (${survivors.map((g) => g.container)})`,
  );
  const killedAt = performance.now();
  engines('kill', 'n2');
  check(true, 'every process of the engine agentloom-n2 killed (dockerd, containerd, containers)');
  let asked = 0;
  const slowest = [];
  const askSome = async (count) => {
    for (let i = 0; i < count; i += 1) {
      const answer = await ask(web('n1'), sessionId, key);
      asked += 1;
      slowest.push(answer.seconds);
      if (answer.status !== 200 || !String(answer.body.answer).includes('7342')) {
        throw new Error(
          `swarm check failed: answer after the kill: ${answer.status} ${JSON.stringify(answer.body)}`,
        );
      }
    }
  };
  await askSome(6);
  check(
    true,
    `6 answers right after the kill, the slowest in ${Math.max(...slowest).toFixed(2)} s`,
  );
  await until('agentloom-n2 marked down', 60, () => nodeStatus(NODES.n2.name).startsWith('down'));
  const downAfter = (performance.now() - killedAt) / 1000;
  check(true, `the manager marked agentloom-n2 down ${downAfter.toFixed(1)} s after the kill`);
  await askSome(4);
  const after = await perTask('gateway', answeredSeries(sessionId), ['n1']);
  const answered = after.reduce(
    (sum, g) => sum + g.value - (survivors.find((s) => s.container === g.container)?.value ?? 0),
    0,
  );
  check(
    answered === asked,
    `all ${asked} answers came from agentloom-n1's gateways (${answered} counted there)`,
  );
}

async function restartEngine() {
  phase('restart the engine of agentloom-n2; workers placed on it again');
  engines('start', 'n2');
  await until('agentloom-n2 ready', 60, () => nodeStatus(NODES.n2.name).startsWith('ready'));
  check(true, 'agentloom-n2 is back: ready');
  await until('every service converged', 240, converged);
  // Swarm does not move running tasks back by itself: a rolling restart of the workers lets the
  // scheduler spread them again (it places a new task where the service has the fewest).
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    manager(['service', 'update', '--force', '--detach=true', `${STACK}_builder-worker`]);
    await until('the workers updated', 180, () => {
      const state = manager([
        'service',
        'inspect',
        `${STACK}_builder-worker`,
        '--format',
        '{{if .UpdateStatus}}{{.UpdateStatus.State}}{{end}}',
      ]).trim();
      return (state === 'completed' || state === '') && converged();
    });
    const nodes = new Set(tasks('builder-worker').map((task) => task.node));
    if (nodes.has(NODES.n2.name)) break;
  }
  const placed = tasks('builder-worker').map((task) => task.node);
  check(placed.includes(NODES.n2.name), `builder workers on ${placed.join(', ')}`);
}

const llmControl = async (action) => {
  const response = await fetch(`${llm}/_swarm/${action}`, {
    method: action === 'state' ? 'GET' : 'POST',
  });
  return response.json();
};

const BUILT = 'agentloom_build_duration_seconds_count{outcome="built"}';

async function drainUnderABuild({ user }) {
  phase('drain agentloom-n2 under a running build: the build finishes on agentloom-n1');
  await llmControl('hold');
  const held = [];
  let onN2;
  let builtBefore = [];
  try {
    // Builds until one is held on a worker of agentloom-n2 (each worker runs one at a time).
    for (let attempt = 1; attempt <= 3 && !onN2; attempt += 1) {
      const sessionId = await builtAgent(user, `Swarm drain ${attempt} ${Date.now()}`);
      held.push(sessionId);
      await until(
        `build ${attempt} held in its embeddings stage`,
        120,
        async () => (await llmControl('state')).held >= held.length,
      );
      await sleep(500);
      const running = await perTask('builder-worker', 'agentloom_builds_in_progress');
      onN2 = running.find((worker) => worker.node === NODES.n2.name && worker.value > 0);
      check(
        true,
        `build ${attempt} (${sessionId}) held; running builds: ${running.map((w) => `${w.node} ${w.container}: ${w.value}`).join(', ')}`,
      );
    }
    check(Boolean(onN2), `a build is held on the worker ${onN2?.container} on agentloom-n2`);
    builtBefore = await perTask('builder-worker', BUILT, ['n1']);
    const drainedAt = performance.now();
    manager(['node', 'update', '--availability', 'drain', NODES.n2.name]);
    await until(
      'agentloom-n2 without a worker',
      60,
      () => containersOn('n2', 'builder-worker').length === 0,
    );
    check(
      true,
      `agentloom-n2 drained: its worker stopped ${((performance.now() - drainedAt) / 1000).toFixed(1)} s later (mid-build)`,
    );
  } finally {
    await llmControl('release');
  }
  for (const sessionId of held) {
    const build = await waitForBuild(web('n1'), user, sessionId, 180_000);
    check(
      build.status === 'Built',
      `the held build ${sessionId}: ${build.status}${build.error ? ` (${build.error})` : ''}`,
    );
  }
  const builtAfter = await perTask('builder-worker', BUILT, ['n1']);
  const finished = builtAfter.reduce(
    (sum, w) => sum + w.value - (builtBefore.find((b) => b.container === w.container)?.value ?? 0),
    0,
  );
  check(
    finished >= 1,
    `the build held on agentloom-n2 (${held.at(-1)}) ran again on agentloom-n1 to the end (${finished} built there since the drain)`,
  );
  manager(['node', 'update', '--availability', 'active', NODES.n2.name]);
}

async function main() {
  let failed = false;
  try {
    await spreadAndOrigin();
    const used = await buildPublishAsk();
    await killAnEngine(used);
    await restartEngine();
    await drainUnderABuild(used);
  } catch (error) {
    failed = true;
    console.error(error);
    console.log(
      manager(
        [
          'service',
          'ps',
          '--no-trunc',
          '--format',
          '{{.Name}} {{.Node}} {{.CurrentState}} {{.Error}}',
          ...[
            'gateway',
            'agent-runtime',
            'builder-worker',
            'web',
            'postgres',
            'redis',
            'minio',
            'minio-bucket',
            'llm',
          ].map((s) => `${STACK}_${s}`),
        ],
        { allowFailure: true },
      ),
    );
  } finally {
    endPhase();
  }
  process.exit(failed ? 1 : 0);
}

main();
