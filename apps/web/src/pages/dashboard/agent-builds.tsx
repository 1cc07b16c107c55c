import {
  agentSlug,
  buildPaths,
  type TBuildHistoryItem,
  type TPipelineListItem,
} from '@agentloom/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { Badge, Button, Spinner } from '../../components/ui';
import { api, errorDetail } from '../../lib/api';
import { saveDownload } from '../../lib/download';
import { notify } from '../../lib/notify';
import { dashboardKeys } from './dashboard-api';
import { statusTone } from './status-tone';

export function useAgentBuilds(agentId: string) {
  return useQuery({
    queryKey: [...dashboardKeys.agents, agentId, 'builds'],
    queryFn: ({ signal }) => api<TBuildHistoryItem[]>(buildPaths.history(agentId), { signal }),
  });
}

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** An agent's builds, newest first: number, status, time, what changed, and each zip. */
export function AgentBuilds({ agent }: { agent: TPipelineListItem }) {
  const builds = useAgentBuilds(agent.id);
  const download = useMutation({
    mutationFn: (build: TBuildHistoryItem) =>
      // Named after the agent and numbered, so two builds do not overwrite each other.
      saveDownload(build.download_url!, `${agentSlug(agent.name)}-build-${build.number}.zip`),
    onError: (error) =>
      notify.error('Download failed', errorDetail(error) ?? 'Could not download the build.'),
  });

  if (builds.isPending) return <Spinner size="sm" label="Loading builds…" />;
  if (builds.isError) {
    return <p className="text-sm text-red-700 dark:text-red-300">Could not load the builds.</p>;
  }
  if (builds.data.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-300">No builds yet.</p>;
  }
  return (
    <ol aria-label={`Builds of ${agent.name}`} className="space-y-2">
      {builds.data.map((build) => (
        <li
          key={build.build_id}
          aria-label={`Build ${build.number}`}
          className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700"
        >
          <span className="font-semibold text-slate-900 dark:text-white">Build {build.number}</span>
          <Badge tone={statusTone(build.status)}>{build.status}</Badge>
          <time dateTime={build.created_at} className="text-slate-600 dark:text-slate-300">
            {when(build.created_at)}
          </time>
          <span className="w-full text-slate-700 dark:text-slate-300">
            {build.changes.length > 0 ? build.changes.join(', ') : 'No changes'}
            {build.error && ` · ${build.error}`}
          </span>
          {build.download_url && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => download.mutate(build)}
              loading={download.isPending && download.variables?.build_id === build.build_id}
            >
              <Download aria-hidden="true" className="h-4 w-4" />
              Download build {build.number}
            </Button>
          )}
        </li>
      ))}
    </ol>
  );
}
