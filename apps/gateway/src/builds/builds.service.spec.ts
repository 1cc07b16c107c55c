import { buildPaths, buildStagesOf } from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import { Logger } from '@nestjs/common';
import type { PipelineStorage } from '../pipelines/pipeline-storage';
import type { KnowledgeRepository } from '../knowledge/knowledge.repository';
import {
  buildRow,
  completePipeline,
  fakeOf,
  OWNER,
  PipelineRows,
  pipelineRow,
  pipelinesOver,
  refusal,
  STRANGER,
  unitConfig,
} from '../testing/unit-rows';
import { BuildQueue, QueueUnavailableError } from './build-queue';
import { USE_OPENAI_SEARCH } from './build-warnings';
import { QUEUE_UNAVAILABLE, BuildsService, toView } from './builds.service';
import type { BuildsRepository } from './builds.repository';

const MAX_RUNNING = 2;
const PRIMARY_SOURCE = { id: 'primary', kind: 'file', name: 'sales.csv' };

// The queue-outage test logs a warning on purpose.
beforeAll(() => {
  Logger.overrideLogger(false);
});

function setUp(...pipelines: Pipeline[]) {
  const rows = new PipelineRows(...pipelines);
  const builds = {
    startBuild: jest.fn<
      Promise<Build | null | 'over-quota'>,
      Parameters<BuildsRepository['startBuild']>
    >(),
    latestOwned: jest.fn<Promise<Build | null>, [string, string]>().mockResolvedValue(null),
    abandonBuild: jest.fn<Promise<void>, [Build, string]>().mockResolvedValue(),
    listOwned: jest.fn<Promise<Build[]>, [string, string]>().mockResolvedValue([]),
    publishedBuildId: jest.fn<Promise<string | null>, [string]>().mockResolvedValue(null),
    latestBuiltOwned: jest.fn<Promise<Build | null>, [string, string]>().mockResolvedValue(null),
  };
  const queue = { enqueue: jest.fn<Promise<void>, [string]>().mockResolvedValue() };
  const knowledge = { forSnapshot: jest.fn().mockResolvedValue([PRIMARY_SOURCE]) };
  const storage = { openArtifact: jest.fn().mockResolvedValue(null) };
  const service = new BuildsService(
    unitConfig({ MAX_CONCURRENT_BUILDS_PER_USER: MAX_RUNNING }),
    pipelinesOver(rows),
    fakeOf<BuildsRepository>(builds),
    fakeOf<BuildQueue>(queue),
    fakeOf<PipelineStorage>(storage),
    fakeOf<KnowledgeRepository>(knowledge),
  );
  return { service, builds, queue, knowledge, storage };
}

