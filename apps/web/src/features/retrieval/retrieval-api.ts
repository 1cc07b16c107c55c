import {
  retrievalPaths,
  type TRetrievalSettingsRequest,
  type TRetrievalSettingsView,
  type TRetrievalTestResult,
} from '@agentloom/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const retrievalQueryKey = (agentId: string) => ['retrieval', agentId] as const;

/** The agent's retrieval settings, those of its newest build, and whether a build is needed. */
export function useRetrievalSettings(agentId: string) {
  return useQuery({
    queryKey: retrievalQueryKey(agentId),
    queryFn: ({ signal }) =>
      api<TRetrievalSettingsView>(retrievalPaths.settings(agentId), { signal }),
  });
}

/** Saves some settings; the others keep their value. They apply from the agent's next build. */
export function useSaveRetrieval(agentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: TRetrievalSettingsRequest) =>
      api<TRetrievalSettingsView>(retrievalPaths.settings(agentId), {
        method: 'PUT',
        json: settings,
      }),
    onSuccess: (view) => queryClient.setQueryData(retrievalQueryKey(agentId), view),
  });
}

/** The passages a question would read in the agent's newest build, searched now. */
export function useRetrievalTest(agentId: string) {
  return useMutation({
    mutationFn: (question: string) =>
      api<TRetrievalTestResult>(retrievalPaths.test(agentId), {
        method: 'POST',
        json: { question },
      }),
  });
}
