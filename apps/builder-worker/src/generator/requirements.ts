import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  DATABASE_SOURCE_CATALOG,
  VECTOR_STORE_CATALOG,
  type TDatabaseSourceType,
  type TVectorStore,
} from '@agentloom/contracts';
import { PROVIDERS, SQL_FRAMEWORKS_SPEC } from './catalog';
import type { AgentManifest } from './manifest';
import { closure, LOCKS_DIR, packageName, parseLock, type UniverseLock } from './lock-file';
import { isCatalogueKind, pinsOf } from './pin-lookup';

/**
 * What a generated project installs. Each project names its direct dependencies (PINS) and
 * installs them from a hash-locked file that holds every transitive dependency too, so a zip
 * installs exactly the set CI resolved, installed and tested (`npm run test:agents-live`).
 *
 * The locks are resolved once per "universe" with uv (`npm run agents:lock`, which needs PyPI)
 * and committed under templates/locks. A project's lock is the closure of its direct pins
 * inside its universe, read from uv's `# via` annotations: a subset of one consistent
 * resolution is itself consistent. Two universes exist because PandasAI 2.x holds pandas at
 * 1.5.3 and openai below 2, which the rest of the set has left behind.
 *
 * Each agent talks to its LLM provider through that provider's own SDK, not a client for every
 * provider (LiteLLM alone installs some 300 MB with its dependencies).
 *
 * The locks are universal (`uv pip compile --universal`): one file for Python 3.11, 3.12 and
 * 3.13 on Linux x86_64 and aarch64 and on macOS, each entry carrying the hashes of every
 * platform's wheels and a marker where a package is only for some (audioop-lts on 3.13,
 * CUDA's libraries with PyPI's torch on Linux). PandasAI 2.x (and 3.0's betas) declare
 * Python < 3.12: its agents run on 3.11 only.
 */
export const PINS = {
  // The provider SDKs (templates/common/agent/llm.py); openai serves every OpenAI-compatible one.
  openai: 'openai==3.57.0',
  anthropic: 'anthropic==2.13.0',
  googleGenai: 'google-genai==3.6.1',
  dotenv: 'python-dotenv==1.2.4',
  streamlit: 'streamlit==1.67.0',
  gradio: 'gradio==6.31.0',
  chromadb: 'chromadb-client==1.5.9',
  qdrant: 'qdrant-client==1.20.0',
  milvus: 'pymilvus==3.0.2',
  // Milvus Lite: a Milvus in a local file (VECTOR_STORE_URL=./milvus.db), no server needed.
  milvusLite: 'milvus-lite==3.2.2',
  pinecone: 'pinecone==10.2.0',
  // Local embedding models on the CPU: ONNX Runtime through FastEmbed (with the tokenizers, Hugging
  // Face's client and Pillow it brings, some 130 MB installed).
  fastembed: 'fastembed==0.9.1',
  // The same models on PyTorch, for a GPU (requirements-gpu.lock): PyPI's build, which brings
  // CUDA's libraries on Linux (some 5 GB).
  sentenceTransformers: 'sentence-transformers==6.2.0',
  torch: 'torch==2.13.0',
  // The vector store's start-up retries (already in the lock, through chromadb-client).
  tenacity: 'tenacity==9.1.4',
  numpy: 'numpy==2.4.6',
  pandas: 'pandas==3.1.1',
  openpyxl: 'openpyxl==3.1.5',
  pypdf: 'pypdf==7.1.1',
  // Word, Markdown and HTML sources (agent/loaders.py): mammoth is the same converter Agentloom's
  // own reader runs (its JavaScript release), markdown-it-py is markdown-it's Python port, and
  // html5lib builds the tree the HTML standard (and parse5, on Agentloom's side) builds, read
  // through Beautiful Soup.
  mammoth: 'mammoth==1.13.0',
  markdownItPy: 'markdown-it-py==4.3.0',
  beautifulsoup4: 'beautifulsoup4==4.15.0',
  html5lib: 'html5lib==1.1',
  sqlalchemy: 'SQLAlchemy==2.1.9',
  psycopg2: 'psycopg2-binary==2.9.13',
  pymysql: 'PyMySQL==1.2.4',
  // PyMySQL needs it for MySQL 8's default (caching_sha2_password) authentication.
  cryptography: 'cryptography==50.0.2',
  pymongo: 'pymongo==4.20.1',
  vanna: 'vanna==2.0.2',
  pytest: 'pytest==9.2.0',
  pyflakes: 'pyflakes==4.1.0',
  pandasai: 'pandasai==2.3.2',
  // PandasAI 2.x imports yaml without declaring it (it came in through LiteLLM before).
  pyyamlForPandasAI: 'PyYAML==6.0.4',
  // PandasAI 2.x requires exactly pandas 1.5.3 and openai < 2; pandas 1.5 needs numpy 1.
  pandasForPandasAI: 'pandas==1.5.3',
  numpyForPandasAI: 'numpy==1.26.4',
  openaiForPandasAI: 'openai==1.109.1',
} as const;

