import type { Hit } from '@agentloom/agent-runtime';
import {
  DEFAULT_RETRIEVAL,
  OVERLAP_TOO_LARGE,
  RELEVANCE_THRESHOLDS,
  type TRetrievalSettings,
} from '@agentloom/contracts';
import type { Build, Pipeline, Prisma } from '@agentloom/db';
import type { AgentLoader } from '../agents/agent-loader';
import { buildInputsOf } from '../builds/build-changes';
import type { BuildsRepository } from '../builds/builds.repository';
import {
  buildRow,
  COMPLETE_RAG_ANSWERS,
  completePipeline,
  fakeOf,
  OWNER,
  PipelineRows,
  pipelinesOver,
  refusal,
  STRANGER,
} from '../testing/unit-rows';
import {
  ONLY_RAG_AGENTS_RETRIEVE,
  RetrievalService,
  SETTINGS_WHILE_BUILDING,
  TEST_NEEDS_BUILD,
} from './retrieval.service';

/** A RAG agent whose stored answers hold these retrieval settings. */
function ragAgent(retrieval: Partial<TRetrievalSettings>, overrides: Partial<Pipeline> = {}) {
  return completePipeline('rag', {
    config: { ...COMPLETE_RAG_ANSWERS, retrieval } as Prisma.JsonObject,
    ...overrides,
  });
}

/** A Built build made from the agent as it was then (its snapshot holds those settings). */
const builtFrom = (agentThen: Pipeline) =>
  buildRow(agentThen, {
    status: 'Built',
    snapshot: buildInputsOf(agentThen) as Prisma.JsonObject,
  });

function setUp(agent: Pipeline) {
  const rows = new PipelineRows(agent);
  const builds = {
    latestBuiltOwned: jest.fn<Promise<Build | null>, [string, string]>().mockResolvedValue(null),
  };
  const index = { search: jest.fn<Promise<Hit[]>, [string, number]>().mockResolvedValue([]) };
  const loader = { openIndex: jest.fn().mockResolvedValue(index) };
  const service = new RetrievalService(
    pipelinesOver(rows),
    rows.asRepository(),
    fakeOf<BuildsRepository>(builds),
    fakeOf<AgentLoader>(loader),
  );
  return { service, rows, builds, index, loader };
}

describe('RetrievalService: whose agent, which kind', () => {
  it("another user's agent is a 404; a SQL agent searches no passages (422)", async () => {
    const agent = ragAgent({});
    const { service } = setUp(agent);
    expect((await refusal(service.settings(STRANGER, agent.id))).status).toBe(404);
    const sql = completePipeline('sql');
    const onSql = setUp(sql).service;
    for (const call of [
      onSql.settings(OWNER, sql.id),
      onSql.update(OWNER, sql.id, { top_k: 2 }),
      onSql.test(OWNER, sql.id, 'North?'),
    ]) {
      expect(await refusal(call)).toEqual({ status: 422, detail: ONLY_RAG_AGENTS_RETRIEVE });
    }
  });
});

