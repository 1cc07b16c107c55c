// The compose check's second part (flow.mjs runs it): the project a build produced, unzipped and
// run as its README says - its own image built from its Dockerfile (python:3.11-slim), its compose
// file with the vector store it names, .env from .env.example with the provider stand-in - and
// asked over its UI's HTTP API.
import { readZip, WIZARD_LLM_KEY } from '@agentloom/test-kit';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const AGENT_PROJECT = 'agentloom-ci-agent';

/** The generated project, unzipped, built from its Dockerfile and run with its compose file. */
export async function generatedAgent(zip, llm, context) {
  const { run, containers, check, phase, env: composeEnv, llmPort, question } = context;
  phase('the generated agent: unzip, docker-compose build');
  const dir = mkdtempSync(path.join(tmpdir(), 'agentloom-agent-'));
  let project;
  for (const [name, content] of await readZip(zip)) {
    if (name.endsWith('/')) continue;
    const target = path.join(dir, name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
    project ??= path.join(dir, name.split('/')[0]);
  }
  const manifest = JSON.parse(readFileSync(path.join(project, 'agent.json'), 'utf8'));
  // .env as its README says (cp .env.example .env, then the values); the model provider is the
  // stand-in on this machine, which the compose file maps as host.docker.internal.
  const env = readFileSync(path.join(project, '.env.example'), 'utf8')
    .replace(
      new RegExp(`^${manifest.llm.api_key_env}=.*$`, 'm'),
      `${manifest.llm.api_key_env}=${WIZARD_LLM_KEY}`,
    )
    .replace(/^LLM_BASE_URL=.*$/m, `LLM_BASE_URL=http://host.docker.internal:${llmPort}/v1`);
  check(env.includes(`LLM_BASE_URL=http://host.docker.internal`), '.env written from .env.example');
  writeFileSync(path.join(project, '.env'), env);
  writeFileSync(
    path.join(project, 'docker-compose.ci.yml'),
    'services:\n  agent:\n    build:\n      network: host\n',
  );
  const agentCompose = (args, options) =>
    run(
      'docker-compose',
      ['-p', AGENT_PROJECT, '-f', 'docker-compose.yml', '-f', 'docker-compose.ci.yml', ...args],
      { cwd: project, env: { ...composeEnv }, ...options },
    );
  try {
    agentCompose(['build']);
    phase('the generated agent: up, and a question over its Gradio API');
    agentCompose(['up', '-d']);
    const ui = `http://127.0.0.1:${manifest.ui.port}`;
    const deadline = Date.now() + 240_000;
    for (;;) {
      const up = await fetch(`${ui}/`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      const broken = containers(AGENT_PROJECT).filter((c) => c.status === 'exited');
      if (broken.length > 0 || Date.now() > deadline) {
        agentCompose(['logs', '--tail', '60'], { allowFailure: true });
        throw new Error(
          `the agent's UI did not come up: ${JSON.stringify(containers(AGENT_PROJECT))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const asked = llm.requests.length;
    const said = await askGradio(ui, question).catch((error) => {
      agentCompose(['logs', '--tail', '60', 'agent'], { allowFailure: true });
      throw error;
    });
    check(said.includes('7342'), `the generated agent answers over HTTP: ${JSON.stringify(said)}`);
    check(
      llm.requests.slice(asked).some((r) => r.path === '/v1/chat/completions'),
      'through the provider stand-in',
    );
  } finally {
    // The image stays: its pip layer is the next run's cache.
    agentCompose(['down', '-v'], { allowFailure: true });
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Gradio's HTTP API: /gradio_api/info names the chat's endpoint (Gradio 6 names it after the
 * function, /respond; it takes the message alone and keeps the history itself); POST
 * …/call/<name> queues the question, GET …/call/<name>/<id> streams the answer.
 */
async function askGradio(ui, message) {
  const info = await (await fetch(`${ui}/gradio_api/info`)).json();
  const name = Object.entries(info.named_endpoints).find(([, endpoint]) =>
    endpoint.parameters.some((p) => p.parameter_name === 'message'),
  )?.[0];
  if (!name) throw new Error(`no chat endpoint in Gradio's API: ${JSON.stringify(info)}`);
  const queued = await fetch(`${ui}/gradio_api/call${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: [message] }),
  });
  if (!queued.ok) {
    throw new Error(`Gradio refused the question: ${queued.status} ${await queued.text()}`);
  }
  const { event_id: eventId } = await queued.json();
  const stream = await (await fetch(`${ui}/gradio_api/call${name}/${eventId}`)).text();
  const complete = /event: complete\ndata: (.*)/.exec(stream);
  if (!complete) throw new Error(`Gradio's answer did not complete: ${stream.slice(0, 2000)}`);
  return JSON.stringify(JSON.parse(complete[1]));
}
