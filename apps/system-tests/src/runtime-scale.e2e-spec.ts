import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import type { PrismaClient } from '@agentloom/db';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import {
  apiCall,
  configureRagAgent,
  freshDatabase,
  signUpAndLogIn,
  startBuild,
  type ApiAnswer,
} from '@agentloom/test-kit';
import {
  AppProcess,
  assertBuilt,
  startWorkerProcess,
  testPrisma,
  testWorkerConfig,
  type WorkerConfig,
} from './testing/builder-worker';
import { startGatewayReplica, type GatewayReplica } from './testing/gateway-replica';
import { startRuntimeReplica, type RuntimeReplica } from './testing/runtime-replica';
import { SYSTEM_DATABASE_URL } from './testing/system-database';

/**
 * Issue 20, "Scale": answers for a published agent run on two agent runtime replicas (built
 * processes, `npm run start:runtime`), not in the gateway. One gateway (PUBLISHED_RUNTIME_URLS
 * naming both replicas), one worker that builds the agent, one Postgres and Redis. The gateway
 * has no way to reach the model provider (no OPENAI_BASE_URL; the machine has no internet), so
 * every answer that arrives was written on a replica; each replica's /health counts its answers.
 * Then one replica is SIGKILLed and the answers keep coming from the other.
 */

const WAIT_MS = 60_000;
/** A database of its own (next to the other scale test's), so neither resets the other's. */
const DATABASE_URL = (() => {
  const url = new URL(SYSTEM_DATABASE_URL);
  url.pathname = `${url.pathname}_runtime`;
  return url.toString();
})();
/** New conversations asked at most while waiting for both replicas to have answered. */
const MAX_SPREAD_QUESTIONS = 40;
const CSV = 'region,product,amount\nNorth,Quokka umbrellas,7342\nSouth,Tide clocks,518\n';

jest.setTimeout(180_000);

