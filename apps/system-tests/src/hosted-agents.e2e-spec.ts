import { WIZARD_ROUTES } from '@agentloom/contracts';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import {
  apiCall,
  configureRagAgent,
  expectStatus,
  freshDatabase,
  serverSentEvents,
  signUpAndLogIn,
  startBuild,
  waitForBuild,
  type TestUser,
} from '@agentloom/test-kit';
import {
  AppProcess,
  assertBuilt,
  startWorkerProcess,
  testWorkerConfig,
  type WorkerConfig,
} from './testing/builder-worker';
import { startGatewayReplica, type GatewayReplica } from './testing/gateway-replica';
import { SYSTEM_DATABASE_URL } from './testing/system-database';

/**
 * Issue 26: a hosted agent answers from the index its build made, once. Built processes (one
 * worker, gateways answering in their own process), the OpenAI stand-in counting every text it is
 * asked to embed: the build embeds the source's chunks once; loading the agent — after publish,
 * after it was evicted, after a restart, on a second gateway — embeds nothing; a question costs
 * one query embedding. And the published agent (and the preview) serve their build: editing the
 * draft changes the preview only after a rebuild, the published agent only after it is published.
 */

const WAIT_MS = 90_000;
const DATABASE_URL = (() => {
  const url = new URL(SYSTEM_DATABASE_URL);
  url.pathname = `${url.pathname}_hosted`;
  return url.toString();
})();
const ROWS = 120;
const csv = (product: string) =>
  `region,product,amount\nNorth,${product},7342\n${Array.from(
    { length: ROWS - 1 },
    (_, i) => `Zone ${i},Gadget ${i},${1000 + i}`,
  ).join('\n')}\n`;

jest.setTimeout(300_000);

