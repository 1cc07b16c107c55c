import type { Build, KnowledgeSource, Pipeline } from '@agentloom/db';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ragConfig } from '../generator/generate-project.spec-helper';
import { projectSources, sha256Of } from './project-sources';

const PIPELINE = '0b5e1f9a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const ids = {
  wizard: '11111111-1111-4111-8111-111111111111',
  file: '22222222-2222-4222-8222-222222222222',
  table: '33333333-3333-4333-8333-333333333333',
  web: '44444444-4444-4444-8444-444444444444',
  gone: '55555555-5555-4555-8555-555555555555',
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'project-sources-'));
  await writeFile(path.join(dir, 'wizard.csv'), 'region,amount\nNorth,10\n');
  await writeFile(path.join(dir, 'notes.md'), '# Notes\n\nRefunds take five days.\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const row = (id: string, fields: Partial<KnowledgeSource>) =>
  ({ id, primary: false, ...fields }) as KnowledgeSource;

const upload = ragConfig().file!;
const ROWS = [
  row(ids.wizard, {
    kind: 'file',
    sourceType: 'csv',
    name: 'sales.csv',
    primary: true,
    settings: { file: { stored_name: 'stored-wizard.csv', upload } },
  }),
  row(ids.file, {
    kind: 'file',
    sourceType: 'markdown',
    name: 'notes.md',
    settings: { file: { stored_name: 'stored-notes.md', upload } },
  }),
  row(ids.table, {
    kind: 'table',
    sourceType: 'postgres',
    name: 'orders',
    settings: {
      table: {
        type: 'postgres',
        uri: 'postgresql://app:****@db/shop',
        database: 'shop',
        table: 'orders',
        approximate_rows: 3,
      },
    },
  }),
  row(ids.web, {
    kind: 'web',
    sourceType: 'web',
    name: 'https://example.com/docs',
    settings: { web: { url: 'https://example.com/docs', max_pages: 5, sitemap: false, pages: 2 } },
  }),
];

function build(named: string[]): Build {
  const source = (id: string) => ({
    id,
    kind: 'file',
    source_type: 'csv',
    name: 'x',
    content_version: 1,
    fingerprint: 'f',
  });
  const snapshot = {
    config: ragConfig(),
    llm_key: null,
    vector_db_key: null,
    source_uri: null,
    source_file: 'stored-wizard.csv',
    sources: named.map(source),
  };
  return { id: 'b', snapshot } as unknown as Build;
}

const pipeline = { id: PIPELINE, agentType: 'rag', sourceFile: 'stored-wizard.csv' } as Pipeline;
const rows = {
  sources: (wanted: string[]) => Promise.resolve(ROWS.filter((r) => wanted.includes(r.id))),
};
const artifacts = {
  sourceFile: (pipelineId: string, stored: string) =>
    Promise.resolve(
      pipelineId !== PIPELINE
        ? null
        : stored === 'stored-wizard.csv'
          ? path.join(dir, 'wizard.csv')
          : stored === 'stored-notes.md'
            ? path.join(dir, 'notes.md')
            : null,
    ),
};

describe('projectSources', () => {
  it('gives every source the build names, in its order, files with their digests', async () => {
    const named = [ids.wizard, ids.file, ids.table, ids.web, ids.gone];
    const sources = await projectSources(build(named), pipeline, rows, artifacts);

    expect(sources).toEqual([
      {
        // The wizard's source by a key of its own, not its id: an imported copy builds the same.
        key: 'source',
        name: 'sales.csv',
        primary: true,
        file: {
          type: 'csv',
          path: path.join(dir, 'wizard.csv'),
          sha256: await sha256Of(path.join(dir, 'wizard.csv')),
        },
      },
      {
        key: ids.file,
        name: 'notes.md',
        primary: false,
        file: {
          type: 'markdown',
          path: path.join(dir, 'notes.md'),
          sha256: await sha256Of(path.join(dir, 'notes.md')),
        },
      },
      {
        key: ids.table,
        name: 'orders',
        table: { type: 'postgres', database: 'shop', table: 'orders' },
      },
      {
        key: ids.web,
        name: 'https://example.com/docs',
        web: { url: 'https://example.com/docs', max_pages: 5, sitemap: false },
      },
    ]);
    // The table's (redacted) connection never reaches the project.
    expect(JSON.stringify(sources)).not.toContain('app:');
  });

  it('leaves builds that name no sources to the wizard’s source', async () => {
    const old = { id: 'b', snapshot: { ...(build([]).snapshot as object), sources: undefined } };
    expect(
      await projectSources(old as unknown as Build, pipeline, rows, artifacts),
    ).toBeUndefined();
  });

  it('ships a file gone from the store as a source without a file', async () => {
    const missing = {
      sourceFile: (pipelineId: string, stored: string) =>
        stored === 'stored-notes.md'
          ? Promise.resolve(null)
          : artifacts.sourceFile(pipelineId, stored),
    };
    const sources = await projectSources(build([ids.file]), pipeline, rows, missing);
    expect(sources).toEqual([
      { key: ids.file, name: 'notes.md', primary: false, file: { type: 'markdown', path: '' } },
    ]);
  });
});