type Pin = (typeof PINS)[keyof typeof PINS];

export const UNIVERSES = ['main', 'pandasai'] as const;
export type Universe = (typeof UNIVERSES)[number];

/** Every pin a universe resolves together: the union of what its projects can ask for. */
export function universePins(universe: Universe): Pin[] {
  const shared: Pin[] = [
    PINS.anthropic,
    PINS.googleGenai,
    PINS.dotenv,
    PINS.streamlit,
    PINS.gradio,
    PINS.openpyxl,
    PINS.pytest,
    PINS.pyflakes,
  ];
  if (universe === 'pandasai') {
    return [
      ...shared,
      PINS.pandasai,
      PINS.pyyamlForPandasAI,
      PINS.pandasForPandasAI,
      PINS.numpyForPandasAI,
      PINS.openaiForPandasAI,
    ];
  }
  return [
    ...shared,
    PINS.openai,
    PINS.chromadb,
    PINS.qdrant,
    PINS.milvus,
    PINS.milvusLite,
    PINS.pinecone,
    PINS.fastembed,
    PINS.sentenceTransformers,
    PINS.torch,
    PINS.numpy,
    PINS.pandas,
    PINS.pypdf,
    PINS.mammoth,
    PINS.markdownItPy,
    PINS.beautifulsoup4,
    PINS.html5lib,
    PINS.sqlalchemy,
    PINS.psycopg2,
    PINS.pymysql,
    PINS.cryptography,
    PINS.pymongo,
    PINS.vanna,
    PINS.tenacity,
  ];
}

/** The `.in` file `npm run agents:lock` resolves for a universe. */
export function universeInput(universe: Universe): string {
  return render(
    `# Direct dependencies of generated ${universe === 'main' ? 'agents' : 'PandasAI agents'}; ` +
      'resolved into the .lock beside this file by `npm run agents:lock`.',
    universePins(universe),
  );
}

export function universeOf(manifest: Pick<AgentManifest, 'sql'>): Universe {
  return manifest.sql?.framework === 'pandasai' ? 'pandasai' : 'main';
}

const isPandasAI = (manifest: Pick<AgentManifest, 'sql'>) => universeOf(manifest) === 'pandasai';

/**
 * The kinds of source an agent reads: today's source types, and the prose files whose readers
 * exist (agent/loaders.py) before the source types name them.
 */
export type SourceKind = AgentManifest['source']['type'] | 'docx' | 'markdown' | 'html';

/** What reading the source needs, at run time and in the tests. */
function sourcePins(manifest: AgentManifest): Pin[] {
  const kinds = manifest.sources?.map((source) => source.type) ?? [manifest.source.type];
  return [...new Set(kinds)].flatMap((kind) =>
    // Web pages are read as HTML.
    sourceKindPins((kind === 'web' ? 'html' : kind) as SourceKind, manifest),
  );
}

/**
 * What reading one kind of source needs (its loader's libraries), for an agent with such a
 * source: a project installs a reader's library only when one of its sources is of that kind.
 */
