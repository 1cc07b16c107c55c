// The container healthcheck (Dockerfile HEALTHCHECK): exit 0 when the worker's health file is
// fresh and every check in it passed, else print why and exit 1.
import { readFileSync } from 'node:fs';
import { judgeHealth, type WorkerHealth } from './health/worker-health';

const file = process.env.WORKER_HEALTH_FILE || '/tmp/agentloom-worker-health.json';
const intervalMs = Number(process.env.WORKER_HEALTH_INTERVAL_MS) || 10_000;

let health: WorkerHealth | null = null;
try {
  health = JSON.parse(readFileSync(file, 'utf8')) as WorkerHealth;
} catch {
  // no file (not started yet, or stopped): judged below
}
const problem = judgeHealth(health, intervalMs);
if (problem) {
  console.error(`builder-worker unhealthy: ${problem}`);
  process.exit(1);
}
