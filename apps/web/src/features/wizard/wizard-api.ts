import {
  buildPaths,
  WIZARD_ROUTES,
  wizardPaths,
  type TAgentType,
  type TBuildStarted,
  type TKeyCheckResult,
  type TLlmProvider,
  type TPipelineCreated,
  type TPipelineDetail,
  type TSourceTables,
  type TSourceTablesRequest,
  type TWizardStepSaved,
} from '@agentloom/contracts';
import { useIsMutating, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { dashboardKeys } from '../../pages/dashboard/dashboard-api';

/**
 * The wizard calls (docs/product.md#the-calls-behind-the-screens). Every step is a form-encoded
 * POST (the file upload is multipart) that carries session_id; the gateway answers `{ session_id,
 * message, saved }` or `{ detail }`.
 */
export type WizardCall =
  { path: string; form: Record<string, string> } | { path: string; multipart: FormData };

export function sendWizardCall(call: WizardCall): Promise<TWizardStepSaved> {
  return 'form' in call
    ? api<TWizardStepSaved>(call.path, { form: call.form })
    : api<TWizardStepSaved>(call.path, { multipart: call.multipart });
}

function upload(path: string, sessionId: string, file: File): WizardCall {
  const body = new FormData();
  body.append('session_id', sessionId);
  body.append('file', file);
  return { path, multipart: body };
}

/** An LLM key typed into the wizard, or one of the user's vault keys (sent as api_key_id). */
export type LlmKey = { api_key: string } | { api_key_id: string };

export const ragCalls = {
  source: (session_id: string, source_type: string): WizardCall => ({
    path: WIZARD_ROUTES.rag.source,
    form: { session_id, source_type },
  }),
  upload: (sessionId: string, file: File) => upload(WIZARD_ROUTES.rag.upload, sessionId, file),
  database: (
    session_id: string,
    fields: { source_type: string; uri: string; database: string; collection_or_table: string },
  ): WizardCall => ({ path: WIZARD_ROUTES.rag.database, form: { session_id, ...fields } }),
  embedding: (session_id: string, model_name: string): WizardCall => ({
    path: WIZARD_ROUTES.rag.embedding,
    form: { session_id, model_name },
  }),
  vectorDb: (session_id: string, vector_db: string): WizardCall => ({
    path: WIZARD_ROUTES.rag.vectorDb,
    form: { session_id, vector_db },
  }),
  pinecone: (
    session_id: string,
    fields: { api_key: string; environment: string; index_name: string },
  ): WizardCall => ({
    path: WIZARD_ROUTES.rag.pinecone,
    form: { session_id, ...fields },
  }),
  localVectorDb: (
    session_id: string,
    fields: { vector_db: string; url: string; dimensions: string; distance_metric: string },
  ): WizardCall => ({
    path: WIZARD_ROUTES.rag.localVectorDb,
    form: { session_id, ...fields },
  }),
  provider: (session_id: string, provider: string): WizardCall => ({
    path: WIZARD_ROUTES.rag.provider,
    form: { session_id, provider: provider.toLowerCase() },
  }),
  credentials: (session_id: string, key: LlmKey, model_name: string): WizardCall => ({
    path: WIZARD_ROUTES.rag.credentials,
    form: { session_id, ...key, model_name },
  }),
  systemPrompt: (session_id: string, prompt: string): WizardCall => ({
    path: WIZARD_ROUTES.rag.systemPrompt,
    form: { session_id, prompt },
  }),
  ui: (session_id: string, ui: string): WizardCall => ({
    path: WIZARD_ROUTES.rag.ui,
    form: { session_id, ui },
  }),
};

export const sqlCalls = {
  source: (session_id: string, source_type: string): WizardCall => ({
    path: WIZARD_ROUTES.sql.source,
    form: { session_id, source_type },
  }),
  upload: (sessionId: string, file: File) => upload(WIZARD_ROUTES.sql.upload, sessionId, file),
  database: (
    session_id: string,
    fields: { db_uri: string; db_name: string; table_name: string },
  ): WizardCall => ({ path: WIZARD_ROUTES.sql.database, form: { session_id, ...fields } }),
  provider: (session_id: string, llm_provider: string): WizardCall => ({
    path: WIZARD_ROUTES.sql.provider,
    form: { session_id, llm_provider: llm_provider.toLowerCase() },
  }),
  key: (session_id: string, key: LlmKey): WizardCall => ({
    path: WIZARD_ROUTES.sql.key,
    form: { session_id, ...key },
  }),
  model: (session_id: string, model: string): WizardCall => ({
    path: WIZARD_ROUTES.sql.model,
    form: { session_id, model },
  }),
  systemPrompt: (session_id: string, prompt: string): WizardCall => ({
    path: WIZARD_ROUTES.sql.systemPrompt,
    form: { session_id, prompt },
  }),
  framework: (session_id: string, framework: string): WizardCall => ({
    path: WIZARD_ROUTES.sql.framework,
    form: { session_id, framework },
  }),
  ui: (session_id: string, ui: string): WizardCall => ({
    path: WIZARD_ROUTES.sql.ui,
    form: { session_id, ui },
  }),
};

/** The agent as the server holds it: every saved answer the wizard shows (`GET /pipelines/{id}`). */
export const pipelineKey = (sessionId: string) => [...dashboardKeys.agents, sessionId] as const;

const pipelineQuery = (sessionId: string) => ({
  queryKey: pipelineKey(sessionId),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api<TPipelineDetail>(`/pipelines/${encodeURIComponent(sessionId)}`, { signal }),
});

export function usePipeline(sessionId: string) {
  return useQuery({ ...pipelineQuery(sessionId), enabled: sessionId !== '' });
}

/** One mutation key per wizard: the busy flag is "any call of this wizard in flight". */
const wizardKey = (type: TAgentType) => ['wizard', type] as const;

export function useWizardMutations(type: TAgentType) {
  const client = useQueryClient();
  const mutationKey = wizardKey(type);
  // After a save the agent and the agents list are read again before the call counts as done:
  // the next step starts from what the server now holds (the source step decides step 3's form),
  // and the wizard stays busy until then, so a second click cannot slip in between.
  const refresh = () => client.invalidateQueries({ queryKey: dashboardKeys.agents });
  const create = useMutation({
    mutationKey,
    mutationFn: async (name: string) => {
      const created = await api<TPipelineCreated>('/pipelines', {
        json: { name, agent_type: type },
      });
      // Read before the wizard moves to the agent's address: step 2 opens at once, in the same
      // frame (focus goes on to its heading), instead of behind a loading screen.
      await client.prefetchQuery(pipelineQuery(created.session_id));
      return created;
    },
    onSuccess: refresh,
  });
  const rename = useMutation({
    mutationKey,
    mutationFn: async ({ sessionId, name }: { sessionId: string; name: string }) => {
      const renamed = await api<TPipelineDetail>(`/pipelines/${encodeURIComponent(sessionId)}`, {
        method: 'PATCH',
        json: { name },
      });
      await refresh();
      return renamed;
    },
  });
  const save = useMutation({
    mutationKey,
    mutationFn: async (call: WizardCall) => {
      const saved = await sendWizardCall(call);
      await refresh();
      return saved;
    },
  });
  const build = useMutation({
    mutationKey,
    mutationFn: (sessionId: string) =>
      api<TBuildStarted>(buildPaths.start(type), { form: { session_id: sessionId } }),
    // Not awaited: "build started!" and the build screen come as soon as the build is queued, not
    // after the agents list is read again (a second or more, by which time it may be built).
    onSuccess: () => void refresh(),
  });
  const busy = useIsMutating({ mutationKey }) > 0;
  return { create, rename, save, build, busy };
}

/** Asks the provider (through the gateway) whether it takes the key, and which models it serves. */
export function checkLlmKey(provider: TLlmProvider, key: LlmKey): Promise<TKeyCheckResult> {
  return api<TKeyCheckResult>(WIZARD_ROUTES.keyCheck, { json: { provider, ...key } });
}

/** The tables of the database the source step names, to pick one (checked like connecting). */
export function listSourceTables(
  sessionId: string,
  request: TSourceTablesRequest,
): Promise<TSourceTables> {
  return api<TSourceTables>(wizardPaths.sourceTables(sessionId), {
    json: request,
  });
}