describe('BuildsService.start (the Build button)', () => {
  it('refuses an agent whose steps are missing, naming each one, and records nothing', async () => {
    const draft = pipelineRow();
    const { service, builds } = setUp(draft);
    expect(await refusal(service.start(OWNER, draft.id, 'rag'))).toEqual({
      status: 422,
      detail:
        'Complete these steps before building: Source Type, Source Details, Embedding, Vector Store, LLM Provider, System Prompt, UI Type.',
    });
    expect(builds.startBuild).not.toHaveBeenCalled();
  });

  it('names only the steps still missing: a key not saved leaves the LLM step open', async () => {
    const almost = completePipeline('rag', { llmApiKeyEncrypted: null });
    const { service } = setUp(almost);
    expect((await refusal(service.start(OWNER, almost.id, 'rag'))).detail).toBe(
      'Complete these steps before building: LLM Provider.',
    );
  });

  it("answers 404 for another user's agent and for an agent of the other kind", async () => {
    const agent = completePipeline('rag');
    const { service, builds } = setUp(agent);
    expect(await refusal(service.start(STRANGER, agent.id, 'rag'))).toEqual({
      status: 404,
      detail: 'Agent not found.',
    });
    expect((await refusal(service.start(OWNER, agent.id, 'sql'))).status).toBe(404);
    expect((await refusal(service.start(OWNER, 'not-a-uuid', 'rag'))).status).toBe(404);
    expect(builds.startBuild).not.toHaveBeenCalled();
  });

  it('records a RAG build with its snapshot and every knowledge source, then enqueues it', async () => {
    const agent = completePipeline('rag');
    const { service, builds, queue } = setUp(agent);
    const build = buildRow(agent);
    builds.startBuild.mockResolvedValue(build);
    expect(await service.start(OWNER, agent.id, 'rag')).toEqual({
      session_id: agent.id,
      build_id: build.id,
      status: 'Building',
      message: 'RAG agent build started!',
    });
    const [pipelineId, userId, snapshot, maxRunning] = builds.startBuild.mock.calls[0]!;
    expect([pipelineId, userId, maxRunning]).toEqual([agent.id, OWNER, MAX_RUNNING]);
    expect(snapshot).toMatchObject({
      config: { agent_type: 'rag', system_prompt: 'Answer from the sales figures.' },
      source_file: 'stored-sales.csv',
      vector_db_key: null,
      source_uri: null,
      sources: [PRIMARY_SOURCE],
    });
    // The key is fingerprinted, never copied into the snapshot.
    expect(JSON.stringify(snapshot)).not.toContain('llm-key');
    expect(queue.enqueue).toHaveBeenCalledWith(build.id);
  });

  it('builds a SQL agent from its wizard alone (no knowledge sources)', async () => {
    const agent = completePipeline('sql');
    const { service, builds, knowledge } = setUp(agent);
    builds.startBuild.mockResolvedValue(buildRow(agent));
    expect((await service.start(OWNER, agent.id, 'sql')).message).toBe('SQL agent build started!');
    expect(knowledge.forSnapshot).not.toHaveBeenCalled();
    expect(builds.startBuild.mock.calls[0]![2]).not.toHaveProperty('sources');
  });

  it('answers a second click with the build already running, enqueueing nothing', async () => {
    const agent = completePipeline('rag', { status: 'Building' });
    const { service, builds, queue } = setUp(agent);
    const running = buildRow(agent);
    builds.startBuild.mockResolvedValue(null);
    builds.latestOwned.mockResolvedValue(running);
    expect((await service.start(OWNER, agent.id, 'rag')).build_id).toBe(running.id);
    expect(queue.enqueue).not.toHaveBeenCalled();
  });

  it('answers 404 when the agent went away between reading and recording', async () => {
    const agent = completePipeline('rag');
    const { service, builds } = setUp(agent);
    builds.startBuild.mockResolvedValue(null);
    expect(await refusal(service.start(OWNER, agent.id, 'rag'))).toEqual({
      status: 404,
      detail: 'Agent not found.',
    });
  });

  it('refuses a build over the running-builds limit with 429 and the limit in words', async () => {
    const agent = completePipeline('rag');
    const { service, builds, queue } = setUp(agent);
    builds.startBuild.mockResolvedValue('over-quota');
    expect(await refusal(service.start(OWNER, agent.id, 'rag'))).toEqual({
      status: 429,
      detail: `You already have ${MAX_RUNNING} builds running, the most at once. Wait for one to finish, then build this agent.`,
    });
    expect(queue.enqueue).not.toHaveBeenCalled();
  });

  it('undoes the build and answers 503 when the queue does not answer', async () => {
    const agent = completePipeline('rag', { status: 'Built' });
    const { service, builds, queue } = setUp(agent);
    const build = buildRow(agent);
    builds.startBuild.mockResolvedValue(build);
    queue.enqueue.mockRejectedValue(new QueueUnavailableError('timeout'));
    expect(await refusal(service.start(OWNER, agent.id, 'rag'))).toEqual({
      status: 503,
      detail: QUEUE_UNAVAILABLE,
    });
    // Back to the status it had before the click.
    expect(builds.abandonBuild).toHaveBeenCalledWith(build, 'Built');
  });

  it('lets an unexpected enqueue failure through without undoing (it is a bug, not an outage)', async () => {
    const agent = completePipeline('rag');
    const { service, builds, queue } = setUp(agent);
    builds.startBuild.mockResolvedValue(buildRow(agent));
    queue.enqueue.mockRejectedValue(new TypeError('bug'));
    await expect(service.start(OWNER, agent.id, 'rag')).rejects.toThrow(TypeError);
    expect(builds.abandonBuild).not.toHaveBeenCalled();
  });
});

