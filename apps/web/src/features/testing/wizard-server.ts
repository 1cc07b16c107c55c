import {
  DEFAULT_RETRIEVAL,
  LLM_MODEL_CATALOGUE,
  retrievalPaths,
  maskApiKey,
  pickableSpecModels,
  type TAgentType,
  type TKeyCheckRequest,
  type TPipelineConfig,
  type TPipelineDetail,
  type TRagPipelineConfig,
  type TRagSourceType,
  type TSqlPipelineConfig,
  type TUploadSummary,
  WIZARD_ROUTES,
  wizardPaths,
  wizardSteps,
  knowledgePaths,
} from '@agentloom/contracts';
import { beforeEach } from 'vitest';
import { sourcesFixture } from './knowledge';
import { formOf, textOf, type Call, type Reply } from './render';

export const SESSION = '0b5c7a52-8a31-4c53-9a7f-4c1f3a0e9b11';
const NOW = '2025-01-01T00:00:00.000Z';

type EveryAnswer = Omit<TRagPipelineConfig, 'agent_type' | 'source_type'> &
  Omit<TSqlPipelineConfig, 'agent_type' | 'source_type'> & { source_type?: TRagSourceType };

interface Answers {
  config: EveryAnswer;
  keys: { llm: string; llmId: string; vectorDb: string; uri: string };
}

/**
 * A stand-in for the gateway's wizard endpoints in the wizard's unit tests: it keeps what each
 * call saved and answers `GET /pipelines/{id}` from it, as the real gateway does, so the screens
 * read their answers back the way they do in the app. Anything else answers `[]` or "Saved.".
 */
export function wizardServer(type: TAgentType) {
  let name = '';
  // Every answer either wizard may save; the kind is added where the contracts' rules read it.
  const answers: Answers = { config: {}, keys: { llm: '', llmId: '', vectorDb: '', uri: '' } };
  const { config } = answers;

  function reply(call: Call): Reply {
    if (call.method === 'POST' && call.path === '/pipelines') {
      name = (JSON.parse(textOf(call)) as { name: string }).name;
      return { status: 201, json: { session_id: SESSION, id: SESSION, name } };
    }
    if (call.path === `/pipelines/${SESSION}`) return { json: detailOf(type, name, answers) };
    if (call.path === '/apikeys') return { json: [] };
    // The agent's knowledge sources: none beyond the wizard's own in these tests.
    if (call.path === knowledgePaths.list(SESSION)) return { json: sourcesFixture() };
    if (call.path === retrievalPaths.settings(SESSION)) {
      // The last step's retrieval panel: a new agent's settings, no build yet.
      const settings = { ...DEFAULT_RETRIEVAL, answer_only_from_sources: true };
      return { json: { settings, built: null, build_needed: false, reembeds_everything: false } };
    }
    if (call.path === wizardPaths.sourceSample(SESSION) && config.file) {
      // The gateway reads the file back; this stand-in only knows its name and size.
      const kind = config.file.summary.kind;
      const counts = `${config.file.size_bytes} bytes`;
      return { json: { kind, counts, columns: [], rows: [], passages: [] } };
    }
    if (call.path === WIZARD_ROUTES.keyCheck) {
      // The gateway's answer for a key the provider takes: its current models.
      const { provider } = JSON.parse(textOf(call)) as TKeyCheckRequest;
      const models = pickableSpecModels(provider).map((model) => LLM_MODEL_CATALOGUE[model].apiId);
      const detail = `Connected — ${models.length} models available`;
      return { json: { ok: true, rejected: false, models, detail } };
    }
    if (call.method === 'POST') {
      const multipart = call.body instanceof FormData ? call.body : null;
      const file = multipart?.get('file');
      const form = multipart
        ? Object.fromEntries([...multipart].filter(([, v]) => typeof v === 'string'))
        : formOf(call);
      save(answers, call.path, form as Record<string, string>, file instanceof File ? file : null);
    }
    return { json: { session_id: SESSION, message: 'Saved.', saved: {} } };
  }

  return { reply };
}

