import { WIZARD_ROUTES, type TBuildHistoryItem } from '@agentloom/contracts';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import {
  dropMariaDb,
  freshMariaDb,
  withMariaDbRoot,
  type MariaDbAccount,
} from '@agentloom/data-sources/testing';
import {
  addFileSource,
  addSource,
  apiCall,
  configureRagAgent,
  expectStatus,
  freshDatabase,
  refreshSource,
  removeSource,
  replaceFileSource,
  signUpAndLogIn,
  startBuild,
  waitForBuild,
  waitForKnowledge,
  type TestUser,
} from '@agentloom/test-kit';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
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
 * Issue 39: an agent's knowledge is many sources, and a change embeds only what changed. Built
 * processes (a gateway, a worker), the OpenAI stand-in counting every text it embeds, and a real
 * MariaDB table: a prompt-only rebuild embeds nothing; an added file, a new version of it, an
 * added table, a refresh after ten rows changed each embed only their own new chunks; a refresh
 * that finds nothing embeds nothing and builds nothing; the published agent follows each
 * knowledge-only build, and a rollback serves an older build again.
 */

const WAIT_MS = 120_000;
const DATABASE_URL = (() => {
  const url = new URL(SYSTEM_DATABASE_URL);
  url.pathname = `${url.pathname}_knowledge`;
  return url.toString();
})();
const ROWS = 40;
const CSV = `region,product,amount\n${Array.from(
  { length: ROWS },
  (_, i) => `Zone ${i},Gadget ${i},${1000 + i}`,
).join('\n')}\n`;
const PARTS_ROWS = 60;
const PARTS: MariaDbAccount = {
  database: 'agentloom_knowledge_parts',
  user: 'al_knowledge',
  password: 'Knowledge-S3cret!pw',
};

const NOTES = (warranty: string) =>
  [
    '# Returns',
    'Customers return any sprocket within 30 days of delivery.',
    '# Warranty',
    `Every Sprocket Max carries a ${warranty} warranty against rust.`,
    '# Shipping',
    'Orders ship from the Porto warehouse on weekdays.',
  ].join('\n\n');

jest.setTimeout(600_000);

