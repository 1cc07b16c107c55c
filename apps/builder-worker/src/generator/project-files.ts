import { SQL_FRAMEWORKS_SPEC, UIS, VECTOR_STORES } from './catalog';
import type { AgentManifest } from './manifest';
import { acceptedFor } from './known-vulnerabilities';
import { lockedVersions, runsLocalModel, universeOf } from './requirements';

/**
 * The parts a project is generated in, each by the build stage that names it: the vector store
 * ("setting up databases"), the model wiring ("integrating AI models"), the SQL engine
 * ("configuring query engine") and its read-only guard ("securing SQL access"), the container
 * and CI files ("deploying container"), the shipped data, and the rest of the code.
 */
export const PROJECT_PARTS = [
  'data',
  'vector-store',
  'models',
  'query-engine',
  'sql-guard',
  'code',
  'deployment',
] as const;
export type ProjectPart = (typeof PROJECT_PARTS)[number];

/** A template to copy into the project; `values` fill a `.tmpl` file's placeholders. */
export interface TemplateFile {
  from: string;
  to: string;
  part: ProjectPart;
  values?: Record<string, string | number>;
}

const copy = (from: string, to: string, part: ProjectPart = 'code'): TemplateFile => ({
  from,
  to,
  part,
});
const copyAll = (
  folder: string,
  to: string,
  names: readonly string[],
  part: ProjectPart = 'code',
): TemplateFile[] => names.map((name) => copy(`${folder}/${name}`, `${to}/${name}`, part));

/**
 * Which templates a project is made of. Selection and placeholder values depend only on
 * enum values from the manifest; user strings never reach a template.
 */
export function templateFiles(manifest: AgentManifest): TemplateFile[] {
  const ui = UIS[manifest.ui.framework];
  const files: TemplateFile[] = [
    copy(ui.template, 'app.py'),
    ...copyAll('common/agent', 'agent', ['config.py', 'answer.py', 'curated.py', 'words.py']),
    copy('common/agent/llm.py', 'agent/llm.py', 'models'),
    ...copyAll('common/tests', 'tests', [
      '__init__.py',
      'conftest.py',
      'fakes.py',
      'test_config.py',
      'test_answer.py',
      'test_curated.py',
    ]),
    copy('common/tests/test_llm.py', 'tests/test_llm.py', 'models'),
    copy('common/dockerignore', '.dockerignore', 'deployment'),
    copy('common/gitignore', '.gitignore'),
    copy('common/pyproject.toml', 'pyproject.toml'),
    {
      from: 'common/github/workflows/ci.yml.tmpl',
      to: '.github/workflows/ci.yml',
      part: 'deployment',
      values: auditValues(manifest),
    },
    {
      from: 'common/Dockerfile.tmpl',
      to: 'Dockerfile',
      part: 'deployment',
      values: {
        UI_PORT: ui.port,
        HEALTHCHECK_URL: ui.healthcheckUrl,
        UI_COMMAND: JSON.stringify(ui.dockerCommand).replace(/","/g, '", "'),
        WRITABLE_DIRS: writableDirs(manifest),
        PREFETCH: dockerPrefetch(manifest),
      },
    },
  ];
  if (manifest.ui.framework === 'streamlit') {
    files.push(copy('common/streamlit_config.toml', '.streamlit/config.toml', 'deployment'));
  }
  return [...files, ...(manifest.type === 'rag' ? ragFiles(manifest) : sqlFiles(manifest))];
}

/**
 * The CI workflow's pip-audit step ignores exactly the advisories README.md lists under "Known
 * vulnerabilities" (none fixed by any release yet), and nothing else.
 */
function auditValues(manifest: AgentManifest): Record<string, string> {
  const accepted = acceptedFor(lockedVersions(manifest));
  const ids = accepted.flatMap((advisory) => advisory.ids);
  return {
    // PandasAI supports Python 3.11 only; every other agent is tested on the oldest and newest.
    PYTHON_VERSIONS: universeOf(manifest) === 'pandasai' ? "['3.11']" : "['3.11', '3.13']",
    AUDIT_NOTE: ids.length > 0 ? ', except those README.md lists as known, with the reason' : '',
    AUDIT_IGNORES: ids.map((id) => ` --ignore-vuln ${id}`).join(''),
  };
}

/**
 * For a local embedding model: download it into the image before the code is copied, so editing
 * the code does not download it again. agent/local_model.py imports nothing else of the agent
 * and reads only agent.json's embedding section.
 */
