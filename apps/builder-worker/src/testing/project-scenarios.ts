import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TLlmProvider, TRagPipelineConfig, TSqlPipelineConfig } from '@agentloom/contracts';
import {
  generateProject,
  writeChunksJsonl,
  projectFolderName,
  type ProjectInput,
  type ProjectSource,
  type SourceChunk,
} from '../generator';
import {
  CURATED_ANSWERS,
  csvChunks,
  database,
  HOSTILE,
  HOSTILE_TABLE,
  orderChunks,
  textChunks,
  uploaded,
  writeFixtureFiles,
} from './scenario-fixtures';

/**
 * A spread of agent configurations that together cover every option of the wizard (both UIs,
 * every vector store, local and OpenAI embeddings, every SQL framework, file and database
 * sources, every provider, hostile names), with the source files they read. The generator's
 * checks (generated-projects.spec.ts) and the live check of the projects with their real
 * libraries (agents.live-spec.ts) generate the same projects.
 */

// ---- scenarios ----

export interface Scenario {
  title: string;
  input: Omit<ProjectInput, 'sourceFile' | 'chunksFile'>;
  fixture?: { kind: 'pdf' | 'csv' | 'excel' | 'text_file'; file: string };
  /** RAG: chunks prepared "at build time", written with writeChunksJsonl as the worker does. */
  chunks?: SourceChunk[];
  /** The vector store's extra compose services. */
  services?: string[];
  /** RAG: knowledge sources, their files' paths relative to the fixtures. */
  sources?: ProjectSource[];
}

let counter = 0;
function sessionId(): string {
  counter += 1;
  return `3f2a6c1e-9b7d-4c1a-8e2f-${String(counter).padStart(12, '0')}`;
}

const llm = (provider: TLlmProvider, model: string) => ({ provider, model });

function rag(
  title: string,
  config: Omit<TRagPipelineConfig, 'agent_type'>,
  extra: Partial<Scenario> & Pick<ProjectInput, 'curatedAnswers'> & { name?: string } = {},
): Scenario {
  return {
    title,
    fixture: extra.fixture,
    services: extra.services,
    chunks: extra.chunks,
    input: {
      ...(extra.sources && { sources: extra.sources }),
      ...(extra.curatedAnswers && { curatedAnswers: extra.curatedAnswers }),
      sessionId: sessionId(),
      agentType: 'rag',
      name: extra.name ?? `Helpful ${title}`,
      config: {
        agent_type: 'rag',
        system_prompt: 'You answer questions about the company documents.',
        ...config,
      },
    },
  };
}

function sql(
  title: string,
  config: Omit<TSqlPipelineConfig, 'agent_type'>,
  extra: Partial<Scenario> & Pick<ProjectInput, 'curatedAnswers'> & { name?: string } = {},
): Scenario {
  return {
    title,
    fixture: extra.fixture,
    input: {
      ...(extra.curatedAnswers && { curatedAnswers: extra.curatedAnswers }),
      sessionId: sessionId(),
      agentType: 'sql',
      name: extra.name ?? `Analyst ${title}`,
      config: { agent_type: 'sql', system_prompt: 'You are a careful data analyst.', ...config },
    },
  };
}

