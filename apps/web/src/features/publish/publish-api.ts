import {
  curatedAnswerPaths,
  insightsPaths,
  type TAccessKey,
  type TAgentInsights,
  type TConversation,
  type TConversationSummary,
  type TCreateAccessKeyRequest,
  type TCreatedAccessKey,
  type TCuratedAnswer,
  type TCuratedAnswerRequest,
  type TCuratedAnswers,
  type TCuratedAnswerUpdate,
  type TPublication,
  type TPublicationSettings,
} from '@agentloom/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { saveDownload } from '../../lib/download';

/** React Query hooks for a published agent: publication, access keys, conversations. */
const keys = {
  publication: (id: string) => ['agents', id, 'publication'] as const,
  accessKeys: (id: string) => ['agents', id, 'keys'] as const,
  conversations: (id: string) => ['agents', id, 'conversations'] as const,
  curated: (id: string) => ['agents', id, 'curated-answers'] as const,
  insights: (id: string) => ['agents', id, 'insights'] as const,
};
const base = (id: string) => `/agents/${encodeURIComponent(id)}`;

export function usePublication(agentId: string) {
  return useQuery({
    queryKey: keys.publication(agentId),
    queryFn: ({ signal }) => api<TPublication>(`${base(agentId)}/publication`, { signal }),
  });
}

/** Publish (or move to the newest build), unpublish, or change the share and widget settings. */
export function usePublicationChange(agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: 'publish' | 'unpublish' | TPublicationSettings) =>
      change === 'publish'
        ? api<TPublication>(`${base(agentId)}/publication`, { method: 'PUT' })
        : change === 'unpublish'
          ? api(`${base(agentId)}/publication`, { method: 'DELETE' })
          : api<TPublication>(`${base(agentId)}/publication`, { method: 'PATCH', json: change }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: keys.publication(agentId) }),
        // Which build visitors see is marked in the build history.
        client.invalidateQueries({ queryKey: ['pipelines', agentId, 'builds'] }),
      ]);
    },
  });
}

/**
 * Serves one Built build of the agent — the newest, or an older one (a rollback) — publishing
 * the agent if it was not. The build history and the publication are read again.
 */
export function usePublishBuild(agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (buildId: string) =>
      api<TPublication>(`${base(agentId)}/publication`, {
        method: 'PUT',
        json: { build_id: buildId },
      }),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: keys.publication(agentId) }),
        client.invalidateQueries({ queryKey: ['pipelines', agentId, 'builds'] }),
      ]);
    },
  });
}

export function useAccessKeys(agentId: string) {
  return useQuery({
    queryKey: keys.accessKeys(agentId),
    queryFn: ({ signal }) => api<TAccessKey[]>(`${base(agentId)}/keys`, { signal }),
  });
}

export function useCreateAccessKey(agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: TCreateAccessKeyRequest) =>
      api<TCreatedAccessKey>(`${base(agentId)}/keys`, { json: request }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.accessKeys(agentId) });
    },
  });
}

export function useRevokeAccessKey(agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      api<TAccessKey>(`${base(agentId)}/keys/${encodeURIComponent(keyId)}`, { method: 'DELETE' }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.accessKeys(agentId) });
    },
  });
}

export function useConversations(agentId: string) {
  return useQuery({
    queryKey: keys.conversations(agentId),
    queryFn: ({ signal }) =>
      api<TConversationSummary[]>(`${base(agentId)}/conversations`, { signal }),
  });
}

/** One conversation with every turn, read when its owner opens it. */
export function useConversation(agentId: string, conversationId: string) {
  return useQuery({
    queryKey: [...keys.conversations(agentId), conversationId] as const,
    queryFn: ({ signal }) =>
      api<TConversation>(`${base(agentId)}/conversations/${encodeURIComponent(conversationId)}`, {
        signal,
      }),
  });
}

export function useDeleteConversation(agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (conversationId: string) =>
      api(`${base(agentId)}/conversations/${encodeURIComponent(conversationId)}`, {
        method: 'DELETE',
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: keys.conversations(agentId) });
    },
  });
}

/** Saves every conversation of the agent as a JSON or CSV file. */
export async function exportConversations(agentId: string, format: 'json' | 'csv') {
  await saveDownload(
    `${base(agentId)}/conversations/export`,
    `conversations-${agentId}.${format}`,
    {
      query: { format },
    },
  );
}

/** The owner's curated answers: answered word for word to a question close in meaning. */
export function useCuratedAnswers(agentId: string) {
  return useQuery({
    queryKey: keys.curated(agentId),
    queryFn: ({ signal }) => api<TCuratedAnswers>(curatedAnswerPaths.list(agentId), { signal }),
  });
}

/**
 * Adds a curated answer, changes one (`id` with the fields to change) or deletes one (`id` and
 * `remove`); the list is read again after each.
 */
export function useCuratedAnswerChange(agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      change:
        | { add: TCuratedAnswerRequest }
        | { id: string; update: TCuratedAnswerUpdate }
        | { id: string; remove: true },
    ) =>
      'add' in change
        ? api<TCuratedAnswer>(curatedAnswerPaths.list(agentId), { json: change.add })
        : 'update' in change
          ? api<TCuratedAnswer>(curatedAnswerPaths.one(agentId, change.id), {
              method: 'PUT',
              json: change.update,
            })
          : api(curatedAnswerPaths.one(agentId, change.id), { method: 'DELETE' }),
    onSuccess: async () => {
      // The insights say which answers have a curated one.
      await Promise.all([
        client.invalidateQueries({ queryKey: keys.curated(agentId) }),
        client.invalidateQueries({ queryKey: keys.insights(agentId) }),
      ]);
    },
  });
}

/** The last 14 days of the published agent: questions per day, answers to look at again. */
export function useInsights(agentId: string) {
  return useQuery({
    queryKey: keys.insights(agentId),
    queryFn: ({ signal }) => api<TAgentInsights>(insightsPaths.insights(agentId), { signal }),
  });
}
