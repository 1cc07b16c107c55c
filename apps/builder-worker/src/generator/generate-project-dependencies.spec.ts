import { generateProject, type GeneratedFile } from '.';
import {
  pandasaiInput,
  ragConfig,
  ragInput,
  sqlInput,
  text,
  useSourceCsv,
} from './generate-project.spec-helper';
import { PINS } from './requirements';

useSourceCsv();

describe('generateProject', () => {
  it('pins only what the chosen options need', async () => {
    const requirements = (files: GeneratedFile[]) =>
      text(files, 'requirements.txt')
        .split('\n')
        .filter((line) => line && !line.startsWith('#'));

    const ragFiles = await generateProject(ragInput());
    const rag = requirements(ragFiles);
    for (const line of rag) expect(line).toMatch(/^[A-Za-z0-9_.-]+==\d[\w.+]*$/);
    expect(rag).toEqual(
      expect.arrayContaining([
        PINS.anthropic,
        PINS.streamlit,
        PINS.qdrant,
        PINS.fastembed,
        PINS.pandas,
      ]),
    );
    expect(rag.join('\n')).not.toMatch(
      /gradio|chromadb|pymilvus|pinecone|pypdf|pandasai|vanna|litellm|openai|google-genai|torch|sentence-transformers/,
    );

    const sql = requirements(await generateProject(sqlInput()));
    expect(sql).toEqual(
      expect.arrayContaining([PINS.openai, PINS.gradio, PINS.sqlalchemy, PINS.psycopg2]),
    );
    expect(sql.join('\n')).not.toMatch(/anthropic|google-genai/);
    expect(sql.join('\n')).not.toMatch(/streamlit|sentence-transformers|torch|qdrant/);

    const pandasai = requirements(await generateProject(pandasaiInput()));
    expect(pandasai).toEqual(
      expect.arrayContaining([PINS.pandasai, PINS.pandasForPandasAI, PINS.openaiForPandasAI]),
    );
    expect(pandasai).not.toContain(PINS.pandas);
  });

  it('locks every package it installs with hashes; a local model on ONNX Runtime, PyTorch apart for GPUs', async () => {
    const files = await generateProject(ragInput());
    const lock = text(files, 'requirements.lock');
    const entries = lock.split('\n').filter((line) => /^[a-z0-9]/i.test(line));
    // Direct pins and what they need, e.g. FastEmbed's ONNX Runtime and Qdrant's grpc.
    for (const pin of [PINS.anthropic, PINS.streamlit, PINS.qdrant, PINS.fastembed]) {
      expect(entries).toContain(`${pin.toLowerCase()} \\`);
    }
    expect(entries.some((line) => line.startsWith('onnxruntime=='))).toBe(true);
    // Issue 43, item 10: the CPU install carries no PyTorch, transformers or CUDA.
    expect(lock).not.toMatch(
      /^(torch|sentence-transformers|transformers|nvidia-[a-z0-9-]+|triton)==/m,
    );
    for (const entry of lock.split(/\n(?=[a-z0-9])/i).slice(1)) {
      expect(entry).toMatch(/--hash=sha256:[0-9a-f]{64}/);
    }
    // For a GPU: sentence-transformers and PyPI's torch with what they bring beyond the lock
    // (CUDA's libraries on Linux, marked so), and nothing the lock has already.
    const gpu = text(files, 'requirements-gpu.lock');
    expect(gpu).toMatch(/^torch==2\.\d+\.\d+ \\$/m);
    expect(gpu).toMatch(/^sentence-transformers==[\d.]+ \\$/m);
    expect(gpu).toMatch(/^transformers==/m);
    expect(gpu).toMatch(/^nvidia-[a-z0-9-]+==[^;]+; .*sys_platform == 'linux'/m);
    const gpuNames = gpu.split('\n').filter((line) => /^[a-z0-9]/i.test(line));
    for (const line of gpuNames) expect(entries).not.toContain(line);
    expect(files.some((file) => /^requirements-torch/.test(file.path))).toBe(false);
    const dev = text(files, 'requirements-dev.txt');
    expect(dev).toMatch(/^-r requirements\.lock$/m);
    expect(dev).toMatch(/^pytest==/m);
    expect(text(files, '.env.example')).toMatch(/^EMBEDDING_RUNTIME=$/m);

    const openai = await generateProject(
      ragInput({ config: ragConfig({ embedding_model: 'text-embedding-ada-002' }) }),
    );
    expect(openai.some((file) => /^requirements-(gpu|torch)/.test(file.path))).toBe(false);
    expect(openai.some((file) => file.path === 'agent/local_model.py')).toBe(false);
    expect(text(openai, 'requirements.lock')).not.toMatch(
      /^(torch|sentence-transformers|fastembed)==/m,
    );
  });

  it('lists an unfixed advisory in the README and ignores exactly it in CI, only where locked', async () => {
    const vanna = await generateProject(sqlInput({ framework: 'vannaai_db' }));
    const readme = text(vanna, 'README.md');
    expect(readme).toContain('## Known vulnerabilities');
    expect(readme).toMatch(
      /\| vanna 2\.0\.2 \| CVE-2026-4229, GHSA-6mj8-jmp2-g8q7, PYSEC-2026-3397 \|/,
    );
    const audit = text(vanna, '.github/workflows/ci.yml')
      .split('\n')
      .find((line) => line.includes('pip-audit'));
    expect(audit).toMatch(
      / -r requirements\.lock --ignore-vuln GHSA-6mj8-jmp2-g8q7 --ignore-vuln PYSEC-2026-3397$/,
    );

    const plain = await generateProject(sqlInput());
    expect(text(plain, 'README.md')).not.toContain('Known vulnerabilities');
    expect(text(plain, '.github/workflows/ci.yml')).not.toContain('--ignore-vuln');
  });
});
