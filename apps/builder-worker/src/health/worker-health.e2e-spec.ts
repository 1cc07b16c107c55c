import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { testWorkerConfig } from '../testing/build-fixtures';
import { REPO_ROOT } from '../testing/app-process';
import { RedisServer } from '../testing/redis-server';
import { startWorkerProcess } from '../testing/worker-process';

const WAIT_MS = 30_000;

/** Runs the built healthcheck exactly as the Dockerfile's HEALTHCHECK does. */
function healthcheck(env: Record<string, string>): { code: number | null; stderr: string } {
  const result = spawnSync(
    process.execPath,
    [path.join(REPO_ROOT, 'apps/builder-worker/dist/health-check.js')],
    { env: { ...process.env, ...env }, encoding: 'utf8' },
  );
  return { code: result.status, stderr: result.stderr };
}

async function until(check: () => boolean, withinMs: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the worker health file and its container healthcheck (built worker)', () => {
  it('healthy while Postgres and Redis answer; unhealthy when Redis stops, healthy again when it is back; gone on shutdown', async () => {
    const redis = await RedisServer.start();
    const config = testWorkerConfig({ REDIS_URL: redis.url, WORKER_HEALTH_INTERVAL_MS: '500' });
    const env = {
      WORKER_HEALTH_FILE: config.WORKER_HEALTH_FILE,
      WORKER_HEALTH_INTERVAL_MS: '500',
    };
    const worker = await startWorkerProcess(config, WAIT_MS);
    try {
      await until(() => healthcheck(env).code === 0, 5_000);

      await redis.stop();
      await until(() => healthcheck(env).code === 1, 10_000);
      expect(healthcheck(env).stderr).toContain('builder-worker unhealthy: Redis does not answer');

      await redis.start();
      await until(() => healthcheck(env).code === 0, 15_000);

      worker.signal('SIGTERM');
      await worker.exited;
      expect(existsSync(config.WORKER_HEALTH_FILE)).toBe(false);
      expect(healthcheck(env).stderr).toContain('no health file yet');
    } finally {
      await worker.kill();
      await redis.remove();
      await rm(config.DATA_DIR, { recursive: true, force: true });
    }
  });
});