describe('Hosted agents: one index per build, made once; the build is what is served', () => {
  let config: WorkerConfig;
  let llm: LlmTestServer;
  let gateway: GatewayReplica;
  const jwtSecret = randomBytes(48).toString('base64url');
  const apps: AppProcess[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    assertBuilt('builder-worker');
    assertBuilt('gateway');
    await freshDatabase(DATABASE_URL);
    llm = await startLlmTestServer();
    cleanups.push(() => llm.close());
    config = {
      ...testWorkerConfig({
        DATABASE_URL,
        QUEUE_PREFIX: `agentloom-hosted-${process.pid}-${randomBytes(3).toString('hex')}`,
        VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
      }),
      OPENAI_BASE_URL: llm.baseUrls.openai,
    };
    cleanups.push(() => rm(config.DATA_DIR, { recursive: true, force: true }));
    gateway = await startGateway('gateway 1');
    track(await startWorkerProcess(config, WAIT_MS));
  });

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  function track(app: AppProcess): void {
    apps.push(app);
    cleanups.push(() => app.kill());
  }

  /** A gateway answering in its own process; one user holds at most one loaded agent. */
  async function startGateway(name: string): Promise<GatewayReplica> {
    const started = await startGatewayReplica(config, {
      name,
      jwtSecret,
      timeoutMs: WAIT_MS,
      env: { OPENAI_BASE_URL: llm.baseUrls.openai ?? '', PREVIEW_MAX_PER_USER: '1' },
    });
    track(started.app);
    return started;
  }

  /** Texts the stand-in was asked to embed, over all requests so far. */
  const embedded = () =>
    llm.requests
      .filter((request) => request.path === '/v1/embeddings')
      .reduce((sum, request) => sum + (request.body as { input: unknown[] }).input.length, 0);

  /** The system prompt of the last chat call the stand-in took. */
  const lastSystemPrompt = () => {
    const chat = llm.requests.filter((r) => r.path.startsWith('/v1/chat/completions')).at(-1);
    const messages = (chat?.body as { messages: { role: string; content: unknown }[] }).messages;
    return JSON.stringify(messages.find((message) => message.role === 'system')?.content);
  };

  async function built(user: TestUser, id: string): Promise<void> {
    expectStatus(await startBuild(gateway.url, user, id), 200, 'build');
    const view = await waitForBuild(gateway.url, user, id, WAIT_MS);
    if (view.status !== 'Built') {
      throw new Error(
        `${view.error}\n${apps.map((a) => `--- ${a.name}:\n${a.output}`).join('\n')}`,
      );
    }
  }

  async function publish(user: TestUser, id: string): Promise<string> {
    const url = `${gateway.url}/agents/${id}/publication`;
    const put = await fetch(url, {
      method: 'PUT',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(put.status).toBe(200);
    const key = await apiCall(gateway.url, `/agents/${id}/keys`, {
      token: user.token,
      json: { name: 'hosted', rate_limit_per_minute: 1000 },
    });
    return expectStatus(key, 201, 'access key').body.secret as string;
  }

  async function ask(via: string, id: string, key: string, product: string): Promise<void> {
    const reply = await apiCall(via, `/agents/${id}/chat`, {
      token: key,
      json: { message: 'Which product sold 7342?' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.answer).toContain(product);
  }

  it('embeds the source once at build; nothing at load, eviction, restart or on another gateway', async () => {
    const user = await signUpAndLogIn(gateway.url, 'hosted');
    const agent = (name: string, product: string, prompt: string) =>
      configureRagAgent(gateway.url, user, {
        name,
        file: { name: 'sales.csv', content: csv(product) },
        embeddingModel: 'text-embedding-3-small',
        prompt,
      });
    const first = await agent('Umbrellas', 'Quokka umbrellas', 'Answer from the sales data only.');
    await built(user, first);
    expect(embedded()).toBe(ROWS); // every chunk, once, by the worker
    const firstKey = await publish(user, first);

    await ask(gateway.url, first, firstKey, 'Quokka umbrellas'); // loaded on publish's first question
    expect(embedded()).toBe(ROWS + 1); // the question's own embedding, nothing else

    // Another agent of the same user evicts it (PREVIEW_MAX_PER_USER=1); back, it reloads.
    const second = await agent('Clocks', 'Tide clocks', 'Answer from the sales data only.');
    await built(user, second);
    const secondKey = await publish(user, second);
    await ask(gateway.url, second, secondKey, 'Tide clocks');
    const afterBuilds = 2 * ROWS + 2;
    expect(embedded()).toBe(afterBuilds);
    await ask(gateway.url, first, firstKey, 'Quokka umbrellas');
    expect(embedded()).toBe(afterBuilds + 1);

    // A restart, and a second gateway: each loads the agent from its index, embedding nothing.
    gateway.app.signal('SIGTERM');
    await gateway.app.exited;
    gateway = await startGateway('gateway 1, restarted');
    await ask(gateway.url, first, firstKey, 'Quokka umbrellas');
    const other = await startGateway('gateway 2');
    await ask(other.url, first, firstKey, 'Quokka umbrellas');
    expect(embedded()).toBe(afterBuilds + 3);
  });

  it('serves the build, not the draft: preview after a rebuild, the published agent after publishing', async () => {
    const user = await signUpAndLogIn(gateway.url, 'snapshot');
    const id = await configureRagAgent(gateway.url, user, {
      name: 'Snapshot',
      file: { name: 'sales.csv', content: csv('Quokka umbrellas') },
      embeddingModel: 'text-embedding-3-small',
      prompt: 'PROMPT ONE: answer from the sales data.',
    });
    await built(user, id);
    const key = await publish(user, id);
    const preview = await startPreview(user, id);

    // The owner edits the draft's prompt: neither the preview nor the published agent changes.
    const edit = await apiCall(gateway.url, WIZARD_ROUTES.rag.systemPrompt, {
      token: user.token,
      form: { session_id: id, prompt: 'PROMPT TWO: answer in French.' },
    });
    expectStatus(edit, 200, 'edit the prompt');
    await ask(gateway.url, id, key, 'Quokka umbrellas');
    expect(lastSystemPrompt()).toContain('PROMPT ONE');
    await askPreview(preview);
    expect(lastSystemPrompt()).toContain('PROMPT ONE');

    // Rebuilt: the preview (of the newest build) changes; the published agent waits.
    await built(user, id);
    await askPreview(await startPreview(user, id));
    expect(lastSystemPrompt()).toContain('PROMPT TWO');
    await ask(gateway.url, id, key, 'Quokka umbrellas');
    expect(lastSystemPrompt()).toContain('PROMPT ONE');

    // "Publish newest build": now the published agent answers with the new prompt.
    await publish(user, id);
    await ask(gateway.url, id, key, 'Quokka umbrellas');
    expect(lastSystemPrompt()).toContain('PROMPT TWO');
  });

  async function startPreview(user: TestUser, id: string): Promise<string> {
    const started = await apiCall(gateway.url, `/rag/previews/${id}/start`, {
      token: user.token,
      json: {},
    });
    return new URL(expectStatus(started, 200, 'preview').body.preview_url as string).pathname;
  }

  async function askPreview(pathname: string): Promise<void> {
    const response = await fetch(`${gateway.url}${pathname}ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'Which product sold 7342?' }),
    });
    expect(response.status).toBe(200);
    const events = serverSentEvents(await response.text());
    expect(events.some((event) => (event as { type?: string }).type === 'done')).toBe(true);
  }
});
