/**
 * The fault suite (see fault-suite.spec-helper.ts), Postgres stalled or its connections killed:
 * requests that need it answer 503 in time, the rest keep answering, and no row is lost.
 */
import type { FaultProxy } from '@agentloom/data-sources/testing';
import type { TestUser } from '@agentloom/test-kit';
import type { TestApp } from '../testing/test-app';
import { FAULT_MS, Load, sleep, table, useFaultSuiteApp, waitFor } from './fault-suite.spec-helper';

describe('fault suite', () => {
  const { app, authReads, healthy, createPipeline, countNamed } = useFaultSuiteApp();
  let pgProxy: FaultProxy;
  let t: TestApp;
  let base: string;
  let user: TestUser;
  beforeAll(() => {
    ({ pgProxy, t, base, user } = app);
  });

  const noDatabaseRoutes = [{ path: '/health/live' }, { path: '/p/_assets/common.js' }];

  it('Postgres stalled, then back', async () => {
    const before = `kept ${Math.random()}`;
    await createPipeline(before).expect(201);
    const load = new Load(base, noDatabaseRoutes);
    await sleep(300);
    pgProxy.stall();
    const during = `pg-stall ${Math.random()}`;

    const readStarted = Date.now();
    const read = await t.http.get('/pipelines').set(user.auth);
    const readMs = Date.now() - readStarted;
    expect(read.status).toBe(503);
    expect(read.body.detail).toMatch(/cannot reach its database/);
    // statement timeout (1 s) + the client's margin (1 s) + scheduling
    expect(readMs).toBeLessThan(4_000);
    const write = await createPipeline(during);
    expect(write.status).toBe(503);
    const health = await t.http.get('/health').expect(503);
    expect(health.body.database).toBe('down');

    await sleep(Math.max(0, FAULT_MS - (Date.now() - readStarted)));
    const unaffected = await load.stop();
    expect(unaffected.failed).toBe(0);
    const healed = Date.now();
    pgProxy.heal();
    await waitFor(healthy, 10_000);
    await waitFor(
      async () => (await t.http.get('/pipelines').set(user.auth)).status === 200,
      10_000,
    );
    const recoveryMs = Date.now() - healed;

    expect(await countNamed(before)).toBe(1);
    const landed = await countNamed(during);
    // The refused write was never delivered (its connection was discarded), so it did not land.
    expect(landed).toBe(0);
    table.push({
      scenario: 'Postgres stalled',
      unaffected: `/health/live, preview assets: ${unaffected.summary}`,
      outcome: `reads and writes 503 "cannot reach its database" in ${readMs} ms; /health database=down`,
      recovery: `${recoveryMs} ms, no restart`,
      data: `row made before: 1; refused write: ${landed} rows`,
    });
  });

  it('Postgres connections killed, then back', async () => {
    const before = `kept ${Math.random()}`;
    await createPipeline(before).expect(201);
    const load = new Load(base, authReads());
    await sleep(300);
    const killed = Date.now();
    pgProxy.cut();
    const recoveryMs = await waitFor(
      async () => (await t.http.get('/pipelines').set(user.auth)).status === 200,
      10_000,
    );
    await sleep(FAULT_MS);
    const unaffected = await load.stop();
    const after = `after-kill ${Math.random()}`;
    await createPipeline(after).expect(201);
    expect(await countNamed(before)).toBe(1);
    expect(await countNamed(after)).toBe(1);
    table.push({
      scenario: 'Postgres connections killed',
      unaffected: `reads: ${unaffected.summary}`,
      outcome: `requests on a killed connection 503 (${unaffected.failed}), the rest 200`,
      recovery: `${recoveryMs} ms after the kill (${Date.now() - killed} ms scenario)`,
      data: 'row made before: 1; row made after: 1',
    });
  });
});
