// The swarm check's means (flow.mjs uses them): its phases and checks, the Docker engines of the
// two nodes, the swarm's services and tasks, and each task's own Prometheus metrics read inside
// its container (port 9464, with the stack's metrics token).
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const STACK = process.env.SWARM_STACK ?? 'agentloom';
export const NODES = {
  n1: { name: 'agentloom-n1', address: '198.18.77.1', host: process.env.SWARM_N1_HOST },
  n2: { name: 'agentloom-n2', address: '198.18.77.2', host: process.env.SWARM_N2_HOST },
};

// ---- phases, checks, processes ------------------------------------------------------------------

let phaseName;
let phaseStart = performance.now();
export function endPhase() {
  if (!phaseName) return;
  const seconds = (performance.now() - phaseStart) / 1000;
  if (process.env.SWARM_CHECK_TIMES) {
    appendFileSync(process.env.SWARM_CHECK_TIMES, `${seconds.toFixed(1)}\t${phaseName}\n`);
  }
  phaseName = undefined;
}
export function phase(name) {
  endPhase();
  phaseName = name;
  phaseStart = performance.now();
  console.log(`\n--- swarm check: ${name}`);
}

export function check(condition, what) {
  if (!condition) throw new Error(`swarm check failed: ${what}`);
  console.log(`  ok  ${what}`);
}

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0 && !options.allowFailure) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  return result.stdout ?? '';
}

export const docker = (node, args, options) =>
  run('docker', ['-H', NODES[node].host, ...args], options);
export const manager = (args, options) => docker('n1', args, options);
export const engines = (...args) => run('bash', [path.join(here, 'engines.sh'), ...args]);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(what, timeoutS, probe) {
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`swarm check failed: ${what} within ${timeoutS} s`);
    await sleep(1000);
  }
}

// ---- the swarm ------------------------------------------------------------------------------------

/** Running tasks of a service: [{task, node}]. */
export function tasks(service) {
  return manager([
    'service',
    'ps',
    `${STACK}_${service}`,
    '--filter',
    'desired-state=running',
    '--format',
    '{{.Name}}\t{{.Node}}\t{{.CurrentState}}',
  ])
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'))
    .filter(([, , state]) => state.startsWith('Running'))
    .map(([task, node]) => ({ task, node }));
}

/** Every service with all its tasks running (healthy, where it has a check); a job completed. */
export function converged() {
  const services = manager(['service', 'ls', '--format', '{{json .}}'])
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const pending = services.filter(({ Replicas }) => {
    const job = /\((\d+)\/(\d+) completed\)/.exec(Replicas);
    if (job) return job[1] !== job[2];
    const [running, wanted] = Replicas.split('/').map(Number);
    return running !== wanted || wanted === 0;
  });
  return pending.length === 0 ? services : null;
}

export function nodeStatus(name) {
  return manager([
    'node',
    'inspect',
    name,
    '--format',
    '{{.Status.State}} {{.Spec.Availability}}',
  ]).trim();
}

/** Container ids of a service's tasks on one node's engine. */
export function containersOn(node, service) {
  return docker(node, [
    'ps',
    '-q',
    '--filter',
    `label=com.docker.swarm.service.name=${STACK}_${service}`,
  ])
    .trim()
    .split('\n')
    .filter(Boolean);
}

/** A task's Prometheus metrics, read inside its container (port 9464, the metrics token). */
export function metricsOf(node, container) {
  const script =
    "const t=require('fs').readFileSync('/run/secrets/metrics_token','utf8').trim();" +
    "fetch('http://127.0.0.1:9464/metrics',{headers:{authorization:'Bearer '+t}})" +
    '.then(r=>r.text()).then(s=>process.stdout.write(s),e=>{console.error(e.message);process.exit(1)})';
  return docker(node, ['exec', container, 'node', '-e', script]);
}

export function sample(text, series) {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/**
 * One number of every running task of a service, by node: [{node, container, value}]. A task
 * that has just started may not serve its metrics yet: asked again for up to 30 s.
 */
export async function perTask(service, series, nodes = ['n1', 'n2']) {
  const values = [];
  for (const node of nodes) {
    for (const container of containersOn(node, service)) {
      let text;
      for (let tries = 0; text === undefined; tries += 1) {
        try {
          text = metricsOf(node, container);
        } catch (error) {
          if (tries >= 30) throw error;
          await sleep(1000);
        }
      }
      values.push({
        node: NODES[node].name,
        container: container.slice(0, 12),
        value: sample(text, series),
      });
    }
  }
  return values;
}

export const answeredSeries = (agentId) =>
  `agentloom_published_answers_total{agent="${agentId}",outcome="answered"}`;
export const RUNTIME_ANSWERS =
  'agentloom_http_request_duration_seconds_count{method="POST",route="/internal/answers",status="200"}';
