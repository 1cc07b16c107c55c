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
import { startNginxBalancer, type NginxBalancer } from './testing/nginx-balancer';
import { startRuntimeReplica, type RuntimeReplica } from './testing/runtime-replica';
import { SYSTEM_DATABASE_URL } from './testing/system-database';

/**
 * Issues 20 and 26, "Scale": answers for a published agent run on two agent runtime replicas
 * (built processes, `npm run start:runtime`) behind a real balancer (nginx), and two gateways sit
 * behind another nginx, as a deployment runs them. One worker builds the agent and embeds its
 * source once into the hosted index (OpenAI embeddings through the local stand-in); neither
 * replica embeds it again, and any replica answers any turn (no stickiness: the index is in
 * storage, the conversation in Postgres). The gateways have no way to reach the model provider
 * (no OPENAI_BASE_URL; the machine has no internet), so every answer was written on a replica;
 * each replica's /health counts its answers. Then one replica is SIGKILLed mid-traffic and the
 * answers keep coming from the other.
 */

const WAIT_MS = 60_000;
/** A database of its own (next to the other scale test's), so neither resets the other's. */
const DATABASE_URL = (() => {
  const url = new URL(SYSTEM_DATABASE_URL);
  url.pathname = `${url.pathname}_runtime`;
  return url.toString();
})();
/** New conversations asked at most while waiting for both replicas to have answered. */
const MAX_SPREAD_QUESTIONS = 12;
const ROWS = 300;
const CSV = `region,product,amount\nNorth,Quokka umbrellas,7342\n${Array.from(
  { length: ROWS - 1 },
  (_, i) => `Zone ${i},Gadget ${i},${1000 + i}`,
).join('\n')}\n`;

jest.setTimeout(180_000);

