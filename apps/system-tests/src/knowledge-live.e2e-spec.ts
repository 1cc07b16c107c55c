import { KNOWLEDGE_QUEUE, REFRESH_SOURCE_JOB, refreshSchedulerId } from '@agentloom/contracts';
import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { dropMariaDb, freshMariaDb, type MariaDbAccount } from '@agentloom/data-sources/testing';
import {
  addFileSource,
  addSource,
  apiCall,
  configureRagAgent,
  expectStatus,
  freshDatabase,
  knowledgeOf,
  scheduleSource,
  signUpAndLogIn,
  startBuild,
  waitForBuild,
  waitForKnowledge,
  type TestUser,
} from '@agentloom/test-kit';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
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
 * Issue 39, live: a published agent whose sources change while 50 conversations ask it never
 * fails an answer (the switch to the new build is one statement; answers in flight finish on the
 * build they started with), and a source's refresh schedule — a BullMQ job scheduler — fires
 * once per period however many workers consume the queue. Built processes: a gateway, two
 * workers, the OpenAI stand-in, a real MariaDB table.
 */

const WAIT_MS = 120_000;
const DATABASE_URL = (() => {
  const url = new URL(SYSTEM_DATABASE_URL);
  url.pathname = `${url.pathname}_knowledge_live`;
  return url.toString();
})();
const CSV = `region,product,amount\n${Array.from(
  { length: 30 },
  (_, i) => `Zone ${i},Gadget ${i},${1000 + i}`,
).join('\n')}\n`;
const STOCK: MariaDbAccount = {
  database: 'agentloom_knowledge_stock',
  user: 'al_knowledge_live',
  password: 'Stock-S3cret!pw',
};

jest.setTimeout(600_000);