describe('RetrievalService.update (the settings form)', () => {
  it('refuses a change while the agent is being built (409), writing nothing', async () => {
    const agent = ragAgent({}, { status: 'Building' });
    const { service, rows } = setUp(agent);
    expect(await refusal(service.update(OWNER, agent.id, { top_k: 2 }))).toEqual({
      status: 409,
      detail: SETTINGS_WHILE_BUILDING,
    });
    expect(rows.writes).toEqual([]);
  });

  it("checks the overlap against the agent's own passage size, not the default", async () => {
    const agent = ragAgent({ chunk_size: 400 });
    const { service, rows } = setUp(agent);
    // 201 is fine against the default 800, but more than half of this agent's 400.
    expect(await refusal(service.update(OWNER, agent.id, { chunk_overlap: 201 }))).toEqual({
      status: 400,
      detail: OVERLAP_TOO_LARGE,
    });
    expect(rows.writes).toEqual([]);
    // Exactly half is allowed.
    const view = await service.update(OWNER, agent.id, { chunk_overlap: 200 });
    expect(view.settings).toMatchObject({ chunk_size: 400, chunk_overlap: 200 });
  });

  it('saves every setting with the rest of the answers untouched; nothing to rebuild before a build', async () => {
    const agent = ragAgent({ answer_only_from_sources: true });
    const { service, rows } = setUp(agent);
    const view = await service.update(OWNER, agent.id, { top_k: 6, search: 'meaning' });
    const expected = { ...DEFAULT_RETRIEVAL, answer_only_from_sources: true, top_k: 6 };
    expect(view).toEqual({
      settings: { ...expected, search: 'meaning' },
      built: null,
      build_needed: false,
      reembeds_everything: false,
    });
    expect(rows.get(agent.id).config).toMatchObject({
      system_prompt: COMPLETE_RAG_ANSWERS.system_prompt,
      retrieval: { ...expected, search: 'meaning' },
    });
  });

  it('after a build: a new top_k needs a build; a new passage size re-embeds everything', async () => {
    const agent = ragAgent({});
    const { service, builds } = setUp(agent);
    builds.latestBuiltOwned.mockResolvedValue(builtFrom(agent));
    expect(await service.update(OWNER, agent.id, { top_k: 8 })).toMatchObject({
      built: DEFAULT_RETRIEVAL,
      build_needed: true,
      reembeds_everything: false,
    });
    expect(await service.update(OWNER, agent.id, { chunk_size: 1200 })).toMatchObject({
      build_needed: true,
      reembeds_everything: true,
    });
    // Back to what was built: nothing to do.
    expect(
      await service.update(OWNER, agent.id, { top_k: DEFAULT_RETRIEVAL.top_k, chunk_size: 800 }),
    ).toMatchObject({ build_needed: false, reembeds_everything: false });
  });
});

describe('RetrievalService.test (the passages a question would read)', () => {
  const hit = (id: string, text: string, similarity: number): Hit => ({
    chunk: { id, text, source: 'sales.csv', row: 2 },
    score: similarity,
    similarity,
    found: 'meaning',
  });

  it('before a build: 422 in words, and no index is opened', async () => {
    const agent = ragAgent({});
    const { service, loader } = setUp(agent);
    expect(await refusal(service.test(OWNER, agent.id, 'North?'))).toEqual({
      status: 422,
      detail: TEST_NEEDS_BUILD,
    });
    expect(loader.openIndex).not.toHaveBeenCalled();
  });

  it("searches the newest build with the current settings and marks each passage's relevance", async () => {
    const agent = ragAgent({ top_k: 2, search: 'meaning', answer_only_from_sources: true });
    const { service, builds, loader, index } = setUp(agent);
    const build = builtFrom(agent);
    builds.latestBuiltOwned.mockResolvedValue(build);
    const threshold = RELEVANCE_THRESHOLDS['all-MiniLM-L6-v2'];
    index.search.mockResolvedValue([
      hit('a', 'North region total 12', threshold + 0.1),
      hit('b', 'unrelated words', threshold - 0.1),
    ]);
    const result = await service.test(OWNER, agent.id, 'What did the North sell?');
    expect(loader.openIndex).toHaveBeenCalledWith(agent, build, 'meaning');
    expect(index.search).toHaveBeenCalledWith('What did the North sell?', 2);
    expect(result.passages.map((p) => [p.id, p.relevant, p.found_by])).toEqual([
      ['a', true, 'meaning'],
      ['b', false, 'meaning'],
    ]);
    expect(result).toMatchObject({
      build_id: build.id,
      answers: true,
      relevance_threshold: threshold,
      note: null,
    });
    // A CSV row is cited as a spreadsheet numbers it (the header is row 1).
    expect(result.passages[0]!.citation).toBe('sales.csv, row 3');
  });

  it('says the agent would not answer when no passage is relevant and it answers only from sources', async () => {
    const agent = ragAgent({ answer_only_from_sources: true });
    const { service, builds, index } = setUp(agent);
    builds.latestBuiltOwned.mockResolvedValue(builtFrom(agent));
    index.search.mockResolvedValue([hit('b', 'unrelated words', 0.01)]);
    expect((await service.test(OWNER, agent.id, 'Penguins?')).answers).toBe(false);
  });

  it('notes that passages are cut as the last build cut them when the size changed since', async () => {
    const agent = ragAgent({ chunk_size: 1200 });
    const { service, builds } = setUp(agent);
    builds.latestBuiltOwned.mockResolvedValue(builtFrom(ragAgent({})));
    expect((await service.test(OWNER, agent.id, 'North?')).note).toBe(
      'These passages are cut as the last build cut them: the passage size you chose applies from the next build.',
    );
  });
});