describe('Knowledge: many sources, and a change embeds only what changed', () => {
  let config: WorkerConfig;
  let llm: LlmTestServer;
  let gateway: GatewayReplica;
  let user: TestUser;
  let agent: string;
  let key: string;
  const jwtSecret = randomBytes(48).toString('base64url');
  const apps: AppProcess[] = [];
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    assertBuilt('builder-worker');
    assertBuilt('gateway');
    await freshDatabase(DATABASE_URL);
    await freshMariaDb(PARTS, async (admin) => {
      await admin.query(
        `CREATE TABLE ${PARTS.database}.parts (id INT PRIMARY KEY, name VARCHAR(80) NOT NULL, price DECIMAL(10,2) NOT NULL)`,
      );
      const rows = Array.from({ length: PARTS_ROWS }, (_, i) => [i + 1, `Part ${i + 1}`, 10 + i]);
      await admin.query(`INSERT INTO ${PARTS.database}.parts (id, name, price) VALUES ?`, [rows]);
    });
    cleanups.push(() => dropMariaDb(PARTS));
    llm = await startLlmTestServer();
    cleanups.push(() => llm.close());
    config = {
      ...testWorkerConfig({
        DATABASE_URL,
        QUEUE_PREFIX: `agentloom-knowledge-${process.pid}-${randomBytes(3).toString('hex')}`,
        VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
      }),
      OPENAI_BASE_URL: llm.baseUrls.openai,
    };
    cleanups.push(() => rm(config.DATA_DIR, { recursive: true, force: true }));
    const started = await startGatewayReplica(config, {
      name: 'gateway',
      jwtSecret,
      timeoutMs: WAIT_MS,
      env: { OPENAI_BASE_URL: llm.baseUrls.openai ?? '' },
    });
    gateway = started;
    track(started.app);
    track(await startWorkerProcess(config, WAIT_MS));
    user = await signUpAndLogIn(gateway.url, 'knowledge');
  });

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  function track(app: AppProcess): void {
    apps.push(app);
    cleanups.push(() => app.kill());
  }

  /** Texts the stand-in was asked to embed, over every request so far. */
  let counted = 0;
  const embeddedSinceLastCall = () => {
    const total = llm.requests
      .filter((request) => request.path === '/v1/embeddings')
      .reduce((sum, request) => sum + (request.body as { input: unknown[] }).input.length, 0);
    const since = total - counted;
    counted = total;
    return since;
  };

  const processLogs = () => apps.map((app) => `--- ${app.name}:\n${app.output}`).join('\n');

  async function settled() {
    try {
      return await waitForKnowledge(gateway.url, user, agent, WAIT_MS);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${processLogs()}`);
    }
  }

  /**
   * Refreshes a source and waits for what the refresh found: it runs in the worker, which may
   * pick the job up after the knowledge first looks settled, so the source's last change is
   * awaited before the build it starts.
   */
  async function refreshed(sourceId: string, change: string) {
    await refreshSource(gateway.url, user, agent, sourceId);
    const deadline = Date.now() + WAIT_MS;
    let source;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      source = (await settled()).sources.find((one) => one.id === sourceId)!;
    } while (source.last_change !== change && Date.now() < deadline);
    expect(source.last_change).toBe(change);
    return settled();
  }

  async function history(): Promise<TBuildHistoryItem[]> {
    const answer = await apiCall(gateway.url, `/pipelines/${agent}/builds`, { token: user.token });
    return expectStatus(answer, 200, 'history').body as TBuildHistoryItem[];
  }

  async function publication() {
    const answer = await apiCall(gateway.url, `/agents/${agent}/publication`, {
      token: user.token,
    });
    return expectStatus(answer, 200, 'publication').body as {
      build_id: string;
      latest_build_id: string;
    };
  }

  /** The published agent's answer and its sources' citations. */
  async function ask(message: string): Promise<{ answer: string; cited: string[] }> {
    const reply = expectStatus(
      await apiCall(gateway.url, `/agents/${agent}/chat`, { token: key, json: { message } }),
      200,
      'ask',
    );
    return {
      answer: reply.body.answer as string,
      cited: (reply.body.sources as { citation?: string }[]).map((source) => source.citation ?? ''),
    };
  }

  it('embeds the first build once, and nothing for a rebuild after a prompt edit', async () => {
    agent = await configureRagAgent(gateway.url, user, {
      name: 'Shop assistant',
      file: { name: 'sales.csv', content: CSV },
      embeddingModel: 'text-embedding-3-small',
      prompt: 'Answer from the shop data only.',
    });
    expectStatus(await startBuild(gateway.url, user, agent), 200, 'build');
    expect((await waitForBuild(gateway.url, user, agent, WAIT_MS)).status).toBe('Built');
    expect(embeddedSinceLastCall()).toBe(ROWS);

    const edit = await apiCall(gateway.url, WIZARD_ROUTES.rag.systemPrompt, {
      token: user.token,
      form: { session_id: agent, prompt: 'Answer briefly, from the shop data only.' },
    });
    expectStatus(edit, 200, 'edit the prompt');
    expectStatus(await startBuild(gateway.url, user, agent), 200, 'rebuild');
    expect((await waitForBuild(gateway.url, user, agent, WAIT_MS)).status).toBe('Built');
    expect(embeddedSinceLastCall()).toBe(0);

    const published = await apiCall(gateway.url, `/agents/${agent}/publication`, {
      method: 'PUT',
      token: user.token,
    });
    expectStatus(published, 200, 'publish');
    const created = await apiCall(gateway.url, `/agents/${agent}/keys`, {
      token: user.token,
      json: { name: 'knowledge', rate_limit_per_minute: 1000 },
    });
    key = expectStatus(created, 201, 'key').body.secret as string;
  });

  let notesId: string;
  let withNotes: string;

  it('an added file embeds only its own chunks; the published agent follows and cites it', async () => {
    const before = await publication();
    const added = await addFileSource(gateway.url, user, agent, {
      name: 'policies.md',
      content: NOTES('two-year'),
    });
    notesId = added.id;
    const knowledge = await settled();
    expect(knowledge.sources.map((source) => [source.name, source.status])).toEqual([
      ['sales.csv', 'ready'],
      ['policies.md', 'ready'],
    ]);
    expect(embeddedSinceLastCall()).toBe(3); // its three sections, nothing of sales.csv
    const now = await publication();
    expect(now.build_id).not.toBe(before.build_id);
    expect(now.build_id).toBe(now.latest_build_id);
    withNotes = now.build_id;
    const reply = await ask('How long is the Sprocket Max warranty against rust?');
    expect(reply.cited.some((citation) => citation.startsWith('policies.md'))).toBe(true);
    expect((await history())[0]?.changes).toEqual(['added policies.md']);
  });

  it('a new version of the file embeds only the passage that changed', async () => {
    embeddedSinceLastCall();
    await replaceFileSource(gateway.url, user, agent, notesId, {
      name: 'policies.md',
      content: NOTES('five-year'),
    });
    await settled();
    expect(embeddedSinceLastCall()).toBe(1); // the warranty section, only
    expect((await history())[0]?.changes).toEqual(['new version of policies.md']);
  });

  let partsId: string;

  it('a table added embeds its rows; a refresh after ten rows changed embeds those ten', async () => {
    const added = await addSource(gateway.url, user, agent, {
      kind: 'table',
      source_type: 'mysql',
      uri: `mysql://${PARTS.user}:${encodeURIComponent(PARTS.password)}@127.0.0.1:3306/${PARTS.database}`,
      database: PARTS.database,
      collection_or_table: 'parts',
    });
    partsId = added.id;
    await settled();
    expect(embeddedSinceLastCall()).toBe(PARTS_ROWS);

    await withMariaDbRoot(async (admin) => {
      await admin.query(
        `UPDATE ${PARTS.database}.parts SET price = price + 1000 WHERE id BETWEEN 11 AND 20`,
      );
    });
    const builds = (await history()).length;
    const knowledge = await refreshed(partsId, '10 rows changed');
    expect(embeddedSinceLastCall()).toBe(10);
    const parts = knowledge.sources.find((source) => source.id === partsId)!;
    expect(parts).toMatchObject({
      status: 'ready',
      chunks: PARTS_ROWS,
      last_change: '10 rows changed',
    });
    const after = await history();
    expect(after).toHaveLength(builds + 1);
    expect(after[0]?.changes).toEqual(['refreshed parts: 10 rows changed']);
    const reply = await ask('What is the price of Part 15?');
    expect(reply.cited).toContain('parts, id=15');
  });

  it('a refresh that finds nothing changed embeds nothing and builds nothing', async () => {
    const builds = (await history()).length;
    embeddedSinceLastCall();
    await refreshed(partsId, 'no changes found');
    expect(embeddedSinceLastCall()).toBe(0);
    expect(await history()).toHaveLength(builds);
  });

  it('a source removed embeds nothing; a rollback serves the older build again', async () => {
    await removeSource(gateway.url, user, agent, notesId);
    const knowledge = await settled();
    expect(knowledge.sources.map((source) => source.name)).toEqual(['sales.csv', 'parts']);
    expect(embeddedSinceLastCall()).toBe(0);
    expect((await history())[0]?.changes).toEqual(['removed policies.md']);
    const without = await ask('How long is the Sprocket Max warranty against rust?');
    expect(without.cited.some((citation) => citation.startsWith('policies.md'))).toBe(false);

    const rollback = await apiCall(gateway.url, `/agents/${agent}/publication`, {
      method: 'PUT',
      token: user.token,
      json: { build_id: withNotes },
    });
    expect(expectStatus(rollback, 200, 'rollback').body.build_id).toBe(withNotes);
    const again = await ask('How long is the Sprocket Max warranty against rust?');
    expect(again.cited.some((citation) => citation.startsWith('policies.md'))).toBe(true);
    // The question's own embedding, once: the gateway remembers the vector of a question it
    // embedded before, whichever build it then searches.
    expect(embeddedSinceLastCall()).toBe(1);

    const foreign = await signUpAndLogIn(gateway.url, 'foreign');
    const refused = await apiCall(gateway.url, `/agents/${agent}/sources`, {
      token: foreign.token,
    });
    expect(refused.status).toBe(404);
  });
});
