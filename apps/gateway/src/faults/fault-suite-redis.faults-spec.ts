/**
 * The fault suite (see fault-suite.spec-helper.ts), Redis stalled or cut: reads keep answering
 * from Postgres, builds are refused in time, and one job is queued after recovery.
 */
import { buildPaths } from '@agentloom/contracts';
import { BuildQueue } from '../builds/build-queue';
import type { FaultProxy } from '@agentloom/data-sources/testing';
import { configureRagAgent, type TestUser } from '@agentloom/test-kit';
import type { TestApp } from '../testing/test-app';
import { FAULT_MS, Load, sleep, table, useFaultSuiteApp, waitFor } from './fault-suite.spec-helper';

describe('fault suite', () => {
  const { app, authReads, healthy, createPipeline, countNamed } = useFaultSuiteApp();
  let redisProxy: FaultProxy;
  let t: TestApp;
  let base: string;
  let user: TestUser;
  let csv: string;
  beforeAll(() => {
    ({ redisProxy, t, base, user, csv } = app);
  });

  const startBuild = (id: string) =>
    t.http.post(buildPaths.start('rag')).set(user.auth).type('form').send({ session_id: id });

  /** Redis stalled or cut: reads from Postgres, builds refused in time, one job after recovery. */
  async function redisScenario(name: string, fault: () => void) {
    const buildable = await configureRagAgent(t.url, user, { file: csv });
    const load = new Load(base, authReads());
    await sleep(300);
    fault();
    const during = `${name} ${Math.random()}`;

    const readStarted = Date.now();
    await t.http.get('/users/me').set(user.auth).expect(200);
    const readMs = Date.now() - readStarted;
    expect(readMs).toBeLessThan(1_000);

    const healthStarted = Date.now();
    const health = await t.http.get('/health').expect(503);
    const healthMs = Date.now() - healthStarted;
    expect(health.body.redis).toBe('down');
    expect(healthMs).toBeLessThan(t.config.HEALTH_TIMEOUT_MS + 500);

    const buildStarted = Date.now();
    const refused = await startBuild(buildable).expect(503);
    const buildMs = Date.now() - buildStarted;
    expect(buildMs).toBeLessThan(2_000);
    await createPipeline(during).expect(201);

    await sleep(FAULT_MS - (Date.now() - readStarted));
    const unaffected = await load.stop();
    // Reads never needed Redis: none of them may fail.
    expect(unaffected.failed).toBe(0);
    const healed = Date.now();
    redisProxy.heal();
    await waitFor(healthy, 10_000);
    await waitFor(() => t.redis.available, 10_000);
    const recoveryMs = Date.now() - healed;

    expect(await countNamed(during)).toBe(1);
    expect(await t.prisma.build.count({ where: { pipelineId: buildable } })).toBe(0);
    const started = await startBuild(buildable).expect(200);
    const job = await t.app.get(BuildQueue).job(started.body.build_id as string);
    expect(job?.data).toEqual({ buildId: started.body.build_id });
    expect(await t.prisma.build.count({ where: { pipelineId: buildable } })).toBe(1);

    table.push({
      scenario: name,
      unaffected: `reads (/users/me, /pipelines): ${unaffected.summary}`,
      outcome: `reads 200 in ${readMs} ms; build 503 in ${buildMs} ms "${String(refused.body.detail).slice(0, 40)}…"; /health 503 redis=down in ${healthMs} ms`,
      recovery: `${recoveryMs} ms, no restart`,
      data: 'pipeline made during fault: 1 row; refused build: 0 rows; build after: 1 row, 1 job',
    });
  }

  it('Redis stalled, then back', async () => {
    await redisScenario('Redis stalled', () => redisProxy.stall());
  });

  it('Redis cut (connections dropped and refused), then back', async () => {
    await redisScenario('Redis cut', () => redisProxy.cut({ refuse: true }));
  });
});
