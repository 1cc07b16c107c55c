import { buildPaths } from '@agentloom/contracts';
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BuildQueue } from '../builds/build-queue';
import { TEST_DATABASE_URL } from '../testing/test-env';
import { FaultProxy, startFaultProxy } from '@agentloom/data-sources/testing';
import { configureRagAgent, signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { createTestApp, type TestApp } from '../testing/test-app';

const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

/** Polls until `check` passes; how long it took, in ms. */
async function waitFor(check: () => boolean | Promise<boolean>, withinMs: number): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

describe('Redis stalled, cut and back (real Redis behind a fault proxy)', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  let user: TestUser;
  let fixtures: string;
  let csv: string;

  beforeAll(async () => {
    proxy = await startFaultProxy(Number(redisUrl.port || 6379), redisUrl.hostname);
    const url = new URL(redisUrl);
    url.port = String(proxy.port);
    t = await createTestApp({ REDIS_URL: url.toString() });
    user = await signUpAndLogIn(t.url, 'redisfault');
    fixtures = mkdtempSync(path.join(tmpdir(), 'redis-faults-'));
    csv = path.join(fixtures, 'sales.csv');
    await writeFile(csv, 'region,amount\nNorth,120\nSouth,80\n');
  });
  afterEach(() => proxy.heal());
  afterAll(async () => {
    await rm(fixtures, { recursive: true, force: true });
    await t.app.get(BuildQueue).obliterate();
    await t.close();
    await proxy.close();
  });

  const me = () => t.http.get('/users/me').set(user.auth);
  const healthy = async () => (await t.http.get('/health')).status === 200;

  it('stalled: reads answer within 1 s from Postgres, /health says down, builds 503 in 2 s', async () => {
    await me().expect(200); // warm the principal cache
    proxy.stall();
    for (let i = 0; i < 5; i += 1) {
      const started = Date.now();
      const res = await me().expect(200);
      expect(res.body.email).toBe(user.email);
      expect(Date.now() - started).toBeLessThan(1_000);
    }

    const started = Date.now();
    const health = await t.http.get('/health').expect(503);
    expect(health.body).toEqual({
      status: 'degraded',
      database: 'up',
      redis: 'down',
      mail: 'unknown',
    });
    expect(Date.now() - started).toBeLessThan(t.config.HEALTH_TIMEOUT_MS + 500);

    const id = await configureRagAgent(t.url, user, { file: csv });
    const building = Date.now();
    const build = await t.http
      .post(buildPaths.start('rag'))
      .set(user.auth)
      .type('form')
      .send({ session_id: id })
      .expect(503);
    expect(Date.now() - building).toBeLessThan(2_000);
    expect(build.body.detail).toMatch(/^The build service is unavailable right now/);
    expect(await t.prisma.build.count({ where: { pipelineId: id } })).toBe(0);
  });

  it('back after a stall: healthy again without a restart, the cache in use again', async () => {
    proxy.stall();
    await me().expect(200);
    proxy.heal();
    await waitFor(healthy, 5_000);
    await waitFor(() => t.redis.available, 5_000);
    await me().expect(200);
    const cached = await t.redis.client.keys(`agentloom:principal:${user.id}:v*`);
    expect(cached.length).toBeGreaterThan(0);
    // Builds work again too (BullMQ's queue object does not keep a failure from the stall).
    const id = await configureRagAgent(t.url, user, { file: csv });
    const build = await t.http
      .post(buildPaths.start('rag'))
      .set(user.auth)
      .type('form')
      .send({ session_id: id })
      .expect(200);
    expect((await t.app.get(BuildQueue).job(build.body.build_id as string))?.data).toEqual({
      buildId: build.body.build_id,
    });
  });

  it('a profile change made while Redis is away is not hidden by an old cached copy later', async () => {
    await me().expect(200);
    await me().expect(200); // cached now
    proxy.stall();
    await me().expect(200); // marks Redis away
    await t.http
      .put('/users/me')
      .set(user.auth)
      .field('full_name', 'Changed During Outage')
      .expect(200);
    proxy.heal();
    await waitFor(() => t.redis.available, 5_000);
    expect((await me().expect(200)).body.full_name).toBe('Changed During Outage');
  });

  it('cut and refused: reads still served, /health down at once, back by itself', async () => {
    proxy.cut({ refuse: true });
    const started = Date.now();
    expect((await me().expect(200)).body.email).toBe(user.email);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await t.http.get('/health').expect(503)).body.redis).toBe('down');
    proxy.heal();
    await waitFor(healthy, 10_000);
    await waitFor(() => t.redis.available, 5_000);
  });

  it('slow: /health reports slow but ready', async () => {
    // Each way: a round trip past HEALTH_SLOW_MS (250) and within the command timeout (500).
    proxy.delay(150);
    const res = await t.http.get('/health').expect(200);
    expect(res.body).toEqual({
      status: 'degraded',
      database: 'up',
      redis: 'slow',
      mail: 'unknown',
    });
  });
});

describe('Postgres stalled, connections killed and back (fault proxy)', () => {
  let proxy: FaultProxy;
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    const db = new URL(TEST_DATABASE_URL);
    proxy = await startFaultProxy(Number(db.port || 5432), db.hostname);
    db.port = String(proxy.port);
    t = await createTestApp({
      DATABASE_URL: db.toString(),
      DATABASE_POOL_TIMEOUT_MS: '500',
      DATABASE_STATEMENT_TIMEOUT_MS: '500',
    });
    user = await signUpAndLogIn(t.url, 'pgfault');
  });
  afterEach(() => proxy.heal());
  afterAll(async () => {
    await t.close();
    await proxy.close();
  });

  it('stalled: requests that need it answer 503 with a detail in bounded time; /health says down', async () => {
    proxy.stall();
    const started = Date.now();
    const res = await t.http.get('/pipelines').set(user.auth).expect(503);
    expect(res.body).toEqual({
      detail:
        'Agentloom cannot reach its database or cache right now. Please try again in a minute.',
    });
    // statement timeout + the client's margin, plus a pool wait at most
    expect(Date.now() - started).toBeLessThan(3_000);
    const health = await t.http.get('/health').expect(503);
    expect(health.body.database).toBe('down');
    proxy.heal();
    await waitFor(async () => (await t.http.get('/health')).status === 200, 5_000);
    await t.http.get('/pipelines').set(user.auth).expect(200);
  });

  it('connections killed: the next requests reconnect, nothing is duplicated', async () => {
    const name = `Kept ${Math.random()}`;
    await t.http.post('/pipelines').set(user.auth).send({ name, agent_type: 'rag' }).expect(201);
    proxy.cut();
    // A request that met a killed connection may answer 503; the ones after it must work.
    await waitFor(
      async () => (await t.http.get('/pipelines').set(user.auth)).status === 200,
      5_000,
    );
    const rows = await t.http.get('/pipelines').set(user.auth).expect(200);
    const named = (rows.body as { name: string }[]).filter((row) => row.name === name);
    expect(named).toHaveLength(1);
  });
});
