import type { TUploadSummary } from '@agentloom/contracts';
import type { Build, KnowledgeSource, Pipeline, Prisma } from '@agentloom/db';
import { Vault } from '@agentloom/vault';
import { Logger } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { BuildQueue, QueueUnavailableError } from '../builds/build-queue';
import type { PipelineStorage } from '../pipelines/pipeline-storage';
import type { DataSourcesService } from '../sources/data-sources.service';
import type { UploadsService } from '../sources/uploads.service';
import {
  buildRow,
  completePipeline,
  fakeOf,
  OWNER,
  PipelineRows,
  pipelinesOver,
  refusal,
  sourceRow,
  STRANGER,
  unitConfig,
} from '../testing/unit-rows';
import { KnowledgeQueue, KnowledgeQueueUnavailableError } from './knowledge-queue';
import type { KnowledgeRepository } from './knowledge.repository';
import {
  FILES_ARE_REPLACED,
  KnowledgeService,
  ONLY_FILES_REPLACED,
  PRIMARY_NOT_REMOVED,
  REFRESH_UNAVAILABLE,
  SCHEDULE_UNAVAILABLE,
  SOURCE_NOT_FOUND,
  SQL_AGENTS_HAVE_ONE_SOURCE,
} from './knowledge.service';

const MB = 1024 * 1024;
const TABLE_SETTINGS = {
  table: {
    type: 'postgres',
    uri: 'postgresql://reader:****@db/shop',
    database: 'shop',
    table: 'orders',
    approximate_rows: 10,
  },
};

beforeAll(() => {
  Logger.overrideLogger(false);
});

/** The knowledge_sources rows of one agent, as KnowledgeRepository answers them. */
function sourceRows(agent: Pipeline, ...initial: KnowledgeSource[]) {
  const rows = new Map(initial.map((row) => [row.id, row]));
  const found = (pipelineId: string, id: string) => {
    const row = rows.get(id);
    return row && row.pipelineId === pipelineId && row.status !== 'removed' ? row : null;
  };
  return {
    rows,
    findActive: jest.fn((pipelineId: string, id: string) => Promise.resolve(found(pipelineId, id))),
    create: jest.fn((data: Prisma.KnowledgeSourceUncheckedCreateInput) => {
      const row = sourceRow(agent, {
        ...(data as Partial<KnowledgeSource>),
        id: data.id ?? randomUUID(),
      });
      rows.set(row.id, row);
      return Promise.resolve(row);
    }),
    update: jest.fn((id: string, data: Prisma.KnowledgeSourceUpdateInput) => {
      const { contentVersion, ...plain } = data as Partial<KnowledgeSource> & {
        contentVersion?: { increment: number };
      };
      const before = rows.get(id)!;
      const row = {
        ...before,
        ...plain,
        contentVersion: before.contentVersion + (contentVersion?.increment ?? 0),
      };
      rows.set(id, row);
      return Promise.resolve(row);
    }),
    latestBuilt: jest.fn<Promise<Build | null>, [string]>().mockResolvedValue(null),
    startKnowledgeBuild: jest.fn<Promise<Build | null>, [Pipeline, Build, unknown]>(),
    abandonBuild: jest.fn().mockResolvedValue(undefined),
    addedFileBytes: jest.fn().mockResolvedValue(0),
    ensurePrimary: jest.fn((pipeline: Pipeline) =>
      Promise.resolve(
        [...rows.values()].find((row) => row.primary && row.pipelineId === pipeline.id) ?? null,
      ),
    ),
  };
}

function setUp(agent: Pipeline, ...sources: KnowledgeSource[]) {
  const pipelines = new PipelineRows(agent);
  const knowledge = sourceRows(agent, ...sources);
  const storage = {
    keepUpload: jest.fn((_id: string, _path: string, extension: string) =>
      Promise.resolve(`kept-${randomUUID().slice(0, 8)}${extension}`),
    ),
    removeUpload: jest.fn().mockResolvedValue(undefined),
  };
  const summaries: Record<string, TUploadSummary> = {
    markdown: { kind: 'markdown', sections: 2, characters: 300, headings: ['Prices'] },
    csv: { kind: 'csv', columns: ['item', 'price'], rows: 4 },
    docx: { kind: 'docx', sections: 1, characters: 40, headings: [] },
  };
  const uploads = {
    inspect: jest.fn((_user: string, _path: string, kind: string) =>
      Promise.resolve(summaries[kind]),
    ),
  };
  const queue = {
    refreshNow: jest.fn<Promise<void>, [string]>().mockResolvedValue(),
    schedule: jest.fn<Promise<void>, [string, string]>().mockResolvedValue(),
  };
  const builds = { enqueue: jest.fn<Promise<void>, [string]>().mockResolvedValue() };
  const service = new KnowledgeService(
    unitConfig({ MAX_STORED_BYTES_PER_USER: 10 * MB }),
    pipelinesOver(pipelines),
    pipelines.asRepository(),
    fakeOf<KnowledgeRepository>(knowledge),
    fakeOf<PipelineStorage>(storage),
    fakeOf<UploadsService>(uploads),
    fakeOf<DataSourcesService>({}),
    new Vault(randomBytes(32)),
    fakeOf<KnowledgeQueue>(queue),
    fakeOf<BuildQueue>(builds),
  );
  return { service, pipelines, knowledge, storage, uploads, queue, builds };
}

