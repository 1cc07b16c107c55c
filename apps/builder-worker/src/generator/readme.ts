import { SOURCE_TYPE_LABELS, type TVectorStore } from '@agentloom/contracts';
import { PROVIDERS, SQL_FRAMEWORKS_SPEC, UIS, VECTOR_STORES } from './catalog';
import type { EnvVariable } from './environment';
import type { AgentManifest } from './manifest';
import { markdownText, tableRow } from './markdown';
import { acceptedFor } from './known-vulnerabilities';
import { lockedVersions } from './requirements';
import { sourcesSection } from './readme-sources';
import { readTemplate, renderTemplate } from './templates';

/** README.md: a template per agent kind, filled with enum-derived text and escaped user text. */
export async function renderReadme(
  manifest: AgentManifest,
  variables: readonly EnvVariable[],
): Promise<string> {
  return (await renderKindReadme(manifest, variables)) + knownVulnerabilities(manifest);
}

/**
 * The advisories against this agent's locked packages that no release fixes yet, and why the
 * agent is not exposed (its CI's pip-audit ignores exactly these); empty when there are none.
 */
function knownVulnerabilities(manifest: AgentManifest): string {
  const accepted = acceptedFor(lockedVersions(manifest));
  if (accepted.length === 0) return '';
  const rows = accepted.map((advisory) =>
    tableRow([
      `${advisory.package} ${advisory.version}`,
      [advisory.cve, ...advisory.ids].join(', '),
      advisory.reason,
    ]),
  );
  return [
    '',
    '## Known vulnerabilities',
    '',
    'pip-audit reports these advisories against the locked packages. No release fixes them yet,',
    "and this agent does not use the affected code; the CI workflow's audit ignores exactly these.",
    '',
    '| package | advisory | why this agent is not exposed |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

async function renderKindReadme(
  manifest: AgentManifest,
  variables: readonly EnvVariable[],
): Promise<string> {
  const ui = UIS[manifest.ui.framework];
  const provider = PROVIDERS[manifest.llm.provider];
  const common = {
    INSTALL_COMMANDS: installCommands('requirements.lock'),
    DEV_INSTALL_COMMANDS: installCommands('requirements-dev.txt'),
    HOST_NOTE:
      manifest.ui.framework === 'streamlit' ? ' (Streamlit: `--server.address 0.0.0.0`)' : '',
    TITLE: markdownText(manifest.name) || 'Untitled agent',
    UI_NAME: ui.label,
    UI_PORT: ui.port,
    LOCAL_COMMAND: ui.localCommand,
    CURATED: curatedSection(manifest),
    ENV_TABLE: variables
      .map((v) => tableRow([`\`${v.name}\``, v.required ? 'yes' : 'no', v.purpose]))
      .join('\n'),
  };
  const llm = `${provider.label} (\`${manifest.llm.model}\`)`;
  const source = describeSource(manifest);

  if (manifest.type === 'rag') {
    const store = manifest.vector_store!;
    const storeSpec = VECTOR_STORES[store.provider];
    const embedding = manifest.embedding!;
    const rag = manifest.rag!;
    const local = embedding.backend !== 'openai';
    return renderTemplate(await readTemplate('rag/README.md.tmpl'), {
      ...common,
      SUMMARY:
        `A question-answering (RAG) agent over ${source}. It retrieves passages with ` +
        `\`${embedding.model}\` embeddings stored in ${storeSpec.label}, and ${llm} answers ` +
        `from them, citing its sources, in a ${ui.label} chat.`,
      CHUNK_SIZE: rag.chunk_size,
      CHUNK_OVERLAP: rag.chunk_overlap,
      SEARCH: searchNote(rag),
      EMBEDDING: local
        ? `\`${embedding.model_id}\` (run locally with ONNX Runtime, or PyTorch on a GPU; the ` +
          'Docker image includes it)'
        : `OpenAI's \`${embedding.model_id}\``,
      VECTOR_STORE: storeSpec.label,
      INDEX_NOTE: indexNote(manifest),
      SOURCES: sourcesSection(manifest),
      ...rebuildCommand(manifest),
      LLM: llm,
      COMPOSE_NOTE: storeSpec.selfHosted
        ? `Compose also runs ${storeSpec.label} and keeps its data in a volume, so the ` +
          'source is embedded only once.'
        : `The vectors are kept in your Pinecone index **${markdownText(store.index_name ?? '')}**, ` +
          "in this agent's own namespace.",
      LOCAL_NOTE: localStoreNote(store.provider),
      DOCKER_DATABASE_NOTE: dockerDatabaseNote(manifest),
      MODEL_NOTE: local ? modelNote(embedding.model) : '',
    });
  }

  const sql = manifest.sql!;
  const framework = SQL_FRAMEWORKS_SPEC[sql.framework];
  const summary =
    `A SQL agent that answers questions about ${source} with ${framework.label}, ` +
    `using ${llm}, in a ${ui.label} chat.`;
  if (framework.engine === 'pandasai') {
    return renderTemplate(await readTemplate('sql/README.pandasai.md.tmpl'), {
      ...common,
      SUMMARY: summary,
      MAX_ROWS: sql.max_rows,
    });
  }
  return renderTemplate(await readTemplate('sql/README.md.tmpl'), {
    ...common,
    SUMMARY: summary,
    ENGINE_SECTION: (await readTemplate(`sql/readme/${framework.engine}.md`)).trim(),
    ENGINE_NAME: framework.label,
    DOCKER_DATABASE_NOTE: dockerDatabaseNote(manifest),
    MAX_ROWS: sql.max_rows,
    TIMEOUT: sql.timeout_seconds,
  });
}

/** The source types that are database servers (a SQLite file is read from data/ instead). */
const SERVER_DATABASES = new Set(['postgres', 'mysql', 'mongo']);

/**
 * How the agent in its container reaches a database on the machine that runs Docker, when a
 * source is one: 127.0.0.1 in the container is the container itself.
 */
function dockerDatabaseNote(manifest: AgentManifest): string {
  const types = manifest.sources
    ? manifest.sources.filter((source) => source.kind === 'table').map((source) => source.type)
    : [manifest.source.type];
  if (!types.some((type) => SERVER_DATABASES.has(type))) return '';
  return [
    '',
    '',
    'A database on this machine: inside the container, `127.0.0.1` and `localhost` are the',
    'container itself. Write `host.docker.internal` in their place in the database URL in `.env`',
    '(docker-compose.yml maps that name to this machine with `extra_hosts: host-gateway`), and',
    "let the database accept connections from Docker's network, not only from 127.0.0.1",
    "(PostgreSQL's `listen_addresses` and `pg_hba.conf`, MySQL's `bind-address`). When it cannot",
    'connect from a container, the agent says so as it starts.',
  ].join('\n');
}

/** Qdrant's local mode and Milvus Lite lock their folder: the command line beside the app. */
const ONE_PROCESS_NOTE = [
  'A store kept in a local folder opens in one process at a time. While the chat app runs,',
  '`python -m agent ask` answers from a copy of the store as it is then, and',
  '`python -m agent index` says the store is in use: stop the app first, or restart it (it',
  'indexes what changed each time it starts).',
].join('\n');

/** Where the vectors go when the agent runs without Docker, command by command. */
function localStoreNote(provider: TVectorStore): string {
  const memory =
    'Or set `VECTOR_STORE=memory` in `.env`: the vectors are kept in `.memory-index/` in this ' +
    'folder and searched in memory, with no vector database at all.';
  switch (provider) {
    case 'chromadb':
      return [
        "The agent needs Chroma's server. Without Docker, run it from PyPI in a second terminal,",
        "in an environment of its own (the agent's has Chroma's client, which the server's",
        'package would replace; its data stays in `chroma-data/`), and point the agent at it:',
        '',
        '```sh',
        'python -m venv .chroma && .chroma/bin/pip install chromadb==1.5.9',
        '.chroma/bin/chroma run --path ./chroma-data --port 8010',
        'echo VECTOR_STORE_URL=http://localhost:8010 >> .env',
        '```',
        '',
        `With Docker, \`docker compose up -d chromadb\` serves it at the same address. ${memory}`,
      ].join('\n');
    case 'qdrant':
      return [
        "Without a Qdrant server, the client's local mode keeps the vectors in a folder:",
        '`echo VECTOR_STORE_URL=./.qdrant >> .env`. With Docker, `docker compose up -d qdrant`',
        `serves a server at ${VECTOR_STORES.qdrant.localUrl}. ${memory}`,
        '',
        ONE_PROCESS_NOTE,
      ].join('\n');
    case 'milvus':
      return [
        'Without a Milvus server, Milvus Lite (installed with the agent) keeps the vectors in one',
        'file: `echo VECTOR_STORE_URL=./milvus.db >> .env`. With Docker, `docker compose up -d',
        `milvus\` serves a server at ${VECTOR_STORES.milvus.localUrl}. ${memory}`,
        '',
        ONE_PROCESS_NOTE,
      ].join('\n');
    case 'pinecone':
      return (
        'Set `VECTOR_STORE=memory` in `.env` to try the agent without Pinecone: the ' +
        'vectors are kept in `.memory-index/` in this folder.'
      );
  }
}

/** README's note on the local embedding model: the CPU install, the start, the GPU path. */
function modelNote(model: string): string {
  return [
    '',
    `The embedding model (${model}) runs on your CPU with ONNX Runtime, through FastEmbed:`,
    '`requirements.lock` installs it without PyTorch. It is downloaded from Hugging Face once',
    "(into Hugging Face's cache; the Docker image includes it) and loaded as the agent starts:",
    'the terminal says "Loading the embedding model" and then how long that took, so the first',
    'question does not wait for it. On a machine with a GPU, PyTorch can run the same model',
    "instead (PyPI's torch brings CUDA's libraries on Linux, some 5 GB):",
    '',
    '```sh',
    'pip install --require-hashes -r requirements.lock -r requirements-gpu.lock',
    'echo EMBEDDING_RUNTIME=torch >> .env',
    '```',
    '',
    "Both runtimes give the same vectors to within rounding (Agentloom's checks compare them),",
    'so the index made with one serves the other.',
    '',
  ].join('\n');
}

function describeSource(manifest: AgentManifest): string {
  const count = manifest.sources?.length ?? 1;
  if (count > 1) return `${count} knowledge sources (files, tables and web pages)`;
  const source = manifest.source;
  const label = SOURCE_TYPE_LABELS[source.type];
  if (source.file) {
    return `the ${label} file **${markdownText(source.original_name ?? '')}** (\`${source.file}\`)`;
  }
  const kind = source.type === 'mongo' ? 'collection' : 'table';
  return `the ${label} ${kind} **${markdownText(source.table ?? '')}**`;
}

/** README's retrieval step, as the owner's retrieval settings make it. */
function searchNote(rag: NonNullable<AgentManifest['rag']>): string {
  const found = {
    meaning: `the ${rag.top_k} passages closest in meaning are found in the vector store.`,
    words: `the ${rag.top_k} passages whose words best match the question's are found (BM25).`,
    both:
      `the ${rag.top_k} best passages are found by meaning (the vector store) and by words ` +
      '(BM25), the two lists fused by rank.',
  }[rag.search];
  return rag.answer_only_from_sources
    ? `${found} When none of them answers the question, the agent says it does not know ` +
        'instead of answering from its own knowledge.'
    : found;
}

const REBUILD = 'python -m agent index --rebuild';
const REBUILD_FROM_SOURCE = `${REBUILD} --from-source`;

/**
 * The command that makes the vectors again, and what it is for. Shipped chunks are what a plain
 * rebuild embeds again; re-reading the source (after it was edited, or to chunk it differently)
 * needs --from-source.
 */
function rebuildCommand(manifest: AgentManifest): {
  REBUILD_COMMAND: string;
  REBUILD_PURPOSE: string;
} {
  return manifest.source.chunks_file
    ? {
        REBUILD_COMMAND: REBUILD_FROM_SOURCE,
        REBUILD_PURPOSE: 're-read every source and embed everything again',
      }
    : { REBUILD_COMMAND: REBUILD, REBUILD_PURPOSE: 'embed everything again' };
}

function indexNote(manifest: AgentManifest): string {
  const source = manifest.source;
  if (source.chunks_file) {
    return (
      `The chunks Agentloom prepared (\`${source.chunks_file}\`) are indexed as they are while ` +
      'their file is the version shipped; `python -m agent index --from-source` reads every ' +
      'source itself instead.'
    );
  }
  if (source.file) return `The source is \`${source.file}\`.`;
  return (
    `Up to ${manifest.rag!.max_source_rows.toLocaleString('en-US')} rows are read from the ` +
    'database named by `DATABASE_URL`.'
  );
}

/** The README's install line for `file` (requirements.lock, or the dev file for the tests). */
function installCommands(file: string): string {
  return `pip install --require-hashes -r ${file}`;
}

/** README's "Curated answers": where they are, how a question is compared with them. */
function curatedSection(manifest: AgentManifest): string {
  const { file, compare, threshold } = manifest.curated;
  const how =
    compare === 'meaning'
      ? `by meaning: the two questions' vectors from the agent's embedding model ` +
        `(\`${manifest.embedding!.model}\`) have a cosine similarity of at least ${threshold}`
      : `by words: at least ${Math.round(threshold * 100)}% of the content words (four letters ` +
        'or more, question words such as "what" or "which" aside) of the question with more of ' +
        'them are in the other';
  return [
    `\`${file}\` holds the answers you wrote in Agentloom for particular questions, as this`,
    'build captured them. A question close to one of their questions is answered with that',
    'answer, word for word: nothing is searched, no query runs and the LLM is not called. The',
    'chat and `python -m agent ask` name its source "Curated answer". A question is close ' + how,
    `(\`curated.threshold\` in \`agent.json\`), as in the agent Agentloom hosts; the closest`,
    'question wins. To add, change or remove one, edit the file (a list of `{"id", "question",',
    '"answer"}` objects) and restart the app.',
  ].join('\n');
}
