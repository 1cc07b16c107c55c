import { EMBEDDINGS, SQL_FRAMEWORKS_SPEC } from './catalog';
import type { AgentManifest } from './manifest';

/**
 * Pinned versions, chosen as one set known to install together on Python 3.11 (late 2024).
 * Some pins are not imported by the agent but keep their dependants working: see the notes.
 */
export const PINS = {
  litellm: 'litellm==1.51.0',
  openai: 'openai==1.54.3',
  // openai < 1.55.3 passes `proxies` to httpx, which httpx 0.28 removed.
  httpx: 'httpx==0.27.2',
  streamlit: 'streamlit==1.39.0',
  gradio: 'gradio==4.44.1',
  // Gradio 4.44 breaks on the JSON schemas of newer FastAPI/Pydantic releases.
  fastapi: 'fastapi==0.115.4',
  pydantic: 'pydantic==2.10.6',
  huggingfaceHub: 'huggingface_hub==0.26.2',
  chromadb: 'chromadb==0.5.15',
  qdrant: 'qdrant-client==1.12.0',
  milvus: 'pymilvus==2.4.9',
  pinecone: 'pinecone-client==5.0.1',
  sentenceTransformers: 'sentence-transformers==3.2.1',
  transformers: 'transformers==4.46.2',
  // The Dockerfile installs the CPU-only build of this version.
  torch: 'torch==2.5.1',
  numpy: 'numpy==1.26.4',
  pandas: 'pandas==2.2.3',
  // PandasAI 2.x requires exactly pandas 1.5.3.
  pandasForPandasAI: 'pandas==1.5.3',
  openpyxl: 'openpyxl==3.1.5',
  pypdf: 'pypdf==5.1.0',
  sqlalchemy: 'SQLAlchemy==2.0.36',
  psycopg2: 'psycopg2-binary==2.9.10',
  pymysql: 'PyMySQL==1.1.1',
  // PyMySQL needs it for MySQL 8's default (caching_sha2_password) authentication.
  cryptography: 'cryptography==43.0.3',
  pymongo: 'pymongo==4.10.1',
  pandasai: 'pandasai==2.3.0',
  vanna: 'vanna==0.7.5',
  pytest: 'pytest==8.3.3',
  pyflakes: 'pyflakes==3.2.0',
} as const;

type Pin = (typeof PINS)[keyof typeof PINS];

/** What reading the source needs, at run time and in the tests. */
function sourcePins(manifest: AgentManifest): Pin[] {
  const pandas = manifest.sql?.framework === 'pandasai' ? PINS.pandasForPandasAI : PINS.pandas;
  switch (manifest.source.type) {
    case 'pdf':
      return [PINS.pypdf];
    case 'text_file':
      return [];
    case 'csv':
      return [pandas, PINS.numpy];
    case 'excel':
      return [pandas, PINS.numpy, PINS.openpyxl];
    case 'postgres':
      return [PINS.sqlalchemy, PINS.psycopg2];
    case 'mysql':
      return [PINS.sqlalchemy, PINS.pymysql, PINS.cryptography];
    case 'sqlite':
      // A SQL agent reads SQLite with Python's own sqlite3; a RAG agent through SQLAlchemy.
      return manifest.type === 'rag' ? [PINS.sqlalchemy] : [];
    case 'mongo':
      return [PINS.pymongo];
  }
}

function runtimePins(manifest: AgentManifest): Pin[] {
  const pins: Pin[] = [PINS.litellm, PINS.openai, PINS.httpx, ...sourcePins(manifest)];

  if (manifest.ui.framework === 'streamlit') pins.push(PINS.streamlit);
  else pins.push(PINS.gradio, PINS.fastapi, PINS.pydantic, PINS.huggingfaceHub);

  if (manifest.embedding && EMBEDDINGS[manifest.embedding.model].backend !== 'openai') {
    pins.push(PINS.sentenceTransformers, PINS.transformers, PINS.torch, PINS.huggingfaceHub);
  }
  if (manifest.vector_store) {
    const store = {
      chromadb: PINS.chromadb,
      qdrant: PINS.qdrant,
      milvus: PINS.milvus,
      pinecone: PINS.pinecone,
    }[manifest.vector_store.provider];
    pins.push(store, PINS.numpy);
  }
  if (manifest.sql) {
    const engine = SQL_FRAMEWORKS_SPEC[manifest.sql.framework].engine;
    if (engine === 'pandasai') pins.push(PINS.pandasai, PINS.pandasForPandasAI, PINS.numpy);
    if (engine === 'vanna') pins.push(PINS.vanna, PINS.sqlalchemy, PINS.pandas, PINS.numpy);
  }
  return pins;
}

/** The light packages the project's own tests import (they fake everything heavy). */
function testPins(manifest: AgentManifest): Pin[] {
  const pins: Pin[] = [PINS.pytest, PINS.pyflakes, ...sourcePins(manifest)];
  if (manifest.type === 'sql') {
    const pandas = manifest.sql?.framework === 'pandasai' ? PINS.pandasForPandasAI : PINS.pandas;
    pins.push(pandas, PINS.numpy);
    if (manifest.sql?.framework !== 'pandasai') pins.push(PINS.sqlalchemy);
  }
  return pins;
}

function render(header: string, pins: readonly Pin[]): string {
  const unique = [...new Set(pins)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return `${header}\n${unique.join('\n')}\n`;
}

export function requirementsTxt(manifest: AgentManifest): string {
  return render(
    '# Everything the agent needs to run, pinned. Install with: pip install -r requirements.txt',
    runtimePins(manifest),
  );
}

export function requirementsDevTxt(manifest: AgentManifest): string {
  return render(
    [
      '# What the tests and the linter need: pip install -r requirements-dev.txt',
      '# The tests fake the models, the vector store and the UI, so the heavy runtime packages',
      '# are not needed here. To run the app, install requirements.txt.',
    ].join('\n'),
    testPins(manifest),
  );
}