describe('Scale: two agent runtime replicas answer for one published agent (built processes)', () => {
  let config: WorkerConfig;
  let prisma: PrismaClient;
  let llm: LlmTestServer;
  let gateways: [GatewayReplica, GatewayReplica];
  let replicas: [RuntimeReplica, RuntimeReplica];
  /** The address callers use: nginx in front of both gateways. */
  let front: NginxBalancer;
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
    // The worker embeds the source (the build's "training embeddings") through the stand-in.
    config = { ...config, OPENAI_BASE_URL: llm.baseUrls.openai };

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
    const runtimes = await startNginxBalancer(replicas.map((replica) => replica.url));
    cleanups.push(() => runtimes.close());
    const jwtSecret = randomBytes(48).toString('base64url');
    gateways = (await Promise.all(
      ['gateway 1', 'gateway 2'].map((name) =>
        startGatewayReplica(config, {
          name,
          jwtSecret,
          timeoutMs: WAIT_MS,
          env: { PUBLISHED_RUNTIME_URLS: runtimes.url, RUNTIME_SHARED_SECRET: secret },
        }),
      ),
    )) as [GatewayReplica, GatewayReplica];
    for (const gateway of gateways) track(gateway.app);
    front = await startNginxBalancer(gateways.map((gateway) => gateway.url));
    cleanups.push(() => front.close());
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
    const user = await signUpAndLogIn(front.url, 'scale');
    const { token } = user;
    const id = await configureRagAgent(front.url, user, {
      name: 'Runtime scale',
      file: { name: 'sales.csv', content: CSV },
      embeddingModel: 'text-embedding-3-small',
    });
    expect((await startBuild(front.url, user, id)).status).toBe(200);
    const deadline = Date.now() + WAIT_MS;
    while ((await prisma.pipeline.findUniqueOrThrow({ where: { id } })).status !== 'Built') {
      if (Date.now() > deadline) throw new Error(`Agent ${id} not built.\n${outputs()}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const published = await fetch(`${front.url}/agents/${id}/publication`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(published.status).toBe(200);
    const key = await apiCall(front.url, `/agents/${id}/keys`, {
      token,
      json: { name: 'scale', rate_limit_per_minute: 1000 },
    });
    expect(key.status).toBe(201);
    return { id, key: key.body.secret as string, token };
  }

  const ask = (
    id: string,
    key: string,
    conversationId?: string,
    via = front.url,
  ): Promise<ApiAnswer> =>
    apiCall(via, `/agents/${id}/chat`, {
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

  /** Texts the stand-in was asked to embed, over all requests so far. */
  const embeddedInputs = () =>
    llm.requests
      .filter((request) => request.path === '/v1/embeddings')
      .reduce((sum, request) => sum + (request.body as { input: unknown[] }).input.length, 0);

  it('embeds the source once, spreads turns over both replicas with no stickiness, and answers on after one is killed', async () => {
    const { id, key, token } = await publishedAgent();
    expect(await counts()).toEqual([0, 0]);
    // The build embedded every chunk, once; loading the agent on a replica embeds nothing.
    const built = embeddedInputs();
    expect(built).toBe(ROWS);

    // The balancer spreads new conversations: ask until both replicas have answered.
    const conversations: string[] = [];
    let [first, second] = await counts();
    while (!(first! > 0 && second! > 0) && conversations.length < MAX_SPREAD_QUESTIONS) {
      conversations.push(expectAnswered(await ask(id, key)));
      [first, second] = await counts();
    }
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(0);
    // Each answer was written once, on one replica. A replica embeds a question it was asked
    // before only once (it remembers its recent query vectors), so this one question, asked
    // again and again, cost one embedding on each replica.
    expect(first! + second!).toBe(conversations.length);
    expect(embeddedInputs()).toBe(built + 2);

    // Any replica continues any conversation: the turns come from Postgres. Two follow-ups go
    // to both replicas in turn, and the model sees the earlier turns each time.
    const before = await counts();
    for (let turn = 0; turn < 2; turn += 1) {
      expect(expectAnswered(await ask(id, key, conversations[0]))).toBe(conversations[0]);
      const chat = llm.requests.filter((r) => r.path.startsWith('/v1/chat/completions')).at(-1);
      const roles = (chat?.body as { messages: { role: string }[] }).messages.map((m) => m.role);
      expect(roles.filter((role) => role === 'assistant').length).toBe(turn + 1);
    }
    const after = await counts();
    expect([after[0]! - before[0]!, after[1]! - before[1]!]).toEqual([1, 1]);

    // Either gateway answers the same agent, as the one balancer address does.
    for (const gateway of gateways) expectAnswered(await ask(id, key, undefined, gateway.url));
    // Four more askings of the same question: nothing more to embed on either replica.
    expect(embeddedInputs()).toBe(built + 2);

    // One replica dies while questions are in flight; every question asked after, new or
    // continuing, is answered by the other (nginx skips the refused replica).
    const [killed, survivor] = replicas;
    const inFlight = Promise.all([ask(id, key), ask(id, key), ask(id, key)]);
    killed.app.signal('SIGKILL');
    expect(await killed.app.exited).toEqual({ code: null, signal: 'SIGKILL' });
    // An answer cut off by the dying replica fails (and is not stored); the others complete.
    const flown = await inFlight;
    const cut = flown.filter((reply) => reply.status !== 200).length;
    const survivorBefore = await survivor.answers();
    const asked = [...conversations.slice(0, 3), undefined, undefined, undefined];
    for (const conversationId of asked) {
      const continued = expectAnswered(await ask(id, key, conversationId));
      if (conversationId) expect(continued).toBe(conversationId);
    }
    expect(await survivor.answers()).toBe(survivorBefore + asked.length);

    // Streamed, the replica's events reach the caller as they come, framed by the gateway's.
    const streamed = await fetch(`${front.url}/agents/${id}/chat`, {
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
    const stored = await apiCall(front.url, `/agents/${id}/conversations`, { token });
    expect(stored.status).toBe(200);
    const messages = (stored.body as Array<{ messages: number }>).reduce(
      (sum, conversation) => sum + conversation.messages,
      0,
    );
    const inFlightStored = flown.length - cut;
    expect(messages).toBe(
      2 * (conversations.length + 2 + gateways.length + inFlightStored + asked.length + 1),
    );
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
