import {
  SQL_BUILD_STAGES,
  type TDatabaseSource,
  type TStoredPipelineConfig,
} from '@agentloom/contracts';
import { storeKeys } from '@agentloom/server-kit';
import type { PrismaClient } from '@agentloom/db';
import { peopleWorkbook, twoPagePdf } from '@agentloom/source-readers/testing';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WorkerConfig } from '../config/env';
import {
  seedBuild,
  TEST_LLM_KEY,
  testPrisma,
  testWorkerConfig,
  type SeedOptions,
} from '../testing/build-fixtures';
import {
  createPostgresSource,
  dropPostgresSource,
  POSTGRES_SOURCE_DB,
  startTcpForwarder,
  type TestTcpServer,
} from '@agentloom/data-sources/testing';
import { readZip } from '@agentloom/test-kit';
import { installLockedProject } from '../testing/python-tools';
import { runProcess } from '../testing/run-process';
import { startWorkerHarness } from '../testing/worker-harness';

/*
 * One build per source type and per SQL framework, through the real queue and worker. Each zip
 * is unpacked and checked the way a user's CI would: every file compiles, pyflakes is clean and
 * the project's own tests pass under Debian's Python (modules needing packages Debian lacks are
 * imported lazily by the project, so its tests still run).
 */

const DB_PASSWORD = 'Db-Pa55word-Never-Shipped';
const PINECONE_KEY = 'pcsk_WorkerSpecPinecone0123456789';
const NOW = new Date().toISOString();

const base = (config: TStoredPipelineConfig): TStoredPipelineConfig => ({
  system_prompt: 'Answer only from the data you were given.',
  ui: 'streamlit',
  ...config,
});
const chroma = {
  vector_db: 'chromadb',
  url: 'http://chroma:8000',
  dimensions: 384,
  distance_metric: 'cosine',
} as const;
const database = (type: TDatabaseSource['type'], table: string): TDatabaseSource => ({
  type,
  uri: `${type}://app:****@db.internal:5432/shop`,
  database: 'shop',
  table,
  columns: [
    { name: 'id', type: 'integer' },
    { name: 'status', type: 'text' },
  ],
  approximate_rows: 2,
  checked_at: NOW,
});
const SALES_CSV = 'region,product,amount\nNorth,Widget,120\nSouth,Gadget,80\n';
const csvUpload = {
  originalName: 'sales.csv',
  content: SALES_CSV,
  summary: { kind: 'csv' as const, columns: ['region', 'product', 'amount'], rows: 2 },
};
const TEXT = 'Refund policy.\n\nCustomers may return any item within 30 days of delivery.\n';

interface Case {
  title: string;
  seed: () => Promise<SeedOptions>;
  /** The chunks the build must ship, or undefined when the agent reads its source itself. */
  chunks?: (chunks: Array<Record<string, unknown>>) => void;
  /** Passages the build's hosted index holds, when the case checks it. */
  indexed?: number;
  files: string[];
}