const upload = (originalName: string, size = 1000) => ({
  path: '/tmp/multer-upload',
  originalName,
  size,
});

describe('KnowledgeService: whose agent, which kind', () => {
  it("another user's agent is a 404, and a SQL agent has no knowledge sources (422)", async () => {
    const rag = completePipeline('rag');
    const sql = completePipeline('sql');
    const { service } = setUp(rag);
    expect(await refusal(service.addFile(STRANGER, rag.id, upload('a.md')))).toEqual({
      status: 404,
      detail: 'Agent not found.',
    });
    const onSql = setUp(sql).service;
    expect(await refusal(onSql.list(OWNER, sql.id))).toEqual({
      status: 422,
      detail: SQL_AGENTS_HAVE_ONE_SOURCE,
    });
  });
});

describe('KnowledgeService.addFile', () => {
  it('refuses a file it cannot read, naming it, before anything is kept', async () => {
    const agent = completePipeline('rag');
    const { service, storage, uploads } = setUp(agent);
    expect(await refusal(service.addFile(OWNER, agent.id, upload('setup.exe')))).toEqual({
      status: 415,
      detail:
        'An agent reads PDF, CSV, Excel (.xlsx), TXT, Word (.docx), Markdown and HTML files; "setup.exe" is not one of them.',
    });
    expect(uploads.inspect).not.toHaveBeenCalled();
    expect(storage.keepUpload).not.toHaveBeenCalled();
  });

  it("refuses a file past the account's storage, counting wizard and added files (413)", async () => {
    const agent = completePipeline('rag');
    const { service, pipelines, knowledge, storage } = setUp(agent);
    pipelines.otherUploads = 6 * MB;
    knowledge.addedFileBytes.mockResolvedValue(3 * MB);
    expect(await refusal(service.addFile(OWNER, agent.id, upload('a.md', 2 * MB)))).toEqual({
      status: 413,
      detail:
        "Your agents' files already take 9 MB of the 10 MB an account may store. Remove a source or delete an agent, then upload again.",
    });
    expect(storage.keepUpload).not.toHaveBeenCalled();
    // Exactly at the limit is allowed.
    await service.addFile(OWNER, agent.id, upload('a.md', 1 * MB));
    expect(storage.keepUpload).toHaveBeenCalledTimes(1);
  });

  it('keeps a file of a never-built agent as a source, and starts no build', async () => {
    const agent = completePipeline('rag');
    const { service, knowledge, builds } = setUp(agent);
    const view = await service.addFile(OWNER, agent.id, upload('notes.md', 300));
    expect(view).toMatchObject({ kind: 'file', source_type: 'markdown', name: 'notes.md' });
    expect(view.file?.summary.kind).toBe('markdown');
    const created = knowledge.create.mock.calls[0]![0];
    expect(created.fingerprint).toMatch(/^file:kept-[0-9a-f]{8}\.md$/);
    expect(knowledge.startKnowledgeBuild).not.toHaveBeenCalled();
    expect(builds.enqueue).not.toHaveBeenCalled();
  });

  it('on a built agent, starts a knowledge build naming the change, and enqueues it', async () => {
    const agent = completePipeline('rag', { status: 'Built' });
    const { service, knowledge, builds } = setUp(agent);
    const base = buildRow(agent, { status: 'Built' });
    const next = buildRow(agent, { trigger: 'knowledge' });
    knowledge.latestBuilt.mockResolvedValue(base);
    knowledge.startKnowledgeBuild.mockResolvedValue(next);
    const view = await service.addFile(OWNER, agent.id, upload('notes.md'));
    expect(knowledge.startKnowledgeBuild).toHaveBeenCalledWith(agent, base, [
      { source_id: view.id, name: 'notes.md', change: 'added' },
    ]);
    expect(builds.enqueue).toHaveBeenCalledWith(next.id);
  });

  it('keeps the change when a build runs (it waits) or the queue is down (build undone)', async () => {
    const agent = completePipeline('rag', { status: 'Built' });
    const { service, knowledge, builds } = setUp(agent);
    knowledge.latestBuilt.mockResolvedValue(buildRow(agent, { status: 'Built' }));
    knowledge.startKnowledgeBuild.mockResolvedValueOnce(null);
    await service.addFile(OWNER, agent.id, upload('one.md'));
    expect(builds.enqueue).not.toHaveBeenCalled();

    const next = buildRow(agent);
    knowledge.startKnowledgeBuild.mockResolvedValueOnce(next);
    builds.enqueue.mockRejectedValueOnce(new QueueUnavailableError('timeout'));
    expect((await service.addFile(OWNER, agent.id, upload('two.md'))).name).toBe('two.md');
    expect(knowledge.abandonBuild).toHaveBeenCalledWith(next, 'Built');
    expect(knowledge.rows.size).toBe(2);
  });
});