describe('toView (what the build screen is sent)', () => {
  const agent = completePipeline('rag');
  const keywordIndex = (note?: string) => ({
    engine: 'lancedb',
    mode: 'keyword',
    embedding_model: 'all-MiniLM-L6-v2',
    dimensions: 384,
    chunks: 3,
    ann: false,
    ...(note && { note }),
  });

  it('a running build: its stage keys, no download and no warning', () => {
    const build = buildRow(agent, {
      stages: [
        { key: 'validate_config', started_at: '2026-01-02T00:00:01.000Z', finished_at: null },
      ],
    });
    const view = toView(agent, build);
    expect(view).toMatchObject({
      build_id: build.id,
      session_id: agent.id,
      agent_type: 'rag',
      status: 'Building',
      stage_keys: [...buildStagesOf('rag')],
      finished_at: null,
      download_url: null,
      warnings: [],
    });
    expect(view.stages).toHaveLength(1);
  });

  it('a Built build: its download address', () => {
    const built = buildRow(agent, {
      status: 'Built',
      finishedAt: new Date('2026-01-02T00:01:00Z'),
    });
    expect(toView(agent, built)).toMatchObject({
      download_url: buildPaths.download('rag', agent.id),
      finished_at: '2026-01-02T00:01:00.000Z',
    });
  });

  it('warns that a keyword-only build finds words, not meaning, and offers OpenAI search', () => {
    const built = buildRow(agent, {
      status: 'Built',
      hostedIndex: keywordIndex('The model could not be downloaded.'),
    });
    const [warning] = toView(agent, built).warnings;
    expect(warning?.code).toBe('keyword_search');
    expect(warning?.detail).toMatch(
      /^The model could not be downloaded\. Answers are found by matching words/,
    );
    expect(warning?.fix).toEqual({
      embedding_model: 'text-embedding-3-small',
      label: USE_OPENAI_SEARCH,
    });
  });

  it('offers no fix when the agent has no OpenAI key to pay for OpenAI search', () => {
    const groq = completePipeline('rag', {
      config: {
        ...(agent.config as object),
        llm: { provider: 'groq', model: 'llama-3.1-8b-instant' },
      },
    });
    const [warning] = toView(
      groq,
      buildRow(groq, { status: 'Built', hostedIndex: keywordIndex() }),
    ).warnings;
    expect(warning?.detail).toMatch(/^The chosen embedding model could not be used\./);
    expect(warning?.fix).toBeNull();
  });

  it('no warning for a build that searches by meaning, or one still running', () => {
    const embedded = { ...keywordIndex(), mode: 'embeddings' };
    expect(
      toView(agent, buildRow(agent, { status: 'Built', hostedIndex: embedded })).warnings,
    ).toEqual([]);
    expect(toView(agent, buildRow(agent, { hostedIndex: keywordIndex() })).warnings).toEqual([]);
  });
});

describe('BuildsService: reading builds back', () => {
  it('latest: 404 in words before the first build', async () => {
    const agent = completePipeline('rag');
    const { service } = setUp(agent);
    expect(await refusal(service.latest(OWNER, agent.id))).toEqual({
      status: 404,
      detail: 'This agent has not been built yet.',
    });
  });

  it('history: newest first, numbered from the oldest, the published one marked', async () => {
    const agent = completePipeline('rag');
    const { service, builds } = setUp(agent);
    const first = buildRow(agent, { status: 'Built', artifact: 'a.zip' });
    const second = buildRow(agent, { status: 'Failed', error: 'The source could not be read.' });
    builds.listOwned.mockResolvedValue([first, second]);
    builds.publishedBuildId.mockResolvedValue(first.id);
    const history = await service.history(OWNER, agent.id);
    expect(history.map((item) => [item.number, item.status, item.published])).toEqual([
      [2, 'Failed', false],
      [1, 'Built', true],
    ]);
    expect(history[0]!.download_url).toBeNull();
    expect(history[1]!.download_url).toBe(buildPaths.download('rag', agent.id, first.id));
  });

  it('download: an unknown build, no finished build and a missing zip are each a 404', async () => {
    const agent = completePipeline('rag');
    const { service, builds } = setUp(agent);
    expect((await refusal(service.download(OWNER, agent.id, 'rag', 'nope'))).detail).toBe(
      'Build not found.',
    );
    expect((await refusal(service.download(OWNER, agent.id, 'rag'))).detail).toBe(
      'There is no finished build of this agent to download yet.',
    );
    builds.latestBuiltOwned.mockResolvedValue(
      buildRow(agent, { status: 'Built', artifact: 'a.zip' }),
    );
    expect((await refusal(service.download(OWNER, agent.id, 'rag'))).detail).toBe(
      'The build output is missing; build the agent again.',
    );
  });
});