export function sourceKindPins(
  kind: SourceKind,
  manifest: Pick<AgentManifest, 'type' | 'sql'>,
): Pin[] {
  const pandas = isPandasAI(manifest)
    ? [PINS.pandasForPandasAI, PINS.numpyForPandasAI]
    : [PINS.pandas, PINS.numpy];
  if (isCatalogueKind<TDatabaseSourceType>(DATABASE_SOURCE_CATALOG, kind)) {
    const packages = DATABASE_SOURCE_CATALOG[kind].pythonPackages[manifest.type];
    return pinsOf(PINS, packages, `${kind} sources`);
  }
  switch (kind) {
    case 'pdf':
      return [PINS.pypdf];
    case 'text_file':
      return [];
    case 'docx':
      // Mammoth's HTML is read by the HTML reader.
      return [PINS.mammoth, PINS.beautifulsoup4, PINS.html5lib];
    case 'markdown':
      return [PINS.markdownItPy];
    case 'html':
      return [PINS.beautifulsoup4, PINS.html5lib];
    case 'csv':
      return pandas;
    case 'excel':
      return [...pandas, PINS.openpyxl];
  }
}

/** Whether the project embeds with a local model (ONNX Runtime on the CPU, PyTorch on a GPU). */
export function runsLocalModel(manifest: AgentManifest): boolean {
  return !!manifest.embedding && manifest.embedding.backend !== 'openai';
}

/** What a local model needs on top of requirements.lock to run on PyTorch (a GPU). */
const GPU_PINS: Pin[] = [PINS.sentenceTransformers, PINS.torch];

/** The pins of the packages the store's module imports (the contracts' store catalogue). */
export function vectorStorePins(store: TVectorStore): Pin[] {
  return pinsOf(PINS, VECTOR_STORE_CATALOG[store].pythonPackages, `the ${store} vector store`);
}

/** The one SDK the agent talks to its LLM provider with. */
function providerSdkPin(manifest: AgentManifest): Pin {
  switch (PROVIDERS[manifest.llm.provider].sdk) {
    case 'anthropic':
      return PINS.anthropic;
    case 'google-genai':
      return PINS.googleGenai;
    case 'openai':
      return isPandasAI(manifest) ? PINS.openaiForPandasAI : PINS.openai;
  }
}

function runtimePins(manifest: AgentManifest): Pin[] {
  const pins: Pin[] = [PINS.dotenv, ...sourcePins(manifest)];
  pins.push(providerSdkPin(manifest));
  pins.push(manifest.ui.framework === 'streamlit' ? PINS.streamlit : PINS.gradio);
  // The Streamlit app shows tables with pandas.
  if (manifest.ui.framework === 'streamlit' && !isPandasAI(manifest)) pins.push(PINS.pandas);

  if (manifest.embedding) {
    pins.push(runsLocalModel(manifest) ? PINS.fastembed : PINS.openai);
  }
  if (manifest.vector_store) {
    pins.push(...vectorStorePins(manifest.vector_store.provider), PINS.numpy, PINS.tenacity);
  }
  if (manifest.sql) {
    const engine = SQL_FRAMEWORKS_SPEC[manifest.sql.framework].engine;
    if (engine === 'pandasai') pins.push(PINS.pandasai, PINS.pyyamlForPandasAI);
    if (engine === 'vanna') pins.push(PINS.vanna, PINS.sqlalchemy, PINS.pandas);
    if (engine === 'sql_query') pins.push(PINS.sqlalchemy);
  }
  return pins;
}

function devPins(): Pin[] {
  return [PINS.pytest, PINS.pyflakes];
}