describe('KnowledgeService.replace and remove', () => {
  it('404 for a malformed id (nothing asked), a removed source and one of another agent', async () => {
    const agent = completePipeline('rag');
    const removed = sourceRow(agent, { status: 'removed' });
    const elsewhere = sourceRow(completePipeline('rag'));
    const { service, knowledge } = setUp(agent, removed, elsewhere);
    const notFound = { status: 404, detail: SOURCE_NOT_FOUND };
    expect(await refusal(service.replace(OWNER, agent.id, 'x', upload('a.csv')))).toEqual(notFound);
    expect(knowledge.findActive).not.toHaveBeenCalled();
    for (const id of [removed.id, elsewhere.id]) {
      expect(await refusal(service.replace(OWNER, agent.id, id, upload('a.csv')))).toEqual(
        notFound,
      );
    }
  });

  it('only a file takes a new version (422 for a table)', async () => {
    const agent = completePipeline('rag');
    const table = sourceRow(agent, {
      kind: 'table',
      sourceType: 'postgres',
      settings: TABLE_SETTINGS,
    });
    const { service } = setUp(agent, table);
    expect(await refusal(service.replace(OWNER, agent.id, table.id, upload('a.csv')))).toEqual({
      status: 422,
      detail: ONLY_FILES_REPLACED,
    });
  });

  it("the wizard's source takes the wizard's kinds only; the refused upload is deleted", async () => {
    const agent = completePipeline('rag');
    const primary = sourceRow(agent, { primary: true, name: 'sales.csv' });
    const { service, storage } = setUp(agent, primary);
    const refused = await refusal(service.replace(OWNER, agent.id, primary.id, upload('a.docx')));
    expect(refused.status).toBe(415);
    expect(refused.detail).toMatch(/^The agent’s first source takes a PDF, CSV, Excel/);
    const kept = await (storage.keepUpload.mock.results[0]!.value as Promise<string>);
    expect(storage.removeUpload).toHaveBeenCalledWith(agent.id, kept);
  });

  it("a new version of the wizard's source changes the agent's wizard too", async () => {
    const agent = completePipeline('rag');
    const primary = sourceRow(agent, { primary: true, name: 'sales.csv' });
    const { service, storage, pipelines } = setUp(agent, primary);
    await service.replace(OWNER, agent.id, primary.id, upload('sales-2026.csv'));
    const now = pipelines.get(agent.id);
    expect(now.sourceFile).toMatch(/^kept-[0-9a-f]{8}\.csv$/);
    expect(now.config).toMatchObject({
      source_type: 'csv',
      file: { original_name: 'sales-2026.csv' },
    });
    // The wizard's previous upload is deleted once the row no longer names it.
    expect(storage.removeUpload).toHaveBeenCalledWith(agent.id, 'stored-sales.csv');
  });

  it('a new version: counts up, waits to be read, and the old file is deleted', async () => {
    const agent = completePipeline('rag');
    const file = sourceRow(agent);
    const { service, storage, pipelines } = setUp(agent, file);
    // The replaced version's 120 bytes are not counted: without that, this upload would not fit.
    pipelines.otherUploads = 10 * MB - 1000;
    const view = await service.replace(
      OWNER,
      agent.id,
      file.id,
      upload('prices-2.csv', 1000 + 120),
    );
    expect(view).toMatchObject({ name: 'prices-2.csv', version: 2, status: 'waiting' });
    expect(storage.removeUpload).toHaveBeenCalledWith(agent.id, 'stored-prices.csv');
  });

  it("the wizard's source cannot be removed (409)", async () => {
    const agent = completePipeline('rag');
    const primary = sourceRow(agent, { primary: true });
    const { service, knowledge } = setUp(agent, primary);
    expect(await refusal(service.remove(OWNER, agent.id, primary.id))).toEqual({
      status: 409,
      detail: PRIMARY_NOT_REMOVED,
    });
    expect(knowledge.update).not.toHaveBeenCalled();
  });

  it('removing a scheduled source ends its schedule and builds without it', async () => {
    const agent = completePipeline('rag', { status: 'Built' });
    const table = sourceRow(agent, {
      kind: 'table',
      sourceType: 'postgres',
      name: 'orders',
      refresh: 'daily',
      settings: TABLE_SETTINGS,
    });
    const { service, knowledge, queue } = setUp(agent, table);
    knowledge.latestBuilt.mockResolvedValue(buildRow(agent, { status: 'Built' }));
    knowledge.startKnowledgeBuild.mockResolvedValue(buildRow(agent));
    await service.remove(OWNER, agent.id, table.id);
    expect(knowledge.update).toHaveBeenCalledWith(table.id, { status: 'removed', refresh: 'off' });
    expect(queue.schedule).toHaveBeenCalledWith(table.id, 'off');
    expect(knowledge.startKnowledgeBuild.mock.calls[0]![2]).toEqual([
      { source_id: table.id, name: 'orders', change: 'removed' },
    ]);
  });
});