const CASES: Case[] = [
  {
    title: 'RAG · PDF · Qdrant · Gradio · Claude',
    seed: async () => ({
      upload: {
        originalName: 'handbook.pdf',
        content: await twoPagePdf(),
        summary: { kind: 'pdf', pages: 2, characters: 30 },
      },
      config: base({
        source_type: 'pdf',
        embedding_model: 'all-MiniLM-L12-v2',
        vector_store: { ...chroma, vector_db: 'qdrant', url: 'http://qdrant:6333' },
        llm: { provider: 'claude', model: 'claude-3.5-haiku-20241022' },
        ui: 'gradio',
      }),
    }),
    chunks: (chunks) =>
      expect(chunks).toEqual([
        expect.objectContaining({ id: 'chunk-000000', source: 'handbook.pdf', page: 1 }),
        expect.objectContaining({ id: 'chunk-000001', source: 'handbook.pdf', page: 2 }),
      ]),
    files: ['data/source.pdf', 'agent/stores/qdrant_store.py'],
  },
  {
    title: 'RAG · Excel · Milvus · Streamlit · Groq',
    seed: async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'xlsx-'));
      return {
        upload: {
          originalName: 'people.xlsx',
          content: await readFile(await peopleWorkbook(dir)),
          summary: {
            kind: 'excel',
            sheet: 'People',
            sheets: ['People', 'Notes'],
            columns: ['Name', 'Age', 'City'],
            rows: 5,
          },
        },
        config: base({
          source_type: 'excel',
          embedding_model: 'bge-small-en',
          vector_store: { ...chroma, vector_db: 'milvus', url: 'http://milvus:19530' },
          llm: { provider: 'groq', model: 'llama-3.1-8b-instant' },
        }),
      };
    },
    chunks: (chunks) => {
      expect(chunks).toHaveLength(5);
      expect(chunks[0]).toEqual({
        id: 'chunk-000000',
        text: 'Name: Ada\nAge: 36\nCity: London',
        source: 'people.xlsx',
        row: 1,
        // Recorded under the wizard source's key, so the project's incremental index finds it.
        source_key: 'source',
      });
      expect(chunks[2]).toMatchObject({ text: 'Name: Cé\nAge: 29\nCity: Zürich', row: 3 });
    },
    files: ['data/source.xlsx', 'agent/stores/milvus_store.py'],
  },
  {
    title: 'RAG · TXT · Pinecone · Gradio · Gemini',
    seed: () =>
      Promise.resolve({
        upload: {
          originalName: 'policy.txt',
          content: TEXT,
          summary: { kind: 'text_file', lines: 3, characters: TEXT.length },
        },
        vectorDbApiKey: PINECONE_KEY,
        config: base({
          source_type: 'text_file',
          embedding_model: 'text-embedding-ada-002',
          vector_store: {
            vector_db: 'pinecone',
            environment: 'us-west1-gcp',
            index_name: 'policies',
          },
          llm: { provider: 'gemini', model: 'gemini-2.0-flash' },
          ui: 'gradio',
        }),
      }),
    chunks: (chunks) =>
      expect(chunks).toEqual([
        {
          id: 'chunk-000000',
          text: 'Refund policy.\n\nCustomers may return any item within 30 days of delivery.',
          source: 'policy.txt',
          source_key: 'source',
        },
      ]),
    files: ['agent/stores/pinecone_store.py'],
  },
  {
    // A real table: the worker reads it into the agent's index (through the data-sources guard,
    // at an address that is not the platform's own Postgres).
    title: 'RAG · Postgres table · ChromaDB · Streamlit · DeepSeek',
    seed: () =>
      Promise.resolve({
        sourceUri: `postgresql://postgres@127.0.0.1:${sourcePort}/${POSTGRES_SOURCE_DB}`,
        config: base({
          source_type: 'postgres',
          database: {
            ...database('postgres', 'tickets'),
            uri: `postgresql://postgres@127.0.0.1:${sourcePort}/${POSTGRES_SOURCE_DB}`,
            database: POSTGRES_SOURCE_DB,
            approximate_rows: 25,
          },
          embedding_model: 'e5-small-v2',
          vector_store: chroma,
          llm: { provider: 'deepseek', model: 'deepseek-chat' },
        }),
      }),
    indexed: 25,
    files: ['agent/db.py', 'agent/stores/chroma_store.py'],
  },
  ...(
    [
      ['pandasai', 'csv'],
      ['vannaai_file', 'excel'],
      ['sql_query_file', 'csv'],
      ['vannaai_db', 'postgres'],
      ['sql_query_db', 'mysql'],
    ] as const
  ).map(([framework, source]): Case => ({
    title: `SQL · ${framework} · ${source}`,
    seed: async () => {
      const common = {
        agentType: 'sql' as const,
        config: base({
          source_type: source,
          framework,
          llm: { provider: 'openai', model: 'gpt-4o-mini' },
          ui: framework.endsWith('db') ? 'gradio' : 'streamlit',
        }),
      };
      if (source === 'csv') return { ...common, upload: csvUpload };
      if (source === 'excel') {
        const dir = await mkdtemp(path.join(os.tmpdir(), 'xlsx-'));
        return {
          ...common,
          upload: {
            originalName: 'people.xlsx',
            content: await readFile(await peopleWorkbook(dir)),
            summary: {
              kind: 'excel' as const,
              sheet: 'People',
              sheets: ['People', 'Notes'],
              columns: ['Name', 'Age', 'City'],
              rows: 5,
            },
          },
        };
      }
      const scheme = source === 'postgres' ? 'postgresql' : 'mysql';
      return {
        ...common,
        config: { ...common.config, database: database(source, 'orders') },
        sourceUri: `${scheme}://app:${DB_PASSWORD}@db.internal/shop`,
      };
    },
    files: ['agent/engine.py', 'tests/test_engine.py'],
  })),
];

let sourcePort = 0;