function dockerPrefetch(manifest: AgentManifest): string {
  if (!runsLocalModel(manifest)) return '';
  return [
    '# The embedding model, downloaded now rather than on the first start; only agent.json',
    '# (which names it) and the loader invalidate this layer.',
    'COPY agent.json .',
    'COPY agent/local_model.py agent/local_model.py',
    'USER agent',
    'RUN python agent/local_model.py',
    'USER root',
    '',
  ].join('\n');
}

/**
 * Dockerfile lines that give the unprivileged user the one folder it must write to, ending in
 * a newline; none for SQL agents but PandasAI's. RAG agents record their index. PandasAI saves each chart it draws under the project's
 * exports/charts, and a chart question fails when it cannot.
 */
function writableDirs(manifest: AgentManifest): string {
  if (manifest.type === 'rag') {
    return (
      '# The index records (agent/indexing.py): what the store holds, so a start embeds only\n' +
      '# what changed. docker-compose.yml keeps them in a volume.\n' +
      'RUN mkdir -p .agent-index && chown agent .agent-index\n'
    );
  }
  if (manifest.sql?.framework !== 'pandasai') return '';
  return (
    '# PandasAI saves the charts it draws in exports/charts: the one folder the agent may write.\n' +
    'RUN mkdir -p exports/charts && chown agent exports/charts\n'
  );
}

function ragFiles(manifest: AgentManifest): TemplateFile[] {
  const provider = manifest.vector_store!.provider;
  return [
    copy('common/agent/db.py', 'agent/db.py'),
    ...copyAll('rag/agent', 'agent', [
      '__init__.py',
      '__main__.py',
      'chunking.py',
      'loaders.py',
      'embeddings.py',
      'indexing.py',
      'rag.py',
      'search.py',
      'sources.py',
      'web.py',
    ]),
    ...copyAll(
      'rag/agent/stores',
      'agent/stores',
      ['__init__.py', 'base.py', 'memory_store.py', `${VECTOR_STORES[provider].module}.py`],
      'vector-store',
    ),
    ...copyAll('rag/tests', 'tests', [
      'rag_fakes.py',
      'test_chunking.py',
      'test_indexing.py',
      'test_loaders.py',
      'test_retrieval.py',
      'test_search.py',
      'test_web.py',
      'test_rag_agent.py',
    ]),
    copy(`rag/tests/stores/${provider}.py`, 'tests/test_vector_store.py', 'vector-store'),
    // The local model's CPU runtime (ONNX) and its choice of runtime.
    ...(runsLocalModel(manifest)
      ? [
          copy('rag/agent/local_model.py', 'agent/local_model.py', 'models'),
          copy('rag/tests/test_local_model.py', 'tests/test_local_model.py', 'models'),
        ]
      : []),
    {
      // The compose file is where the vector-store service lives (or none, for Pinecone).
      from: `rag/compose/${provider}.yml.tmpl`,
      to: 'docker-compose.yml',
      part: 'vector-store',
      values: { UI_PORT: manifest.ui.port },
    },
  ];
}

function sqlFiles(manifest: AgentManifest): TemplateFile[] {
  const engine = SQL_FRAMEWORKS_SPEC[manifest.sql!.framework].engine;
  const files: TemplateFile[] = [
    ...copyAll('sql/agent', 'agent', ['__init__.py', '__main__.py']),
    copy(`sql/engines/${engine}.py`, 'agent/engine.py', 'query-engine'),
    copy(`sql/tests/engines/${engine}.py`, 'tests/test_engine.py', 'query-engine'),
    {
      from: 'sql/compose/docker-compose.yml.tmpl',
      to: 'docker-compose.yml',
      part: 'deployment',
      values: { UI_PORT: manifest.ui.port },
    },
  ];
  if (engine !== 'pandasai') {
    // PandasAI works on a DataFrame; the other engines run SQL through the guarded database.
    files.push(
      copy('common/agent/db.py', 'agent/db.py', 'sql-guard'),
      ...copyAll('sql/agent', 'agent', ['database.py', 'sql_guard.py'], 'sql-guard'),
      copy('sql/agent/sql_prompts.py', 'agent/sql_prompts.py', 'query-engine'),
      ...copyAll('sql/tests', 'tests', ['test_sql_guard.py', 'test_database.py'], 'sql-guard'),
      copy('sql/tests/sql_fakes.py', 'tests/sql_fakes.py'),
    );
  }
  return files;
}
