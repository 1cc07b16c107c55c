import { startLlmTestServer, type LlmTestServer } from '@agentloom/agent-runtime/testing';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateProject, ProjectInputError, type GeneratedFile, type ProjectInput } from '.';
import { sha256Of } from '../builds/project-sources';
import { universeVenv } from '../testing/python-tools';
import {
  addTextSource,
  embeddedTexts,
  removeSource,
  reportCounts,
  runIndex,
} from '../testing/reindex-check';
import {
  chunksFile,
  csvPath,
  ragConfig,
  ragInput,
  text,
  useSourceCsv,
} from './generate-project.spec-helper';
import { LOCKS_DIR } from './lock-file';
import { PINS } from './requirements';

useSourceCsv();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'agentloom-sources-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HOSTILE_NAME = 'Price list <2026> | `x` ../../etc.pdf';

async function manySources(): Promise<ProjectInput> {
  const pdf = path.join(dir, 'prices.pdf');
  await writeFile(pdf, '%PDF-1.4 stand-in');
  return ragInput({
    sources: [
      {
        key: 'k-sales',
        name: 'sales.csv',
        primary: true,
        file: { type: 'csv', path: csvPath, sha256: await sha256Of(csvPath) },
      },
      { key: 'k-prices', name: HOSTILE_NAME, file: { type: 'pdf', path: pdf } },
      { key: 'k-gone', name: 'gone.txt', file: { type: 'text_file', path: '' } },
      {
        key: 'k-orders',
        name: 'orders',
        table: { type: 'postgres', database: 'shop', table: 'orders' },
      },
      { key: 'k-notes', name: 'notes', table: { type: 'mongo', database: 'crm', table: 'notes' } },
      {
        key: 'k-docs',
        name: 'https://example.com/docs',
        web: { url: 'https://example.com/docs', max_pages: 20, sitemap: false },
      },
    ],
  });
}

const manifestOf = (files: GeneratedFile[]) =>
  JSON.parse(text(files, 'agent.json')) as { sources: Record<string, unknown>[] };

describe('a project with several knowledge sources', () => {
  it('lists every source in agent.json and ships every file under data/', async () => {
    const files = await generateProject(await manySources());

    expect(manifestOf(files).sources).toEqual([
      {
        key: 'k-sales',
        name: 'sales.csv',
        kind: 'file',
        type: 'csv',
        file: 'data/source.csv',
        sha256: await sha256Of(csvPath),
      },
      {
        key: 'k-prices',
        name: HOSTILE_NAME,
        kind: 'file',
        type: 'pdf',
        file: 'data/Price-list-2026-x-.-.-etc.pdf',
      },
      {
        key: 'k-orders',
        name: 'orders',
        kind: 'table',
        type: 'postgres',
        database: 'shop',
        table: 'orders',
        url_env: 'DATABASE_URL',
      },
      {
        key: 'k-notes',
        name: 'notes',
        kind: 'table',
        type: 'mongo',
        database: 'crm',
        table: 'notes',
        url_env: 'DATABASE_URL_2',
      },
      {
        key: 'k-docs',
        name: 'https://example.com/docs',
        kind: 'web',
        type: 'web',
        url: 'https://example.com/docs',
        max_pages: 20,
        sitemap: false,
      },
    ]);
    const data = files.filter((file) => file.path.startsWith('data/'));
    expect(data.map((file) => [file.path, 'sourcePath' in file && file.sourcePath])).toEqual([
      ['data/Price-list-2026-x-.-.-etc.pdf', path.join(dir, 'prices.pdf')],
      ['data/curated_answers.json', false],
      ['data/source.csv', csvPath],
    ]);
  });

  it('asks for each table’s URL, installs each reader, and README says how to change them', async () => {
    const files = await generateProject(await manySources());

    const env = text(files, '.env.example');
    expect(env).toMatch(/^DATABASE_URL=$/m);
    expect(env).toMatch(/^DATABASE_URL_2=$/m);
    expect(env).toMatch(/Mongo.*whose url_env in agent.json is DATABASE_URL_2/);
    // Table names are the owner's: never in .env.example.
    expect(env).not.toMatch(/orders|notes/);
    const requirements = text(files, 'requirements.txt');
    for (const pin of [PINS.pypdf, PINS.pandas, PINS.psycopg2, PINS.pymongo, PINS.html5lib]) {
      expect(requirements).toContain(pin);
    }
    const readme = text(files, 'README.md');
    expect(readme).toContain('## Knowledge sources');
    expect(readme).toContain('these 5 sources');
    expect(readme).toContain(
      '| **Price list \\<2026\\> \\| \\`x\\` ../../etc.pdf** | PDF file | `data/Price-list-2026-x-.-.-etc.pdf` |',
    );
    expect(readme).toContain('| **notes** | MongoDB collection | `DATABASE_URL_2` in `.env` |');
    expect(readme).toContain('**Replace a file.**');
    expect(readme).toContain('**Refresh a table or web pages.**');
    expect(readme).toContain('**Remove a source.**');
    expect(text(files, 'Dockerfile')).toContain('chown agent .agent-index');
    expect(text(files, 'docker-compose.yml')).toContain('agent-index:/app/.agent-index');
  });

  it('lists the wizard’s one source for builds that name none', async () => {
    const files = await generateProject(ragInput());
    expect(manifestOf(files).sources).toEqual([
      { key: 'source', name: 'sales.csv', kind: 'file', type: 'csv', file: 'data/source.csv' },
    ]);
  });

  it('refuses sources that cannot work', async () => {
    const one = (source: NonNullable<ProjectInput['sources']>[number]) =>
      generateProject(ragInput({ sources: [source, { ...source }] }));
    await expect(
      one({ key: 'a', name: 'x', table: { type: 'postgres', database: 'd', table: 't' } }),
    ).rejects.toThrow(new ProjectInputError('Two knowledge sources share the key a.'));
    await expect(
      generateProject(
        ragInput({ sources: [{ key: 'a', name: 'x.exe', file: { type: 'exe', path: csvPath } }] }),
      ),
    ).rejects.toThrow('x.exe: a exe file cannot be a source.');
    await expect(
      generateProject(
        ragInput({
          sources: [
            {
              key: 'a',
              name: 'x',
              web: { url: 'file:///etc/passwd', max_pages: 1, sitemap: false },
            },
          ],
        }),
      ),
    ).rejects.toThrow('file:///etc/passwd is not a web address.');
  });
});

