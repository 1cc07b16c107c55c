// Shared by the generateProject specs: the inputs they build projects from, and file readers.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TRagPipelineConfig, TSqlPipelineConfig } from '@agentloom/contracts';
import { writeChunksJsonl, type GeneratedFile, type ProjectInput, type SourceChunk } from '.';

export const SESSION = '0b5e1f9a-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const NOW = '2026-11-21T10:00:00.000Z';

/** The uploaded CSV the RAG and PandasAI inputs point at: written by useSourceCsv(). */
export let csvPath: string;

/** Call at the top of a spec file that generates projects from the inputs below. */
export function useSourceCsv(): void {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'agentloom-generate-'));
    csvPath = path.join(dir, 'upload.csv');
    await writeFile(csvPath, 'region,amount\nNorth,10\n');
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
}

export function ragConfig(overrides: Partial<TRagPipelineConfig> = {}): TRagPipelineConfig {
  return {
    agent_type: 'rag',
    source_type: 'csv',
    file: {
      original_name: 'sales.csv',
      size_bytes: 20,
      summary: { kind: 'csv', columns: ['region', 'amount'], rows: 1 },
      uploaded_at: NOW,
    },
    embedding_model: 'all-MiniLM-L6-v2',
    vector_store: { vector_db: 'qdrant', url: 'http://localhost:6333', dimensions: 384 },
    llm: { provider: 'claude', model: 'claude-3.5-haiku-20241022' },
    system_prompt: 'Be helpful.',
    ui: 'streamlit',
    ...overrides,
  };
}

export function ragInput(overrides: Partial<ProjectInput> = {}): ProjectInput {
  return {
    sessionId: SESSION,
    agentType: 'rag',
    name: 'Sales helper',
    config: ragConfig(),
    sourceFile: { path: csvPath, dataFileName: 'source.csv' },
    ...overrides,
  };
}

export function sqlInput(config: Partial<TSqlPipelineConfig> = {}): ProjectInput {
  return {
    sessionId: SESSION,
    agentType: 'sql',
    name: 'Sales analyst',
    config: {
      agent_type: 'sql',
      source_type: 'postgres',
      database: {
        type: 'postgres',
        uri: 'postgresql://app:****@db.example.com/shop',
        database: 'shop',
        table: 'sales',
        columns: [{ name: 'id', type: 'integer' }],
        approximate_rows: 10,
        checked_at: NOW,
      },
      llm: { provider: 'openai', model: 'gpt-4o-mini' },
      system_prompt: 'Be precise.',
      framework: 'sql_query_db',
      ui: 'gradio',
      ...config,
    },
  };
}

/** A PandasAI agent over the sales CSV (PandasAI serves file sources only). */
export function pandasaiInput(): ProjectInput {
  return {
    ...sqlInput({
      source_type: 'csv',
      database: undefined,
      file: ragConfig().file,
      framework: 'pandasai',
    }),
    sourceFile: { path: csvPath, dataFileName: 'source.csv' },
  };
}

/** A generated file's bytes, whether held in memory or copied from disk when zipped. */
export const bytesOf = (file: GeneratedFile): Buffer =>
  'sourcePath' in file ? readFileSync(file.sourcePath) : Buffer.from(file.content);

export const text = (files: GeneratedFile[], file: string): string => {
  const found = files.find((candidate) => candidate.path === file);
  if (!found) throw new Error(`${file} was not generated`);
  return bytesOf(found).toString();
};

/** A chunks file as the worker writes it. */
export async function chunksFile(chunks: SourceChunk[]): Promise<string> {
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'chunks-')), 'chunks.jsonl');
  await writeChunksJsonl(file, [chunks]);
  return file;
}