/** What a wizard call saves, kept as the gateway keeps it (secrets aside, in `keys`). */
function save(
  { config, keys }: Answers,
  path: string,
  form: Record<string, string>,
  file: File | null,
): void {
  const field = path.split('/').slice(-2).join('/');
  switch (field) {
    case 'api/source':
    case 'config/source':
      config.source_type = form.source_type as TRagSourceType;
      return;
    case 'source/upload':
    case 'config/source-details':
      config.file = {
        original_name: file?.name ?? '',
        size_bytes: file?.size ?? 0,
        // The kind tells whether the file fits the source; the counts are what the step says it
        // read ("Read 2 rows, 3 columns"), the same for every file of this stand-in.
        summary: standInSummary(config.source_type),
        uploaded_at: NOW,
      };
      return;
    case 'source/db':
    case 'source-details/db':
      keys.uri = form.uri ?? form.db_uri ?? '';
      config.database = {
        type: config.source_type as never,
        uri: keys.uri,
        database: form.database ?? form.db_name ?? '',
        table: form.collection_or_table ?? form.table_name ?? '',
        columns: null,
        approximate_rows: null,
        checked_at: NOW,
      };
      return;
    case 'embeddings/model':
      config.embedding_model = form.model_name as never;
      return;
    case 'api/vectordb':
      config.vector_store = { vector_db: form.vector_db as never };
      return;
    case 'credentials/remote':
      keys.vectorDb = form.api_key ?? '';
      config.vector_store = { ...config.vector_store!, ...form };
      return;
    case 'credentials/local':
      config.vector_store = { vector_db: form.vector_db as never, url: form.url };
      return;
    case 'llm/provider':
    case 'config/llm':
      config.llm = { provider: (form.provider ?? form.llm_provider) as never };
      keys.llm = keys.llmId = '';
      return;
    case 'llm/credentials':
    case 'config/llm-key':
    case 'config/model':
      keys.llm = form.api_key ?? (form.api_key_id ? '' : keys.llm);
      keys.llmId = form.api_key_id ?? (form.api_key ? '' : keys.llmId);
      config.llm = { ...config.llm, model: form.model_name ?? form.model ?? config.llm?.model };
      return;
    case 'api/system-prompt':
    case 'config/system-prompt':
      config.system_prompt = form.prompt;
      return;
    case 'config/framework':
      config.framework = form.framework as never;
      return;
    case 'api/ui':
    case 'config/ui':
      config.ui = form.ui as never;
  }
}

/** `GET /pipelines/{id}` from the answers, as the gateway shows them (keys masked). */
function detailOf(type: TAgentType, name: string, { config, keys }: Answers): TPipelineDetail {
  const steps = wizardSteps({ ...config, agent_type: type } as TPipelineConfig, {
    sourceFile: Boolean(config.file),
    sourceUri: Boolean(keys.uri),
    llmKey: Boolean(keys.llm || keys.llmId),
    vectorDbKey: Boolean(keys.vectorDb),
  });
  const llm = {
    provider: config.llm?.provider ?? null,
    model: config.llm?.model ?? null,
    api_key: keys.llm ? maskApiKey(keys.llm) : null,
    api_key_id: keys.llmId || null,
  };
  const common = {
    source_type: (config.source_type ?? null) as never,
    file: config.file ?? null,
    database: config.database ?? null,
    llm,
    system_prompt: config.system_prompt ?? null,
    ui: config.ui ?? null,
  };
  const store = config.vector_store;
  return {
    id: SESSION,
    session_id: SESSION,
    name,
    description: '',
    status: 'Draft',
    created_at: NOW,
    updated_at: NOW,
    steps,
    missing_steps: steps.filter((step) => !step.complete).map((step) => step.label),
    agent_type: type,
    config:
      type === 'rag'
        ? {
            ...common,
            embedding_model: config.embedding_model ?? null,
            vector_store: store
              ? {
                  vector_db: store.vector_db,
                  url: store.url ?? null,
                  dimensions: null,
                  distance_metric: null,
                  environment: store.environment ?? null,
                  index_name: store.index_name ?? null,
                  api_key: keys.vectorDb ? maskApiKey(keys.vectorDb) : null,
                }
              : null,
          }
        : { ...common, framework: config.framework ?? null },
  };
}

/** For a test file: a fresh stand-in for every test, answering through the returned function. */
export function wizardServerPerTest(type: TAgentType): (call: Call) => Reply {
  let server = wizardServer(type);
  beforeEach(() => {
    server = wizardServer(type);
  });
  return (call) => server.reply(call);
}

/** A summary of the source's kind with fixed counts: the stand-in does not read the file. */
function standInSummary(kind: string | null | undefined): TUploadSummary {
  const table = { columns: ['region', 'product', 'total'], rows: 2 };
  if (kind === 'pdf') return { kind, pages: 3, characters: 1200 };
  if (kind === 'text_file') return { kind, lines: 4, characters: 80 };
  if (kind === 'excel') return { kind, sheet: 'Sheet1', sheets: ['Sheet1'], ...table };
  return { kind: 'csv', ...table };
}
