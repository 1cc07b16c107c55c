import {
  knowledgePaths,
  type TAddSourceRequest,
  type TKnowledgeSource,
  type TKnowledgeSources,
  type TRefreshSchedule,
} from '@agentloom/contracts';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../lib/api';
import { buildQueryKey } from '../build/build-api';

/** React Query hooks of an agent's knowledge: its sources and every change to them. */
export const knowledgeKeys = {
  sources: (agentId: string) => ['agents', agentId, 'sources'] as const,
};

/** While a source is read or a build runs, the list is read again at this pace. */
const BUSY_POLL_MS = 2_000;

const busy = (data: TKnowledgeSources | undefined) =>
  Boolean(
    data &&
    (data.building_build_id !== null ||
      data.sources.some((source) => source.status === 'waiting' || source.status === 'indexing')),
  );

/**
 * The agent's sources, read again while one is read or a build runs (`poll`: before the first
 * build nothing moves until the owner builds). When a build ends, what it changed is read again:
 * the build history and which build visitors see.
 */
export function useSources(agentId: string, { poll = true }: { poll?: boolean } = {}) {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: knowledgeKeys.sources(agentId),
    queryFn: ({ signal }) => api<TKnowledgeSources>(knowledgePaths.list(agentId), { signal }),
    refetchInterval: (current) => (poll && busy(current.state.data) ? BUSY_POLL_MS : false),
  });
  const building = query.data?.building_build_id ?? null;
  const ran = useRef(false);
  useEffect(() => {
    if (building) {
      ran.current = true;
      return;
    }
    if (!ran.current) return;
    ran.current = false;
    void client.invalidateQueries({ queryKey: ['pipelines', agentId, 'builds'] });
    void client.invalidateQueries({ queryKey: ['agents', agentId, 'publication'] });
  }, [building, agentId, client]);
  return query;
}

/**
 * What a change makes stale: the sources, the build screen's build (a new build started), the
 * agent's build history and list (its status), and the publication (which build is served).
 */
export async function afterKnowledgeChange(client: QueryClient, agentId: string) {
  await Promise.all([
    client.invalidateQueries({ queryKey: knowledgeKeys.sources(agentId) }),
    client.invalidateQueries({ queryKey: buildQueryKey(agentId) }),
    client.invalidateQueries({ queryKey: ['pipelines'] }),
    client.invalidateQueries({ queryKey: ['agents', agentId, 'publication'] }),
  ]);
}

/** One change to an agent's knowledge, as the panel asks for it. */
export type KnowledgeChange =
  | { action: 'add-file'; file: File }
  | { action: 'add'; request: TAddSourceRequest }
  | { action: 'replace'; sourceId: string; file: File }
  | { action: 'remove'; sourceId: string }
  | { action: 'refresh'; sourceId: string }
  | { action: 'schedule'; sourceId: string; refresh: TRefreshSchedule };

function fileForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file);
  return form;
}

function send(agentId: string, change: KnowledgeChange): Promise<TKnowledgeSource | undefined> {
  const list = knowledgePaths.list(agentId);
  switch (change.action) {
    case 'add-file':
      return api(list, { method: 'POST', multipart: fileForm(change.file) });
    case 'add':
      return api(list, { method: 'POST', json: change.request });
    case 'replace':
      return api(knowledgePaths.one(agentId, change.sourceId), {
        method: 'PUT',
        multipart: fileForm(change.file),
      });
    case 'remove':
      return api(knowledgePaths.one(agentId, change.sourceId), { method: 'DELETE' });
    case 'refresh':
      return api(knowledgePaths.refresh(agentId, change.sourceId), { method: 'POST' });
    case 'schedule':
      return api(knowledgePaths.one(agentId, change.sourceId), {
        method: 'PATCH',
        json: { refresh: change.refresh },
      });
  }
}

/** Sends one change; afterwards everything it touched is read again. */
export function useKnowledgeChange(agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: KnowledgeChange) => send(agentId, change),
    onSuccess: () => afterKnowledgeChange(client, agentId),
  });
}