export const SCENARIOS: Scenario[] = [
  rag(
    'RAG csv + chromadb + streamlit + MiniLM-L6 + openai, with chunks',
    {
      source_type: 'csv',
      file: uploaded('csv', 'sales.csv'),
      embedding_model: 'all-MiniLM-L6-v2',
      vector_store: { vector_db: 'chromadb', url: 'http://localhost:8000', dimensions: 384 },
      llm: llm('openai', 'gpt-4o-mini'),
      ui: 'streamlit',
    },
    {
      fixture: { kind: 'csv', file: 'sales.csv' },
      chunks: csvChunks,
      services: ['chromadb'],
      curatedAnswers: CURATED_ANSWERS,
    },
  ),
  rag(
    'RAG pdf + qdrant + gradio + bge + claude, read from the file',
    {
      source_type: 'pdf',
      file: uploaded('pdf', 'policy.pdf'),
      embedding_model: 'bge-small-en',
      vector_store: { vector_db: 'qdrant', url: 'http://localhost:6333', distance_metric: 'dot' },
      llm: llm('claude', 'claude-3.5-haiku-20241022'),
      ui: 'gradio',
    },
    {
      fixture: { kind: 'pdf', file: 'policy.pdf' },
      services: ['qdrant'],
      curatedAnswers: CURATED_ANSWERS,
    },
  ),
  rag(
    'RAG excel + milvus + streamlit + e5 + groq',
    {
      source_type: 'excel',
      file: uploaded('excel', 'sales.xlsx'),
      embedding_model: 'e5-small-v2',
      vector_store: {
        vector_db: 'milvus',
        url: 'http://localhost:19530',
        distance_metric: 'euclidean',
      },
      llm: llm('groq', 'llama-3.1-8b-instant'),
      ui: 'streamlit',
    },
    { fixture: { kind: 'excel', file: 'sales.xlsx' }, services: ['milvus', 'etcd', 'minio'] },
  ),
  rag(
    'RAG text + pinecone + gradio + ada-002 + gemini, with chunks',
    {
      source_type: 'text_file',
      file: uploaded('text_file', 'policy.txt'),
      embedding_model: 'text-embedding-ada-002',
      vector_store: { vector_db: 'pinecone', environment: 'us-east-1', index_name: 'docs' },
      llm: llm('gemini', 'gemini-2.0-flash'),
      ui: 'gradio',
    },
    { fixture: { kind: 'text_file', file: 'policy.txt' }, chunks: textChunks, services: [] },
  ),
  rag(
    'RAG text + pdf + chromadb + gradio + 3-small + openai, several sources with chunks',
    {
      source_type: 'text_file',
      file: uploaded('text_file', 'policy.txt'),
      embedding_model: 'text-embedding-3-small',
      vector_store: { vector_db: 'chromadb', url: 'http://localhost:8000' },
      llm: llm('openai', 'gpt-4o-mini'),
      ui: 'gradio',
    },
    {
      fixture: { kind: 'text_file', file: 'policy.txt' },
      // The text file's passages are shipped; the PDF is read by the agent itself.
      chunks: textChunks.map((chunk) => ({ ...chunk, source_key: 'policy' })),
      sources: [
        {
          key: 'policy',
          name: 'policy.txt',
          primary: true,
          file: { type: 'text_file', path: 'policy.txt' },
        },
        { key: 'handbook', name: 'handbook.pdf', file: { type: 'pdf', path: 'policy.pdf' } },
      ],
      services: ['chromadb'],
    },
  ),
  rag(
    'RAG postgres + qdrant + streamlit + t5 + deepseek, with chunks',
    {
      source_type: 'postgres',
      database: database('postgres', 'orders'),
      embedding_model: 'sentence-t5-base',
      vector_store: { vector_db: 'qdrant', url: 'http://qdrant.internal:6333' },
      llm: llm('deepseek', 'deepseek-chat'),
      ui: 'streamlit',
    },
    { chunks: orderChunks, services: ['qdrant'] },
  ),
  rag(
    'RAG mongo + chromadb + gradio + MiniLM-L12 + claude',
    {
      source_type: 'mongo',
      database: database('mongo', 'articles'),
      embedding_model: 'all-MiniLM-L12-v2',
      vector_store: { vector_db: 'chromadb', url: 'http://localhost:8000' },
      llm: llm('claude', 'claude-3.7-sonnet-20250219'),
      ui: 'gradio',
    },
    { services: ['chromadb'] },
  ),
  rag(
    'RAG mysql + milvus + gradio + hostile name, prompt and table',
    {
      source_type: 'mysql',
      database: database('mysql', HOSTILE_TABLE),
      embedding_model: 'all-MiniLM-L6-v2',
      vector_store: { vector_db: 'milvus', url: 'http://localhost:19530' },
      llm: llm('openai', 'gpt-4.1'),
      system_prompt: HOSTILE,
      ui: 'gradio',
    },
    { name: HOSTILE, services: ['milvus', 'etcd', 'minio'] },
  ),
  sql(
    'SQL sql_query_file + csv + streamlit',
    {
      source_type: 'csv',
      file: uploaded('csv', 'sales.csv'),
      llm: llm('openai', 'gpt-4o'),
      framework: 'sql_query_file',
      ui: 'streamlit',
    },
    { fixture: { kind: 'csv', file: 'sales.csv' } },
  ),
  sql(
    'SQL sql_query_file + excel + gradio',
    {
      source_type: 'excel',
      file: uploaded('excel', 'sales.xlsx'),
      llm: llm('claude', 'claude-4-opus-20250522'),
      framework: 'sql_query_file',
      ui: 'gradio',
    },
    { fixture: { kind: 'excel', file: 'sales.xlsx' }, curatedAnswers: CURATED_ANSWERS },
  ),
  sql(
    'SQL pandasai + csv + streamlit',
    {
      source_type: 'csv',
      file: uploaded('csv', 'sales.csv'),
      llm: llm('gemini', 'gemini-1.5-flash'),
      framework: 'pandasai',
      ui: 'streamlit',
    },
    { fixture: { kind: 'csv', file: 'sales.csv' } },
  ),
  sql(
    'SQL pandasai + excel + gradio',
    {
      source_type: 'excel',
      file: uploaded('excel', 'sales.xlsx'),
      llm: llm('openai', 'gpt-4.1-mini'),
      framework: 'pandasai',
      ui: 'gradio',
    },
    { fixture: { kind: 'excel', file: 'sales.xlsx' } },
  ),
  sql(
    'SQL vannaai_file + csv + gradio',
    {
      source_type: 'csv',
      file: uploaded('csv', 'sales.csv'),
      llm: llm('groq', 'llama-3.3-70b-versatile'),
      framework: 'vannaai_file',
      ui: 'gradio',
    },
    { fixture: { kind: 'csv', file: 'sales.csv' } },
  ),
  sql('SQL vannaai_db + postgres + streamlit', {
    source_type: 'postgres',
    database: database('postgres', 'sales'),
    llm: llm('deepseek', 'deepseek-reasoner'),
    framework: 'vannaai_db',
    ui: 'streamlit',
  }),
  sql('SQL sql_query_db + mysql + gradio', {
    source_type: 'mysql',
    database: database('mysql', 'sales'),
    llm: llm('openai', 'gpt-4o-mini'),
    framework: 'sql_query_db',
    ui: 'gradio',
  }),
  sql(
    'SQL sql_query_db + sqlite + streamlit + hostile name, prompt and table',
    {
      source_type: 'sqlite',
      database: database('sqlite', HOSTILE_TABLE),
      llm: llm('claude', 'claude-3.5-haiku-20241022'),
      system_prompt: HOSTILE,
      framework: 'sql_query_db',
      ui: 'streamlit',
    },
    { name: HOSTILE },
  ),
];

