import type { TUploadSummary } from '@agentloom/contracts';
import type { Pipeline, Prisma } from '@agentloom/db';
import type { PipelineStorage } from '../pipelines/pipeline-storage';
import type { DataSourcesService } from '../sources/data-sources.service';
import type { UploadsService } from '../sources/uploads.service';
import {
  COMPLETE_SQL_ANSWERS,
  completePipeline,
  fakeOf,
  OWNER,
  PipelineRows,
  pipelineRow,
  refusal,
  unitConfig,
  unitSecrets,
  wizardOver,
} from '../testing/unit-rows';
import { SourceStepService } from './source-step.service';

const MB = 1024 * 1024;
const SUMMARY: TUploadSummary = { kind: 'csv', columns: ['region', 'total'], rows: 3 };

function setUp(agent: Pipeline) {
  const rows = new PipelineRows(agent);
  const storage = {
    keepUpload: jest.fn().mockResolvedValue('kept-new.csv'),
    removeUpload: jest.fn().mockResolvedValue(undefined),
  };
  const uploads = { inspect: jest.fn().mockResolvedValue(SUMMARY) };
  const dataSources = { check: jest.fn() };
  const service = new SourceStepService(
    unitConfig({ MAX_STORED_BYTES_PER_USER: 10 * MB }),
    wizardOver(rows),
    unitSecrets(),
    fakeOf<PipelineStorage>(storage),
    fakeOf<UploadsService>(uploads),
    fakeOf<DataSourcesService>(dataSources),
  );
  return { service, rows, storage, uploads, dataSources };
}

const call = (agent: Pipeline) => ({
  userId: OWNER,
  sessionId: agent.id,
  agentType: agent.agentType,
});
const file = (originalName: string, size = 1000) => ({ path: '/tmp/upload', originalName, size });

describe('SourceStepService.saveUpload', () => {
  it('400 without a file', async () => {
    const agent = completePipeline('rag');
    const { service } = setUp(agent);
    expect(await refusal(service.saveUpload(call(agent), undefined))).toEqual({
      status: 400,
      detail: 'No file selected',
    });
  });

  it("asks for a file source type first, in each wizard's own words (422)", async () => {
    const rag = pipelineRow({ config: { source_type: 'postgres' } });
    expect(await refusal(setUp(rag).service.saveUpload(call(rag), file('a.csv')))).toEqual({
      status: 422,
      detail: 'Choose PDF, CSV, Excel or TXT as the source type before uploading a file.',
    });
    const sql = pipelineRow({ agentType: 'sql' });
    expect((await refusal(setUp(sql).service.saveUpload(call(sql), file('a.csv')))).detail).toBe(
      'Choose CSV or Excel as the source type before uploading a file.',
    );
  });

  it('takes only the extension of the chosen type (415), before reading the file', async () => {
    const csv = completePipeline('rag');
    const { service, uploads } = setUp(csv);
    expect(await refusal(service.saveUpload(call(csv), file('report.pdf')))).toEqual({
      status: 415,
      detail: 'A CSV source takes a .csv file; "report.pdf" is not one.',
    });
    expect(uploads.inspect).not.toHaveBeenCalled();
    const excel = pipelineRow({ config: { source_type: 'excel' } });
    expect(
      (await refusal(setUp(excel).service.saveUpload(call(excel), file('a.csv')))).detail,
    ).toBe('An Excel source takes a .xlsx file; "a.csv" is not one.');
  });

  it("refuses a file past the account's storage (413), before keeping it", async () => {
    const agent = completePipeline('rag');
    const { service, rows, storage } = setUp(agent);
    rows.otherUploads = 9 * MB;
    expect(await refusal(service.saveUpload(call(agent), file('a.csv', 1.5 * MB)))).toEqual({
      status: 413,
      detail:
        "Your agents' files already take 9 MB of the 10 MB an account may store. Delete an agent or remove its file, then upload again.",
    });
    expect(storage.keepUpload).not.toHaveBeenCalled();
  });

  it('a new file replaces the old one (deleted once the row no longer names it)', async () => {
    const agent = completePipeline('rag');
    const { service, rows, storage } = setUp(agent);
    const answer = await service.saveUpload(call(agent), file('sales-2026.csv'));
    expect(answer.message).toBe('sales-2026.csv uploaded.');
    const now = rows.get(agent.id);
    expect(now).toMatchObject({
      sourceFile: 'kept-new.csv',
      sourceUriEncrypted: null,
      config: { file: { original_name: 'sales-2026.csv', summary: SUMMARY } },
    });
    expect(storage.removeUpload).toHaveBeenCalledWith(agent.id, 'stored-sales.csv');
  });
});

describe('SourceStepService: source types and databases', () => {
  it('a SQL agent cannot use MongoDB (422)', async () => {
    const agent = pipelineRow({ agentType: 'sql' });
    const { service, dataSources } = setUp(agent);
    const refused = { status: 422, detail: 'SQL agents cannot use MongoDB as a source.' };
    expect(await refusal(service.setSourceType(call(agent), 'mongo'))).toEqual(refused);
    const mongo = { source_type: 'mongo' as const, uri: 'mongodb://h', database: 'd', table: 't' };
    expect(await refusal(service.saveDatabaseSource(call(agent), mongo))).toEqual(refused);
    expect(dataSources.check).not.toHaveBeenCalled();
  });

  it('a database needs a database source type (422)', async () => {
    const agent = completePipeline('rag');
    const { service } = setUp(agent);
    const request = { uri: 'postgresql://h/d', database: 'd', table: 't' };
    expect(await refusal(service.saveDatabaseSource(call(agent), request))).toEqual({
      status: 422,
      detail: 'Choose MySQL, Postgres or SQLite as the source type before connecting a database.',
    });
  });

  it('a new type clears the file and a framework that cannot serve it, and says so', async () => {
    const agent = completePipeline('sql');
    const { service, rows, storage } = setUp(agent);
    const answer = await service.setSourceType(call(agent), 'postgres');
    expect(answer.message).toBe(
      'Source type saved. The sql_query_file framework cannot serve a Postgres source, so it was cleared.',
    );
    const now = rows.get(agent.id);
    expect(now.sourceFile).toBeNull();
    const config = now.config as Prisma.JsonObject;
    expect(config).toMatchObject({ source_type: 'postgres', ui: COMPLETE_SQL_ANSWERS.ui });
    expect(config).not.toHaveProperty('file');
    expect(config).not.toHaveProperty('framework');
    expect(storage.removeUpload).toHaveBeenCalledWith(agent.id, 'stored-sales.csv');
  });

  it('the same type again changes nothing', async () => {
    const agent = completePipeline('sql');
    const { service, rows, storage } = setUp(agent);
    expect((await service.setSourceType(call(agent), 'csv')).message).toBe('Source type saved.');
    expect(rows.get(agent.id)).toMatchObject({ sourceFile: 'stored-sales.csv' });
    expect(storage.removeUpload).not.toHaveBeenCalled();
  });
});
