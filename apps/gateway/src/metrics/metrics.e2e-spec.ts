import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { configureRagAgent, signUpAndLogIn, type TestUser } from '@agentloom/test-kit';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csvChunks, markBuilt } from '../testing/built-agents';
import { createTestApp, type TestApp } from '../testing/test-app';
import { METRICS_ON_OWN_PORT } from './metrics.controller';

const HEADER = ['region', 'product', 'units'];
const ROWS = [
  ['Porto', 'Lantern kits', '1204'],
  ['Lisbon', 'Quokka umbrellas', '7342'],
];

/** One sample's value in Prometheus text, 0 when the series does not exist yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('GET /metrics', () => {
  let llm: LlmTestServer;
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    llm = await startLlmTestServer();
    t = await createTestApp({ OPENAI_BASE_URL: llm.baseUrls.openai ?? '' });
    alice = await signUpAndLogIn(t.url, 'metrics');
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  const scrape = async () => {
    const res = await t.http.get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    return res.text;
  };

  it('answers Prometheus text: the event loop, requests by route, the build queue', async () => {
    await t.http.get('/health/live').expect(200);
    const text = await scrape();
    expect(text).toContain('# TYPE nodejs_eventloop_lag_p99_seconds gauge');
    expect(text).toContain('# TYPE agentloom_http_request_duration_seconds histogram');
    expect(
      sample(
        text,
        'agentloom_http_request_duration_seconds_count{method="GET",route="/health/live",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^agentloom_build_queue_jobs\{state="waiting"\} \d+$/m);
  });

  it('counts a published answer for its agent, and the provider calls behind it', async () => {
    const fixtures = mkdtempSync(path.join(tmpdir(), 'metrics-'));
    const csv = path.join(fixtures, 'sales.csv');
    writeFileSync(csv, [HEADER, ...ROWS].map((row) => row.join(',')).join('\n') + '\n');
    const id = await configureRagAgent(t.url, alice, { file: csv });
    await markBuilt(
      t.prisma,
      t.config.DATA_DIR,
      { id, userId: alice.id, type: 'rag' },
      csvChunks('sales.csv', HEADER, ROWS),
      t.config,
    );
    await t.http.put(`/agents/${id}/publication`).set(alice.auth).expect(200);
    const key = await t.http
      .post(`/agents/${id}/keys`)
      .set(alice.auth)
      .send({ name: 'metrics' })
      .expect(201);

    const answered = `agentloom_published_answers_total{agent="${id}",outcome="answered"}`;
    const chat =
      'agentloom_provider_call_duration_seconds_count{kind="chat",provider="openai",outcome="ok"}';
    const route =
      'agentloom_http_request_duration_seconds_count{method="POST",route="/agents/:id/chat",status="200"}';
    const before = await scrape();
    expect(sample(before, answered)).toBe(0);

    const answer = await t.http
      .post(`/agents/${id}/chat`)
      .set('authorization', `Bearer ${key.body.secret as string}`)
      .send({ message: 'How many Quokka umbrellas were sold in Lisbon?' })
      .expect(200);
    expect(answer.body.answer).toMatch(/7342/);

    const after = await scrape();
    expect(sample(after, answered)).toBe(1);
    expect(sample(after, chat)).toBe(sample(before, chat) + 1);
    expect(sample(after, route)).toBe(sample(before, route) + 1);
    // The route pattern is the label, never the agent's id.
    expect(after).not.toContain(`route="/agents/${id}/chat"`);
  });
});

describe('GET /metrics with a token and a port of its own', () => {
  let t: TestApp;
  let port: number;
  const token = 'metrics-token-for-the-tests-0123';

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp({
      METRICS_TOKEN: token,
      METRICS_PORT: String(port),
      METRICS_HOST: '127.0.0.1',
    });
  });
  afterAll(() => t.close());

  it('is not on the API port, and on its own port only for the token', async () => {
    const api = await t.http.get('/metrics').expect(404);
    expect(api.body).toEqual({ detail: METRICS_ON_OWN_PORT });

    const url = `http://127.0.0.1:${port}/metrics`;
    const refused = await fetch(url);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/METRICS_TOKEN/);
    const served = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('agentloom_http_request_duration_seconds');
  });
});