describe('Knowledge, live: switching builds under load, schedules with two workers', () => {
  let config: WorkerConfig;
  let llm: LlmTestServer;
  let gateway: GatewayReplica;
  let user: TestUser;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    assertBuilt('builder-worker');
    assertBuilt('gateway');
    await freshDatabase(DATABASE_URL);
    await freshMariaDb(STOCK, async (admin) => {
      await admin.query(
        `CREATE TABLE ${STOCK.database}.stock (id INT PRIMARY KEY, item VARCHAR(80) NOT NULL, count INT NOT NULL)`,
      );
      const rows = Array.from({ length: 20 }, (_, i) => [i + 1, `Item ${i + 1}`, i * 3]);
      await admin.query(`INSERT INTO ${STOCK.database}.stock (id, item, count) VALUES ?`, [rows]);
    });
    cleanups.push(() => dropMariaDb(STOCK));
    llm = await startLlmTestServer();
    cleanups.push(() => llm.close());
    config = {
      ...testWorkerConfig({
        DATABASE_URL,
        QUEUE_PREFIX: `agentloom-knowledge-live-${process.pid}-${randomBytes(3).toString('hex')}`,
        VAULT_MASTER_KEY: randomBytes(32).toString('base64'),
      }),
      OPENAI_BASE_URL: llm.baseUrls.openai,
    };
    cleanups.push(() => rm(config.DATA_DIR, { recursive: true, force: true }));
    gateway = await startGatewayReplica(config, {
      name: 'gateway',
      jwtSecret: randomBytes(48).toString('base64url'),
      timeoutMs: WAIT_MS,
      env: { OPENAI_BASE_URL: llm.baseUrls.openai ?? '' },
    });
    track(gateway.app);
    for (let i = 0; i < 2; i += 1) track(await startWorkerProcess(config, WAIT_MS));
    user = await signUpAndLogIn(gateway.url, 'live');
  });

  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  function track(app: AppProcess): void {
    cleanups.push(() => app.kill());
  }

  async function builtAgent(name: string): Promise<string> {
    const agent = await configureRagAgent(gateway.url, user, {
      name,
      file: { name: 'sales.csv', content: CSV },
      embeddingModel: 'text-embedding-3-small',
    });
    expectStatus(await startBuild(gateway.url, user, agent), 200, 'build');
    expect((await waitForBuild(gateway.url, user, agent, WAIT_MS)).status).toBe('Built');
    return agent;
  }

  it('50 conversations asking while the agent changes builds: no answer fails', async () => {
    const agent = await builtAgent('Under load');
    expectStatus(
      await apiCall(gateway.url, `/agents/${agent}/publication`, {
        method: 'PUT',
        token: user.token,
      }),
      200,
      'publish',
    );
    const key = expectStatus(
      await apiCall(gateway.url, `/agents/${agent}/keys`, {
        token: user.token,
        json: { name: 'load', rate_limit_per_minute: 10_000 },
      }),
      201,
      'key',
    ).body.secret as string;

    const failures: string[] = [];
    const cited: string[] = [];
    const ask = async (message: string, conversation?: string) => {
      const reply = await apiCall(gateway.url, `/agents/${agent}/chat`, {
        token: key,
        json: { message, ...(conversation && { conversation_id: conversation }) },
      });
      if (reply.status !== 200 || typeof reply.body.answer !== 'string') {
        failures.push(`${reply.status} ${JSON.stringify(reply.body)}`);
        return undefined;
      }
      for (const source of reply.body.sources as { citation?: string }[]) {
        cited.push(source.citation ?? '');
      }
      return reply.body.conversation_id as string;
    };
    const conversation = async () => {
      let id: string | undefined;
      for (let turn = 0; turn < 4; turn += 1) {
        id = (await ask('Which spare sprocket fits the Max model?', id)) ?? id;
      }
    };
    const talking = Promise.all(Array.from({ length: 50 }, () => conversation()));
    // Meanwhile the owner adds a source: a knowledge-only build the published agent follows.
    await addFileSource(gateway.url, user, agent, {
      name: 'spares.txt',
      content: 'The spare sprocket that fits the Max model is the S-44 sprocket.',
    });
    await talking;
    await waitForKnowledge(gateway.url, user, agent, WAIT_MS);
    expect(failures).toEqual([]);
    // Once the switch happened, answers read the new source.
    await ask('Which spare sprocket fits the Max model?');
    expect(failures).toEqual([]);
    expect(cited.some((citation) => citation === 'spares.txt')).toBe(true);
  });

  it('a refresh schedule fires once per period with two workers consuming the queue', async () => {
    const agent = await builtAgent('Scheduled');
    const stock = await addSource(gateway.url, user, agent, {
      kind: 'table',
      source_type: 'mysql',
      uri: `mysql://${STOCK.user}:${encodeURIComponent(STOCK.password)}@127.0.0.1:3306/${STOCK.database}`,
      database: STOCK.database,
      collection_or_table: 'stock',
    });
    await waitForKnowledge(gateway.url, user, agent, WAIT_MS);

    const connection = new IORedis(config.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(KNOWLEDGE_QUEUE, { connection, prefix: config.QUEUE_PREFIX });
    try {
      // The owner's schedule: one scheduler for the source, every hour, kept in Redis.
      await scheduleSource(gateway.url, user, agent, stock.id, 'hourly');
      const scheduler = await queue.getJobScheduler(refreshSchedulerId(stock.id));
      expect(scheduler).toMatchObject({ every: 3_600_000, name: REFRESH_SOURCE_JOB });
      expect(
        (await queue.getJobSchedulers()).filter((one) => one.key === refreshSchedulerId(stock.id)),
      ).toHaveLength(1);

      // An hour is too long to wait: the same scheduler (same id, same job) every 1.5 s stands in
      // for it. Two workers consume the queue; each period's job is taken by one of them.
      const started = Date.now();
      await queue.upsertJobScheduler(
        refreshSchedulerId(stock.id),
        { every: 1_500 },
        { name: REFRESH_SOURCE_JOB, data: { sourceId: stock.id } },
      );
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      await queue.removeJobScheduler(refreshSchedulerId(stock.id));
      const elapsed = Date.now() - started;
      await waitForKnowledge(gateway.url, user, agent, WAIT_MS);

      const ran = (await queue.getJobs(['completed', 'failed', 'active'])).filter(
        (job) => job.name === REFRESH_SOURCE_JOB && job.data.sourceId === stock.id,
      );
      const periods = new Set(ran.map((job) => job.id));
      // One job per period (the periods' ids are the scheduler's and the period's time), each
      // finished once, by one worker: never two refreshes of one period.
      expect(periods.size).toBe(ran.length);
      expect(ran.length).toBeGreaterThanOrEqual(3);
      expect(ran.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1_500) + 1);
      expect(ran.every((job) => job.finishedOn && job.attemptsMade <= 1)).toBe(true);
      const source = (await knowledgeOf(gateway.url, user, agent)).sources.find(
        (one) => one.id === stock.id,
      )!;
      expect(source).toMatchObject({ status: 'ready', last_change: 'no changes found' });
      expect(Date.parse(source.last_refreshed_at ?? '')).toBeGreaterThan(started);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});
