import { CURATED_MATCH_THRESHOLDS, CURATED_WORDS_OVERLAP } from '@agentloom/agent-runtime';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ProjectInputError,
  RAG_DEFAULTS,
  TEMPLATES_DIR,
  generateProject,
  generateProjectPart,
  planProject,
  projectFolderName,
  PROJECT_PARTS,
  type ProjectPart,
  type ProjectInput,
} from '.';
import {
  SESSION,
  bytesOf,
  chunksFile,
  csvPath,
  ragConfig,
  ragInput,
  sqlInput,
  text,
  useSourceCsv,
} from './generate-project.spec-helper';
import { markdownText } from './markdown';

// What the project installs is in generate-project-dependencies.spec.ts, how it is containerised
// in generate-project-dockerfile.spec.ts.

const HOSTILE =
  'Robert"); DROP TABLE x;-- """ ${process.env} {{7*7}} `rm -rf` \n../../etc/passwd @@UI_PORT@@';

useSourceCsv();

describe('projectFolderName', () => {
  it('names the zip folder after the type and session', () => {
    expect(projectFolderName('rag', SESSION)).toBe(`rag-agent-${SESSION}`);
    expect(projectFolderName('sql', SESSION)).toBe(`sql-agent-${SESSION}`);
  });

  it('refuses anything that is not a UUID', () => {
    expect(() => projectFolderName('rag', '../../etc')).toThrow(ProjectInputError);
  });
});