export interface GeneratedScenario {
  scenario: Scenario;
  /** The project folder, named as in the zip. */
  dir: string;
  /** Every file of the project, relative to `dir`. */
  paths: string[];
}

/** Writes the fixtures and every scenario's project under `root`. */
export async function writeScenarioProjects(
  root: string,
  scenarios: readonly Scenario[] = SCENARIOS,
): Promise<GeneratedScenario[]> {
  const fixtures = path.join(root, 'fixtures');
  await writeFixtureFiles(fixtures);
  const extensions = { pdf: '.pdf', csv: '.csv', excel: '.xlsx', text_file: '.txt' };

  return Promise.all(
    scenarios.map(async (scenario) => {
      const input: ProjectInput = { ...scenario.input };
      input.sources = input.sources?.map((source) =>
        source.file
          ? { ...source, file: { ...source.file, path: path.join(fixtures, source.file.path) } }
          : source,
      );
      if (scenario.fixture) {
        input.sourceFile = {
          path: path.join(fixtures, scenario.fixture.file),
          dataFileName: `source${extensions[scenario.fixture.kind]}`,
        };
      }
      if (scenario.chunks) {
        input.chunksFile = path.join(fixtures, `chunks-${input.sessionId}.jsonl`);
        await writeChunksJsonl(input.chunksFile, [scenario.chunks]);
      }
      const files = await generateProject(input);
      const dir = path.join(root, projectFolderName(input.agentType, input.sessionId));
      for (const file of files) {
        await mkdir(path.dirname(path.join(dir, file.path)), { recursive: true });
        const target = path.join(dir, file.path);
        if ('sourcePath' in file) await copyFile(file.sourcePath, target);
        else await writeFile(target, file.content);
      }
      return { scenario, dir, paths: files.map((file) => file.path) };
    }),
  );
}
