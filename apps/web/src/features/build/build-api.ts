import {
  agentProjectName,
  BUILD_EVENTS,
  BUILDS_NAMESPACE,
  buildPaths,
  type TAgentType,
  type TBuildCompletedEvent,
  type TBuildFailedEvent,
  type TBuildSnapshot,
  type TBuildStageEvent,
  type TBuildStarted,
  type TBuildSubscribeAck,
  type TBuildView,
  type TPipelineDetail,
} from '@agentloom/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { io } from 'socket.io-client';
import { useAuth } from '../../auth/auth-context';
import { api, API_URL, ApiError, framedGatewayPage } from '../../lib/api';
import { saveDownload } from '../../lib/download';
import { applyStageEvent, mergeBuildView } from './build-progress';

export const buildQueryKey = (sessionId: string) => ['build', sessionId] as const;

/** While the live feed is down, the screen polls at this pace instead… */
const POLL_MS = 2_000;
/** …and while it is up, now and then anyway, so a lost event cannot leave a build hanging. */
const LIVE_CHECK_MS = 15_000;

/**
 * The latest build of an agent, kept current by the gateway's Socket.IO feed (namespace
 * /builds): a snapshot on subscribe, then every stage and the end. The feed writes into the same
 * react-query cache as GET /builds/{sessionId}, so a reload mid-build resumes from the server's
 * state, and the screen falls back to polling if the socket cannot connect.
 */
export function useBuild(sessionId: string) {
  const queryClient = useQueryClient();
  const live = useBuildFeed(sessionId);
  const queryKey = buildQueryKey(sessionId);

  const query = useQuery({
    queryKey,
    queryFn: async ({ signal }) =>
      mergeBuildView(
        queryClient.getQueryData<TBuildView>(queryKey),
        await api<TBuildView>(buildPaths.view(sessionId), { signal }),
      ),
    enabled: Boolean(sessionId),
    // 404 means no such agent or no build yet: asking again at once will not change that (the
    // polling below asks again at its own pace).
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    refetchInterval: (current) => {
      if (live) return current.state.data?.status === 'Building' ? LIVE_CHECK_MS : false;
      // Without the feed, polling is the only news: of progress, and of a build that did not
      // exist yet at the last read (404) or a read that failed, or the screen would stay there.
      return current.state.status === 'error' || current.state.data?.status === 'Building'
        ? POLL_MS
        : false;
    },
  });

  return { ...query, live };
}

/** The build's Socket.IO feed, written into the query cache; true while it is subscribed. */
function useBuildFeed(sessionId: string): boolean {
  const { token } = useAuth();
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);

  useEffect(() => {
    if (!sessionId || !token) return;
    const key = buildQueryKey(sessionId);
    const update = (change: (view: TBuildView) => TBuildView) =>
      queryClient.setQueryData<TBuildView>(key, (view) => (view ? change(view) : view));
    // A fetch already in flight may have read the build before this event; react-query would
    // hand back that fetch's answer (it only cancels fetches of queries that hold data), so it
    // is cancelled first and the build read again.
    const refresh = () =>
      void queryClient
        .cancelQueries({ queryKey: key })
        .then(() => queryClient.invalidateQueries({ queryKey: key }));

    // WebSocket only: no long-polling phase, so any gateway replica can serve the connection
    // without sticky sessions (the relay broadcasts to every replica).
    const socket = io(`${API_URL}${BUILDS_NAMESPACE}`, {
      auth: { token },
      transports: ['websocket'],
    });
    // Subscribing again after every (re)connection: the snapshot covers what was missed.
    socket.on('connect', () => {
      socket.emit(BUILD_EVENTS.subscribe, { sessionId }, (ack: TBuildSubscribeAck) =>
        setLive(ack.ok),
      );
    });
    socket.on('disconnect', () => setLive(false));
    socket.on('connect_error', () => setLive(false));
    socket.on(BUILD_EVENTS.snapshot, (snapshot: TBuildSnapshot) => {
      const build = snapshot.build;
      if (build) {
        queryClient.setQueryData<TBuildView>(key, (view) => mergeBuildView(view, build));
      }
    });
    socket.on(BUILD_EVENTS.stage, (event: TBuildStageEvent) => {
      if (!queryClient.getQueryData(key)) return refresh();
      update((view) => applyStageEvent(view, event));
    });
    socket.on(BUILD_EVENTS.completed, (event: TBuildCompletedEvent) => {
      update((view) => ({
        ...view,
        build_id: event.build_id,
        status: 'Built',
        error: null,
        download_url: event.download_url,
      }));
      refresh();
    });
    socket.on(BUILD_EVENTS.failed, (event: TBuildFailedEvent) => {
      update((view) => ({
        ...view,
        build_id: event.build_id,
        status: 'Failed',
        error: event.error,
      }));
      refresh();
    });
    return () => {
      socket.disconnect();
      setLive(false);
    };
  }, [sessionId, token, queryClient]);

  return live;
}

/** The agent's name, shown above the stages. */
export function useAgentName(sessionId: string) {
  return useQuery({
    queryKey: ['build', sessionId, 'pipeline'],
    queryFn: ({ signal }) =>
      api<TPipelineDetail>(`/pipelines/${encodeURIComponent(sessionId)}`, { signal }),
    select: (pipeline) => pipeline.name,
    enabled: Boolean(sessionId),
    staleTime: Infinity,
  }).data;
}

/** Starts the build again (after a failure); the feed then reports the new build's stages. */
export function useRebuild(type: TAgentType, sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<TBuildStarted>(buildPaths.start(type), { form: { session_id: sessionId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildQueryKey(sessionId) }),
  });
}

/** The preview start paths of each agent kind. */
export const PREVIEW_PATHS: Record<TAgentType, (sessionId: string) => string> = {
  rag: (id) => `/rag/previews/${encodeURIComponent(id)}/start`,
  sql: (id) => `/sql/previews/previews/${encodeURIComponent(id)}/start`,
};

/** 'Preview failed: ' plus the detail, or the agent kind's own fallback. */
export function previewFailure(error: unknown, type: TAgentType): string {
  if (error instanceof ApiError) {
    return (
      error.detail ??
      (type === 'sql' ? 'Failed to start SQL agent preview.' : 'Failed to start preview.')
    );
  }
  return 'Unknown error occurred.';
}

/**
 * The frame address of a preview: absolute (the gateway may answer a path on itself), in the
 * app's current theme so the preview page opens light or dark to match.
 */
export function previewFrameUrl(url: string, theme: 'light' | 'dark'): string {
  const page = framedGatewayPage(url.startsWith('/') ? `${API_URL}${url}` : url);
  const absolute = new URL(page, window.location.href);
  absolute.searchParams.set('theme', theme);
  return absolute.toString();
}

export function usePreview(type: TAgentType, sessionId: string) {
  return useMutation({
    mutationFn: () =>
      api<{ preview_url: string }>(PREVIEW_PATHS[type](sessionId), { method: 'POST' }),
  });
}

/** GET {type}/builds/{id}/download with the bearer header, saved as {type}-agent-{id}.zip. */
export function useDownload(type: TAgentType, sessionId: string) {
  return useMutation({
    mutationFn: () =>
      saveDownload(
        buildPaths.download(type, sessionId),
        `${agentProjectName(type, sessionId)}.zip`,
      ),
  });
}