describe('generateProject', () => {
  it('writes agent.json with the whole configuration and no secret', async () => {
    const files = await generateProject(ragInput());
    const manifest = JSON.parse(text(files, 'agent.json')) as Record<string, unknown>;

    expect(manifest).toEqual({
      version: 1,
      generator: 'agentloom',
      session_id: SESSION,
      type: 'rag',
      name: 'Sales helper',
      prompt_file: 'prompts/system.txt',
      source: {
        type: 'csv',
        file: 'data/source.csv',
        original_name: 'sales.csv',
        columns: ['region', 'amount'],
      },
      llm: {
        provider: 'claude',
        model: 'claude-3.5-haiku-20241022',
        model_id: 'claude-3-5-haiku-20241022',
        api_key_env: 'ANTHROPIC_API_KEY',
        temperature: 0,
        max_tokens: 1024,
      },
      ui: { framework: 'streamlit', port: 8501 },
      embedding: {
        model: 'all-MiniLM-L6-v2',
        backend: 'sentence-transformers',
        model_id: 'sentence-transformers/all-MiniLM-L6-v2',
        dimensions: 384,
        query_prefix: '',
        passage_prefix: '',
        onnx: { model_id: 'Xenova/all-MiniLM-L6-v2', pooling: 'mean', max_tokens: 256 },
      },
      vector_store: {
        provider: 'qdrant',
        url: 'http://localhost:6333',
        collection: 'agent_0b5e1f9a2c3d4e5f8a9b0c1d2e3f4a5b',
        distance_metric: 'cosine',
        dimensions: 384,
      },
      sources: [
        { key: 'source', name: 'sales.csv', kind: 'file', type: 'csv', file: 'data/source.csv' },
      ],
      rag: {
        chunk_size: 800,
        chunk_overlap: 100,
        top_k: 4,
        search: 'both',
        answer_only_from_sources: false,
        relevance_threshold: 0.3,
        ...RAG_DEFAULTS,
      },
      curated: {
        file: 'data/curated_answers.json',
        compare: 'meaning',
        threshold: CURATED_MATCH_THRESHOLDS['all-MiniLM-L6-v2'],
      },
    });
  });

  it('ships the curated answers as data, compared as the hosted agent compares them', async () => {
    const curatedAnswers = [
      { id: '0b6c9f0e-3f7a-4c55-9a52-6f1d2f0a1c01', question: HOSTILE, answer: `${HOSTILE}\r\n` },
    ];
    const rag = await generateProject(ragInput({ curatedAnswers }));
    const sql = await generateProject({ ...sqlInput(), curatedAnswers });

    for (const files of [rag, sql]) {
      expect(JSON.parse(text(files, 'data/curated_answers.json'))).toEqual(curatedAnswers);
      for (const file of files.filter((f) => f.path.endsWith('.py'))) {
        expect([file.path, text(files, file.path).includes(HOSTILE)]).toEqual([file.path, false]);
      }
    }
    // A SQL agent has no embedding model: its questions are compared by shared words.
    expect(JSON.parse(text(sql, 'agent.json')).curated).toEqual({
      file: 'data/curated_answers.json',
      compare: 'words',
      threshold: CURATED_WORDS_OVERLAP,
    });
    expect(text(sql, 'README.md')).toContain('at least 60% of the content words');
    expect(text(rag, 'README.md')).toContain('cosine similarity of at least 0.75');
    expect(text(await generateProject(ragInput()), 'data/curated_answers.json')).toBe('[]\n');
  });

  it('cuts and searches as the owner set in the retrieval settings', async () => {
    const config = ragConfig({ retrieval: { chunk_size: 1200, chunk_overlap: 200, top_k: 6 } });
    const files = await generateProject(ragInput({ config }));
    const manifest = JSON.parse(text(files, 'agent.json')) as { rag: unknown };
    expect(manifest.rag).toMatchObject({ chunk_size: 1200, chunk_overlap: 200, top_k: 6 });
  });

  it('keeps the database details but never the connection URI', async () => {
    const files = await generateProject(sqlInput());
    const manifest = JSON.parse(text(files, 'agent.json')) as { source: unknown; sql: unknown };

    expect(manifest.source).toEqual({
      type: 'postgres',
      database: 'shop',
      table: 'sales',
      columns: [{ name: 'id', type: 'integer' }],
    });
    expect(manifest.sql).toEqual({
      framework: 'sql_query_db',
      max_rows: 200,
      timeout_seconds: 15,
    });
    for (const file of files) expect(bytesOf(file).toString()).not.toContain('db.example.com');
  });

  it('ships the system prompt byte for byte and the source file unchanged', async () => {
    const prompt = '  Line one\r\nline two\n\n\u2028 😀 """ {{x}} ';
    const files = await generateProject(ragInput({ config: ragConfig({ system_prompt: prompt }) }));

    const promptFile = files.find((file) => file.path === 'prompts/system.txt')!;
    expect(bytesOf(promptFile).equals(Buffer.from(prompt, 'utf8'))).toBe(true);
    const data = files.find((file) => file.path === 'data/source.csv')!;
    expect(bytesOf(data).equals(await readFile(csvPath))).toBe(true);
  });

  it('puts a hostile name only into data files and, escaped, into the README', async () => {
    const files = await generateProject(
      ragInput({ name: HOSTILE, config: ragConfig({ system_prompt: HOSTILE }) }),
    );

    expect((JSON.parse(text(files, 'agent.json')) as { name: string }).name).toBe(HOSTILE);
    expect(text(files, 'prompts/system.txt')).toBe(HOSTILE);
    const readme = text(files, 'README.md');
    expect(readme.split('\n')[0]).toBe(`# ${markdownText(HOSTILE)}`);
    expect(readme).not.toContain('`rm -rf`');
    // Every other file is a template copied as it is, or data that cannot hold the name.
    for (const file of files) {
      if (['agent.json', 'prompts/system.txt', 'README.md'].includes(file.path)) continue;
      expect(bytesOf(file).toString()).not.toContain('DROP TABLE x');
      expect(bytesOf(file).toString()).not.toContain('@@');
    }
  });

  it('copies Python templates verbatim: no string is ever interpolated into code', async () => {
    const files = await generateProject(ragInput({ name: HOSTILE }));
    const config = await readFile(path.join(TEMPLATES_DIR, 'common/agent/config.py'), 'utf8');

    expect(text(files, 'agent/config.py')).toBe(config);
    for (const file of files.filter((candidate) => candidate.path.endsWith('.py'))) {
      expect(bytesOf(file).toString()).not.toMatch(/@@[A-Z_]+@@/);
    }
  });

  it('returns sorted, relative POSIX paths inside the project', async () => {
    const files = await generateProject(
      ragInput({ chunksFile: await chunksFile([{ text: 'x', source: 's' }]) }),
    );
    const paths = files.map((file) => file.path);

    expect(paths).toEqual([...paths].sort());
    for (const file of paths) {
      expect(file).not.toMatch(/^\/|\\|(^|\/)\.\.?(\/|$)/);
    }
    expect(paths).toContain('data/chunks.jsonl');
    expect(paths).toContain('.github/workflows/ci.yml');
  });

  it('is made of parts that together are the whole project, each file in one part', async () => {
    for (const input of [ragInput(), sqlInput()]) {
      const whole = (await generateProject(input)).map((file) => file.path);
      const plan = planProject(input);
      const byPart = await Promise.all(
        PROJECT_PARTS.map(async (part) =>
          (await generateProjectPart(plan, part)).map((file) => file.path),
        ),
      );
      expect(byPart.flat().sort()).toEqual(whole);
    }
    const rag = planProject(ragInput());
    const paths = async (part: ProjectPart) =>
      (await generateProjectPart(rag, part)).map((file) => file.path).sort();
    expect(await paths('vector-store')).toEqual([
      'agent/stores/__init__.py',
      'agent/stores/base.py',
      'agent/stores/memory_store.py',
      'agent/stores/qdrant_store.py',
      'docker-compose.yml',
      'tests/test_vector_store.py',
    ]);
    expect(await paths('deployment')).toEqual(
      expect.arrayContaining(['.dockerignore', '.github/workflows/ci.yml', 'Dockerfile']),
    );
    expect(await paths('models')).toEqual(
      expect.arrayContaining(['.env.example', 'agent/llm.py', 'requirements.txt']),
    );
  });

  it('writes chunks one JSON object per line, whatever their text', async () => {
    const chunks = [
      { text: 'line\nbreak "quote" \u2028', source: 'a.pdf', page: 2 },
      { text: 'row', source: 'b.csv', row: 7 },
      { text: 'db row', source: 'orders', row: 1, ref: 'id=42' },
    ];
    const files = await generateProject(ragInput({ chunksFile: await chunksFile(chunks) }));
    const lines = text(files, 'data/chunks.jsonl').trimEnd().split('\n');

    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(
      chunks.map((chunk, index) => ({ id: `chunk-00000${index}`, ...chunk })),
    );
  });

  it('lists every variable the app reads in .env.example, with empty values', async () => {
    const pinecone = ragConfig({
      embedding_model: 'text-embedding-ada-002',
      vector_store: { vector_db: 'pinecone', environment: 'us-east-1', index_name: 'docs' },
    });
    const env = text(await generateProject(ragInput({ config: pinecone })), '.env.example');
    const names = env
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => {
        expect(line).toMatch(/^[A-Z_]+=$/);
        return line.slice(0, -1);
      });

    expect(names).toEqual([
      'ANTHROPIC_API_KEY',
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'PINECONE_API_KEY',
      'PINECONE_CLOUD',
      'VECTOR_STORE',
      'LLM_BASE_URL',
      'UI_PASSWORD',
      'UI_BIND_ADDRESS',
    ]);
    const sqlEnv = text(await generateProject(sqlInput()), '.env.example');
    expect(sqlEnv).toMatch(/^OPENAI_API_KEY=$/m);
    expect(sqlEnv).toMatch(/^DATABASE_URL=$/m);
    expect(sqlEnv).toContain('# Example: postgresql://USER:PASSWORD@HOST:5432/DBNAME');
  });

  it('refuses configurations that cannot make a working project', async () => {
    const refused = (input: ProjectInput) =>
      expect(generateProject(input)).rejects.toThrow(ProjectInputError);

    await refused(ragInput({ sessionId: 'not-a-uuid' }));
    await refused(
      ragInput({
        config: ragConfig({ llm: { provider: 'openai', model: 'claude-4-opus-20250522' } }),
      }),
    );
    await refused(
      ragInput({ config: ragConfig({ llm: { provider: 'openai', model: 'gpt 4o; rm -rf /' } }) }),
    );
    await refused(ragInput({ config: ragConfig({ embedding_model: undefined }) }));
    await refused(ragInput({ sourceFile: undefined }));
    await refused(ragInput({ sourceFile: { path: csvPath, dataFileName: '../x.csv' } }));
    await refused(ragInput({ sourceFile: { path: csvPath, dataFileName: 'source.pdf' } }));
    await expect(chunksFile([{ text: 'x', source: 's', row: 1.5 }])).rejects.toThrow(
      ProjectInputError,
    );
    await refused(sqlInput({ framework: 'pandasai' }));
    await refused({ ...sqlInput(), chunksFile: await chunksFile([]) });
    await refused(
      ragInput({ config: ragConfig({ vector_store: { vector_db: 'pinecone', index_name: 'x' } }) }),
    );
  });
});