describe('Builds of every source type and SQL framework', () => {
  let config: WorkerConfig;
  let prisma: PrismaClient;
  let harness: Awaited<ReturnType<typeof startWorkerHarness>>;
  let unpacked: string;
  let forwarder: TestTcpServer;

  beforeAll(async () => {
    await createPostgresSource();
    forwarder = await startTcpForwarder(5432);
    sourcePort = forwarder.port;
    config = testWorkerConfig();
    prisma = testPrisma(config);
    harness = await startWorkerHarness(config);
    unpacked = await mkdtemp(path.join(os.tmpdir(), 'agentloom-built-'));
  });
  afterAll(async () => {
    await harness.close();
    await forwarder.close();
    await dropPostgresSource();
    await prisma.$disconnect();
    await rm(config.DATA_DIR, { recursive: true, force: true });
    await rm(unpacked, { recursive: true, force: true });
  });

  it.each(CASES.map((testCase) => [testCase.title, testCase] as const))(
    '%s',
    async (_title, testCase) => {
      const options = await testCase.seed();
      const { pipelineId, buildId } = await seedBuild(prisma, config, options);
      await harness.runBuild(buildId);

      const build = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
      expect([build.status, build.error]).toEqual(['Built', null]);
      if (testCase.indexed !== undefined) {
        expect((build.hostedIndex as { chunks: number }).chunks).toBe(testCase.indexed);
      }
      if (options.agentType === 'sql') {
        expect((build.stages as Array<{ key: string }>).map((stage) => stage.key)).toEqual([
          ...SQL_BUILD_STAGES,
        ]);
      }
      // The build's scratch folder is gone; exactly one zip is left.
      await expect(readFile(path.join(config.DATA_DIR, 'work', buildId))).rejects.toThrow();

      const type = options.agentType ?? 'rag';
      const zip = await readZip(
        path.join(config.DATA_DIR, storeKeys.artifact(pipelineId, storeKeys.artifactName(buildId))),
      );
      const root = `${type}-agent-${pipelineId}/`;
      const present = (file: string) => [file, zip.has(root + file)];
      for (const file of [
        'app.py',
        'agent.json',
        'prompts/system.txt',
        'requirements.txt',
        'Dockerfile',
        'docker-compose.yml',
        '.env.example',
        '.github/workflows/ci.yml',
        'README.md',
        ...testCase.files,
      ]) {
        expect(present(file)).toEqual([file, true]);
      }
      if (testCase.chunks) {
        const lines = zip.get(`${root}data/chunks.jsonl`)!.toString('utf8').trim().split('\n');
        testCase.chunks(lines.map((line) => JSON.parse(line) as Record<string, unknown>));
      } else {
        expect(present('data/chunks.jsonl')).toEqual(['data/chunks.jsonl', false]);
      }
      for (const [name, content] of zip) {
        for (const secret of [TEST_LLM_KEY, DB_PASSWORD, PINECONE_KEY]) {
          expect([name, content.includes(secret)]).toEqual([name, false]);
        }
      }

      // Unpack, install from its own locks into a new virtual environment as its README says,
      // and check it like the project's own CI would, with the real libraries.
      const dir = path.join(unpacked, buildId);
      for (const [name, content] of zip) {
        if (name.endsWith('/')) continue;
        const target = path.join(dir, name);
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(target, content);
      }
      const project = path.join(dir, root);
      const interpreter = installLockedProject(
        project,
        path.join(dir, '.venv'),
        'requirements-dev.txt',
      );
      const python = async (...args: string[]) => {
        const { status, stdout, stderr } = await runProcess(interpreter, args, project, 120_000);
        return [status, stdout + stderr];
      };
      expect(await python('-m', 'compileall', '-q', 'app.py', 'agent', 'tests')).toEqual([0, '']);
      expect(await python('-m', 'pyflakes', 'app.py', 'agent', 'tests')).toEqual([0, '']);
      expect(await python('-m', 'pytest', '-q', '-p', 'no:cacheprovider')).toEqual([
        0,
        expect.stringMatching(/\d+ passed/),
      ]);
    },
    180_000,
  );

  it('profiling the schema refuses an SQL source with a header and no rows, with a reason', async () => {
    const { buildId } = await seedBuild(prisma, config, {
      agentType: 'sql',
      upload: {
        originalName: 'empty.csv',
        content: 'region,amount\n',
        summary: { kind: 'csv', columns: ['region', 'amount'], rows: 0 },
      },
      config: base({
        source_type: 'csv',
        framework: 'sql_query_file',
        llm: { provider: 'openai', model: 'gpt-4o-mini' },
      }),
    });
    await expect(harness.runBuild(buildId)).rejects.toThrow('empty.csv has no data rows');
    const build = await prisma.build.findUniqueOrThrow({ where: { id: buildId } });
    expect(build).toMatchObject({
      status: 'Failed',
      error: 'empty.csv has no data rows to query; upload a file with data.',
    });
    expect((build.stages as Array<{ key: string }>).at(-1)?.key).toBe('profile_schema');
  });
});