describe('Scale: two agent runtime replicas answer for one published agent (built processes)', () => {
  let config: WorkerConfig;
  let prisma: PrismaClient;
  let llm: LlmTestServer;
  let gateway: GatewayReplica;
  let replicas: [RuntimeReplica, RuntimeReplica];
  const secret = randomBytes(32).toString('base64url');
  const apps: AppProcess[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];
  const outputs = () => apps.map((app) => `--- ${app.name}:\n${app.output}`).join('\n');

  beforeAll(async () => {
    assertBuilt('builder-worker');
    assertBuilt('gateway');
    await freshDatabase(DATABASE_URL);
    config = testWorkerConfig({
      DATABASE_URL,
      QUEUE_PREFIX: `agentloom-runtime-scale-${process.pid}-${randomBytes(3).toString('hex')}`,
      VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
    });
    cleanups.push(() => rm(config.DATA_DIR, { recursive: true, force: true }));
    prisma = testPrisma(config);
    cleanups.push(() => prisma.$disconnect());
    llm = await startLlmTestServer();
    cleanups.push(() => llm.close());

    const started = await Promise.all(
      ['runtime 1', 'runtime 2'].map((name) =>
        startRuntimeReplica(config, {
          name,
          secret,
          env: { OPENAI_BASE_URL: llm.baseUrls.openai ?? '' },
          timeoutMs: WAIT_MS,
        }),
      ),
    );
    replicas = started as [RuntimeReplica, RuntimeReplica];
    for (const replica of replicas) track(replica.app);
    gateway = await startGatewayReplica(config, {
      name: 'gateway',
      jwtSecret: randomBytes(48).toString('base64url'),
      timeoutMs: WAIT_MS,
      env: {
        PUBLISHED_RUNTIME_URLS: replicas.map((replica) => replica.url).join(','),
        RUNTIME_SHARED_SECRET: secret,
      },
    });
    track(gateway.app);
    track(await startWorkerProcess(config, WAIT_MS));
  });

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  function track(app: AppProcess): void {
    apps.push(app);
    cleanups.push(() => app.kill());
  }

  /** A RAG agent over CSV, built by the worker, published, with an access key. */
  async function publishedAgent(): Promise<{ id: string; key: string; token: string }> {
    const user = await signUpAndLogIn(gateway.url, 'scale');
    const { token } = user;
    const id = await configureRagAgent(gateway.url, user, {
      name: 'Runtime scale',
      file: { name: 'sales.csv', content: CSV },
    });
    expect((await startBuild(gateway.url, user, id)).status).toBe(200);
    const deadline = Date.now() + WAIT_MS;
    while ((await prisma.pipeline.findUniqueOrThrow({ where: { id } })).status !== 'Built') {
      if (Date.now() > deadline) throw new Error(`Agent ${id} not built.\n${outputs()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const published = await fetch(`${gateway.url}/agents/${id}/publication`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(published.status).toBe(200);
    const key = await apiCall(gateway.url, `/agents/${id}/keys`, {
      token,
      json: { name: 'scale', rate_limit_per_minute: 1000 },
    });
    expect(key.status).toBe(201);
    return { id, key: key.body.secret as string, token };
  }

  const ask = (id: string, key: string, conversationId?: string): Promise<ApiAnswer> =>
    apiCall(gateway.url, `/agents/${id}/chat`, {
      token: key,
      json: { message: 'Which product sold 7342?', conversation_id: conversationId },
    });

  /** The answer the agent gives from its CSV (the stand-in provider quotes passage [1]). */
  function expectAnswered(reply: ApiAnswer): string {
    if (reply.status !== 200) throw new Error(`${JSON.stringify(reply.body)}\n${outputs()}`);
    expect(reply.body.answer).toMatch(/^According to \[1\]: [\s\S]*Quokka umbrellas/);
    return reply.body.conversation_id as string;
  }

  const counts = () => Promise.all(replicas.map((replica) => replica.answers()));

  it('spreads conversations over both replicas, keeps a conversation on its replica, and answers on after one is killed', async () => {
    const { id, key, token } = await publishedAgent();
    expect(await counts()).toEqual([0, 0]);

    // New conversations hash to either replica: ask until both have answered.
    const conversations: string[] = [];
    let [first, second] = await counts();
    while (!(first! > 0 && second! > 0) && conversations.length < MAX_SPREAD_QUESTIONS) {
      conversations.push(expectAnswered(await ask(id, key)));
      [first, second] = await counts();
    }
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
    // Each answer was written once, on one replica.
    expect(first! + second!).toBe(conversations.length);

    // A conversation's follow-ups stay on the replica that holds its agent.
    const before = await counts();
    for (let turn = 0; turn < 2; turn += 1) {
      expect(expectAnswered(await ask(id, key, conversations[0]))).toBe(conversations[0]);
    }
    const after = await counts();
    expect([after[0]! - before[0]!, after[1]! - before[1]!].sort()).toEqual([0, 2]);

    // One replica dies; every question, new or continuing, is answered by the other.
    const [killed, survivor] = replicas;
    killed.app.signal('SIGKILL');
    expect(await killed.app.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const survivorBefore = await survivor.answers();
    const asked = [...conversations.slice(0, 3), undefined, undefined, undefined];
    for (const conversationId of asked) {
      const continued = expectAnswered(await ask(id, key, conversationId));
      if (conversationId) expect(continued).toBe(conversationId);
    }
    expect(await survivor.answers()).toBe(survivorBefore + asked.length);

    // Streamed, the replica's events reach the caller as they come, framed by the gateway's.
    const streamed = await fetch(`${gateway.url}/agents/${id}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Which product sold 7342?', stream: true }),
    });
    expect(streamed.status).toBe(200);
    const types = [...(await streamed.text()).matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(types[0]).toBe('conversation');
    expect(types).toContain('token');
    expect(types.slice(-2)).toEqual(['saved', 'done']);
    expect(await survivor.answers()).toBe(survivorBefore + asked.length + 1);

    // The gateway stored every turn, whichever replica wrote it.
    const stored = await apiCall(gateway.url, `/agents/${id}/conversations`, { token });
    expect(stored.status).toBe(200);
    const messages = (stored.body as Array<{ messages: number }>).reduce(
      (sum, conversation) => sum + conversation.messages,
      0,
    );
    expect(messages).toBe(2 * (conversations.length + 2 + asked.length + 1));
  });

  it('refuses the internal route without the shared secret', async () => {
    const answer = (headers: Record<string, string>) =>
      fetch(`${replicas[1].url}/internal/answers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({}),
      });
    expect((await answer({})).status).toBe(401);
    const wrong = await answer({ 'x-agentloom-runtime-secret': `${secret}x` });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ detail: 'This route is only for the Agentloom gateway.' });
    // With the secret, the body is checked: the gateway's calls are the only ones that pass.
    const empty = await answer({ 'x-agentloom-runtime-secret': secret });
    expect(empty.status).toBe(400);
  });
});
