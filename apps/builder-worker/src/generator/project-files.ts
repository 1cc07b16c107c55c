import { SQL_FRAMEWORKS_SPEC, UIS, VECTOR_STORES } from './catalog';
import type { AgentManifest } from './manifest';

/** A template to copy into the project; `values` fill a `.tmpl` file's placeholders. */
export interface TemplateFile {
  from: string;
  to: string;
  values?: Record<string, string | number>;
}

const copy = (from: string, to: string): TemplateFile => ({ from, to });
const copyAll = (folder: string, to: string, names: readonly string[]): TemplateFile[] =>
  names.map((name) => copy(`${folder}/${name}`, `${to}/${name}`));

/**
 * Which templates a project is made of. Selection and placeholder values depend only on
 * enum values from the manifest; user strings never reach a template.
 */
export function templateFiles(manifest: AgentManifest): TemplateFile[] {
  const ui = UIS[manifest.ui.framework];
  const files: TemplateFile[] = [
    copy(ui.template, 'app.py'),
    ...copyAll('common/agent', 'agent', ['config.py', 'llm.py', 'answer.py']),
    ...copyAll('common/tests', 'tests', [
      '__init__.py',
      'conftest.py',
      'fakes.py',
      'test_config.py',
      'test_llm.py',
      'test_answer.py',
    ]),
    copy('common/dockerignore', '.dockerignore'),
    copy('common/gitignore', '.gitignore'),
    copy('common/pyproject.toml', 'pyproject.toml'),
    copy('common/github/workflows/ci.yml', '.github/workflows/ci.yml'),
    {
      from: 'common/Dockerfile.tmpl',
      to: 'Dockerfile',
      values: {
        UI_PORT: ui.port,
        HEALTHCHECK_URL: ui.healthcheckUrl,
        UI_COMMAND: JSON.stringify(ui.dockerCommand).replace(/","/g, '", "'),
      },
    },
  ];
  if (manifest.ui.framework === 'streamlit') {
    files.push(copy('common/streamlit_config.toml', '.streamlit/config.toml'));
  }
  return [...files, ...(manifest.type === 'rag' ? ragFiles(manifest) : sqlFiles(manifest))];
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
      'rag.py',
    ]),
    ...copyAll('rag/agent/stores', 'agent/stores', [
      '__init__.py',
      'base.py',
      'memory_store.py',
      `${VECTOR_STORES[provider].module}.py`,
    ]),
    ...copyAll('rag/tests', 'tests', [
      'rag_fakes.py',
      'test_chunking.py',
      'test_loaders.py',
      'test_retrieval.py',
      'test_rag_agent.py',
    ]),
    copy(`rag/tests/stores/${provider}.py`, 'tests/test_vector_store.py'),
    {
      from: `rag/compose/${provider}.yml.tmpl`,
      to: 'docker-compose.yml',
      values: { UI_PORT: manifest.ui.port },
    },
  ];
}

function sqlFiles(manifest: AgentManifest): TemplateFile[] {
  const engine = SQL_FRAMEWORKS_SPEC[manifest.sql!.framework].engine;
  const files: TemplateFile[] = [
    ...copyAll('sql/agent', 'agent', ['__init__.py', '__main__.py']),
    copy(`sql/engines/${engine}.py`, 'agent/engine.py'),
    copy(`sql/tests/engines/${engine}.py`, 'tests/test_engine.py'),
    {
      from: 'sql/compose/docker-compose.yml.tmpl',
      to: 'docker-compose.yml',
      values: { UI_PORT: manifest.ui.port },
    },
  ];
  if (engine !== 'pandasai') {
    // PandasAI works on a DataFrame; the other engines run SQL through the guarded database.
    files.push(
      copy('common/agent/db.py', 'agent/db.py'),
      ...copyAll('sql/agent', 'agent', ['database.py', 'sql_guard.py', 'sql_prompts.py']),
      ...copyAll('sql/tests', 'tests', ['sql_fakes.py', 'test_sql_guard.py', 'test_database.py']),
    );
  }
  return files;
}