describe('python -m agent index, with the locked libraries', () => {
  let llm: LlmTestServer;
  beforeAll(async () => {
    llm = await startLlmTestServer();
  });
  afterAll(async () => {
    await llm?.close();
  });

  it('embeds only what changed: a source added, a file replaced, a source removed', async () => {
    const python = universeVenv(path.join(LOCKS_DIR, 'main.lock'));
    const handbook = path.join(dir, 'handbook.txt');
    await writeFile(
      handbook,
      'Refunds are paid back to the card used for the order within five working days of the ' +
        'return reaching our warehouse in Lyon, France.\n\nShipping to Norway takes two weeks ' +
        'by road, and parcels above twenty kilograms travel by sea from Rotterdam.',
    );
    const input = ragInput({
      config: ragConfig({
        source_type: 'text_file',
        file: {
          ...ragConfig().file!,
          original_name: 'handbook.txt',
          summary: { kind: 'text_file', lines: 3, characters: 60 },
        },
        embedding_model: 'text-embedding-3-small',
        llm: { provider: 'openai', model: 'gpt-4o-mini' },
        retrieval: { chunk_size: 200, chunk_overlap: 0 },
      }),
      sourceFile: { path: handbook, dataFileName: 'source.txt' },
      sources: [
        {
          key: 'handbook',
          name: 'handbook.txt',
          primary: true,
          file: { type: 'text_file', path: handbook },
        },
      ],
    });
    const project = path.join(dir, 'project');
    for (const file of await generateProject(input)) {
      await mkdir(path.dirname(path.join(project, file.path)), { recursive: true });
      if ('sourcePath' in file) await copyFile(file.sourcePath, path.join(project, file.path));
      else await writeFile(path.join(project, file.path), file.content);
    }
    const key = 'sk-reindex-unit';
    const env = {
      OPENAI_API_KEY: key,
      OPENAI_BASE_URL: `${llm.url}/v1`,
      VECTOR_STORE: 'memory',
      HOME: os.tmpdir(),
    };
    const index = async () => {
      const from = llm.requests.length;
      const { run, said } = await runIndex(python, project, env);
      if (run.status !== 0) throw new Error(run.stderr);
      return { ...reportCounts(said), said, texts: embeddedTexts(llm, key, from) };
    };

    const first = await index();
    expect(first).toMatchObject({ embedded: 2, kept: 0, removed: 0 });
    expect(first.texts).toHaveLength(2);

    const again = await index();
    expect(again).toMatchObject({ embedded: 0, kept: 2, removed: 0, texts: [] });
    expect(again.said).toBe('Nothing changed: embedded nothing, kept 2 passages.');

    await addTextSource(project, 'prices', 'prices.txt', 'A coffee costs three euros.');
    const added = await index();
    expect(added).toMatchObject({ embedded: 1, kept: 2, removed: 0 });
    expect(added.texts).toEqual(['A coffee costs three euros.']);

    await writeFile(path.join(project, 'data', 'prices.txt'), 'A coffee costs four euros.');
    const replaced = await index();
    expect(replaced).toMatchObject({ embedded: 1, kept: 2, removed: 1 });
    expect(replaced.texts).toEqual(['A coffee costs four euros.']);

    await removeSource(project, 'prices');
    const removed = await index();
    expect(removed).toMatchObject({ embedded: 0, kept: 2, removed: 1, texts: [] });
  }, 300_000);
});

describe('shipped passages', () => {
  it('carry their source key in data/chunks.jsonl', async () => {
    const file = await chunksFile([
      {
        text: 'a',
        source: 'docs',
        url: 'https://example.com/a',
        section: 'Intro',
        source_key: 'k',
      },
    ]);
    const files = await generateProject(ragInput({ chunksFile: file }));
    expect(text(files, 'data/chunks.jsonl')).toBe(
      '{"id":"chunk-000000","text":"a","source":"docs","url":"https://example.com/a","section":"Intro","source_key":"k"}\n',
    );
  });
});
