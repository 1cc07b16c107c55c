import {
  agentSlug,
  type TAgentImportPlan,
  type TPipelineCreated,
  type TPipelineListItem,
} from '@agentloom/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, errorDetail } from '../../lib/api';
import { saveDownload } from '../../lib/download';
import { notify } from '../../lib/notify';
import { dashboardKeys } from './dashboard-api';

/** Agents as files (issue 31): export from a card, import as a new draft. */

/** Saves the agent as `<name>.agentloom.zip` (agent.json, prompt, source file; no secrets). */
export function useExportAgent() {
  return useMutation({
    mutationFn: (agent: TPipelineListItem) =>
      saveDownload(
        `/pipelines/${encodeURIComponent(agent.id)}/export`,
        `${agentSlug(agent.name)}.agentloom.zip`,
      ),
    onError: (error) =>
      notify.error('Export failed', errorDetail(error) ?? 'Could not export the agent.'),
  });
}

const withFile = (file: File, fields: Record<string, string> = {}) => {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value) body.set(key, value);
  body.set('file', file);
  return body;
};

/** What a file holds and what the import will ask for (nothing is created). */
export function useCheckAgentFile() {
  return useMutation({
    mutationFn: (file: File) =>
      api<TAgentImportPlan>('/pipelines/import/check', { multipart: withFile(file) }),
  });
}

export function useImportAgent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, fields }: { file: File; fields: Record<string, string> }) =>
      api<TPipelineCreated>('/pipelines/import', { multipart: withFile(file, fields) }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: dashboardKeys.agents });
    },
  });
}