describe('KnowledgeService.refresh and schedule', () => {
  const agent = completePipeline('rag');
  const table = () =>
    sourceRow(agent, { kind: 'table', sourceType: 'postgres', settings: TABLE_SETTINGS });

  it('a file is replaced, not refreshed or scheduled (422); turning its schedule off is fine', async () => {
    const file = sourceRow(agent);
    const { service, queue } = setUp(agent, file);
    const replaced = { status: 422, detail: FILES_ARE_REPLACED };
    expect(await refusal(service.refresh(OWNER, agent.id, file.id))).toEqual(replaced);
    expect(await refusal(service.schedule(OWNER, agent.id, file.id, 'hourly'))).toEqual(replaced);
    expect(queue.refreshNow).not.toHaveBeenCalled();
    expect((await service.schedule(OWNER, agent.id, file.id, 'off')).refresh).toBe('off');
  });

  it('a table is refreshed through the queue, and 503 in words when the queue is down', async () => {
    const source = table();
    const { service, queue } = setUp(agent, source);
    expect((await service.refresh(OWNER, agent.id, source.id)).id).toBe(source.id);
    expect(queue.refreshNow).toHaveBeenCalledWith(source.id);
    queue.refreshNow.mockRejectedValue(new KnowledgeQueueUnavailableError('timeout'));
    expect(await refusal(service.refresh(OWNER, agent.id, source.id))).toEqual({
      status: 503,
      detail: REFRESH_UNAVAILABLE,
    });
  });

  it('turning a paused schedule on again starts its count afresh', async () => {
    const paused = sourceRow(agent, {
      ...table(),
      id: randomUUID(),
      status: 'paused',
      failedRefreshes: 3,
    });
    const { service, queue, knowledge } = setUp(agent, paused);
    const view = await service.schedule(OWNER, agent.id, paused.id, 'hourly');
    expect(queue.schedule).toHaveBeenCalledWith(paused.id, 'hourly');
    expect(knowledge.update).toHaveBeenCalledWith(paused.id, {
      refresh: 'hourly',
      failedRefreshes: 0,
      status: 'failed',
    });
    expect(view).toMatchObject({ refresh: 'hourly', status: 'failed' });
  });

  it('a schedule the queue cannot take changes nothing (503)', async () => {
    const source = table();
    const { service, queue, knowledge } = setUp(agent, source);
    queue.schedule.mockRejectedValue(new KnowledgeQueueUnavailableError('timeout'));
    expect(await refusal(service.schedule(OWNER, agent.id, source.id, 'daily'))).toEqual({
      status: 503,
      detail: SCHEDULE_UNAVAILABLE,
    });
    expect(knowledge.update).not.toHaveBeenCalled();
  });
});