function render(header: string, pins: readonly string[]): string {
  const unique = [...new Set(pins)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  return `${header}\n${unique.join('\n')}\n`;
}

const locks = new Map<Universe, UniverseLock>();

/** A universe's lock, read once per process (it changes only with the code). */
export function universeLock(universe: Universe): UniverseLock {
  let lock = locks.get(universe);
  if (!lock) {
    lock = parseLock(readFileSync(path.join(LOCKS_DIR, `${universe}.lock`), 'utf8'));
    locks.set(universe, lock);
  }
  return lock;
}

const TORCH = packageName(PINS.torch);
/** What PyPI's torch brings on Linux for its GPUs: not installed with the CPU build. */
const TORCH_GPU = /^(nvidia-|cuda-|triton$)/;

/** Every package a project installs (its runtime closure) → its locked version. */
export function lockedVersions(manifest: AgentManifest): Map<string, string> {
  const lock = universeLock(universeOf(manifest));
  const versions = new Map<string, string>();
  for (const name of closure(lock, runtimePins(manifest))) {
    const pinned = /==([^\s\\;]+)/.exec(lock.packages.get(name)!.entry)?.[1] ?? '';
    versions.set(name, pinned);
  }
  return versions;
}

function lockedEntries(lock: UniverseLock, names: Iterable<string>): string {
  return [...names]
    .sort()
    .map((name) => lock.packages.get(name)!.entry)
    .join('\n');
}

/** The project's runtime packages: what requirements.lock holds. */
function runtimeNames(manifest: AgentManifest): { lock: UniverseLock; names: string[] } {
  const lock = universeLock(universeOf(manifest));
  return { lock, names: [...closure(lock, runtimePins(manifest))] };
}

const INSTALL_NOTE =
  '# Every package the agent runs with, pinned with hashes: the exact set its builder tested.';

export function requirementsTxt(manifest: AgentManifest): string {
  return render(
    [
      "# The agent's direct dependencies, for any Python and system pip supports: pip chooses",
      '# the rest. requirements.lock holds these and everything they need, pinned with hashes',
      '# (see README.md).',
    ].join('\n'),
    runtimePins(manifest),
  );
}

const PYTHONS_NOTE: Record<Universe, string> = {
  main: '# For Python 3.11, 3.12 and 3.13 on Linux (x86_64, aarch64) and macOS (arm64).',
  pandasai: '# For Python 3.11 (PandasAI supports no newer Python) on Linux and macOS.',
};

export function requirementsLock(manifest: AgentManifest): string {
  const { lock, names } = runtimeNames(manifest);
  const gpuNote = runsLocalModel(manifest)
    ? [
        '# The embedding model runs on ONNX Runtime (CPU). For a GPU, requirements-gpu.lock adds',
        '# PyTorch: install both in one command (README.md, "Run it without Docker").',
      ]
    : [];
  return [
    INSTALL_NOTE,
    PYTHONS_NOTE[universeOf(manifest)],
    '# Install with: pip install --require-hashes -r requirements.lock',
    ...gpuNote,
    lockedEntries(lock, names),
    '',
  ].join('\n');
}

export function requirementsDevTxt(manifest: AgentManifest): string {
  const { lock, names } = runtimeNames(manifest);
  const runtime = new Set(closure(lock, runtimePins(manifest)));
  const extra = [...closure(lock, devPins())].filter(
    (name) => !runtime.has(name) && !names.includes(name),
  );
  return [
    '# What the tests and the linter need on top of the agent itself, pinned with hashes.',
    '# Install with: pip install --require-hashes -r requirements-dev.txt',
    '-r requirements.lock',
    lockedEntries(lock, extra),
    '',
  ].join('\n');
}

/**
 * Only for agents with a local embedding model: sentence-transformers and PyPI's torch (CUDA's
 * libraries with it on Linux) with everything they need beyond requirements.lock, hash-locked,
 * for running the model on a GPU (EMBEDDING_RUNTIME=torch).
 */
export function requirementsGpuLock(manifest: AgentManifest): string | undefined {
  if (!runsLocalModel(manifest)) return undefined;
  const { lock, names } = runtimeNames(manifest);
  const runtime = new Set(names);
  const gpu = [...closure(lock, [...runtimePins(manifest), ...GPU_PINS])].filter(
    (name) => !runtime.has(name),
  );
  return [
    "# The embedding model on PyTorch, for a GPU: sentence-transformers and PyPI's torch (on",
    "# Linux it brings CUDA's libraries, some 5 GB) with what they need beyond requirements.lock.",
    '# Install both in one command, then set EMBEDDING_RUNTIME=torch in .env:',
    '#   pip install --require-hashes -r requirements.lock -r requirements-gpu.lock',
    lockedEntries(lock, gpu),
    '',
  ].join('\n');
}

/**
 * A universe's whole lock as this machine's checks install it on Python 3.11: PyTorch's CPU
 * build in place of PyPI's torch and the GPU libraries that come with it.
 */
export function lockWithCpuTorch(text: string): string {
  const lock = parseLock(text);
  if (!lock.packages.has(TORCH)) return text;
  const cpu = parseLock(readFileSync(path.join(LOCKS_DIR, 'torch-cpu.lock'), 'utf8'));
  const kept = [...lock.packages.keys()].filter((name) => name !== TORCH && !TORCH_GPU.test(name));
  return [lockedEntries(lock, kept), cpu.packages.get(TORCH)!.entry, ''].join('\n');
}
