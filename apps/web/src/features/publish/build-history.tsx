import { agentSlug, buildPaths, type TBuildHistoryItem } from '@agentloom/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Download, Rocket } from 'lucide-react';
import { useState } from 'react';
import { Alert, Badge, Button, Spinner } from '../../components/ui';
import { api, errorDetail } from '../../lib/api';
import { saveDownload } from '../../lib/download';
import { notify } from '../../lib/notify';
import { statusTone } from '../../pages/dashboard/status-tone';
import { EvaluationSummary, useScoreCheckedPublish } from '../evaluation/build-evaluation';
import { usePublishBuild } from './publish-api';

export function useAgentBuilds(agentId: string) {
  return useQuery({
    queryKey: ['pipelines', agentId, 'builds'],
    queryFn: ({ signal }) => api<TBuildHistoryItem[]>(buildPaths.history(agentId), { signal }),
  });
}

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * An agent's builds, newest first: number, status, time, what changed, which one visitors see,
 * each zip, and "Publish this build" for any other Built one — the newest, or an older one to
 * roll back to. A refused publish keeps its `detail` under the list.
 */
export function AgentBuilds({ agentId, agentName }: { agentId: string; agentName: string }) {
  const builds = useAgentBuilds(agentId);
  const { publish, publishBuild, publishError, checked } = usePublishing(agentId);
  const download = useMutation({
    mutationFn: (build: TBuildHistoryItem) =>
      // Named after the agent and numbered, so two builds do not overwrite each other.
      saveDownload(build.download_url!, `${agentSlug(agentName)}-build-${build.number}.zip`),
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
    <div className="space-y-2">
      <ol aria-label={`Builds of ${agentName}`} className="space-y-2">
        {builds.data.map((build) => (
          <li
            key={build.build_id}
            aria-label={`Build ${build.number}`}
            className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700"
          >
            <span className="font-semibold text-slate-900 dark:text-white">
              Build {build.number}
            </span>
            <Badge tone={statusTone(build.status)}>{build.status}</Badge>
            {build.published && <Badge tone="indigo">Visitors see this build</Badge>}
            <time dateTime={build.created_at} className="text-slate-600 dark:text-slate-300">
              {when(build.created_at)}
            </time>
            <span className="w-full text-slate-700 dark:text-slate-300">
              {build.changes.length > 0 ? build.changes.join(', ') : 'No changes'}
              {build.error && ` · ${build.error}`}
            </span>
            <EvaluationSummary evaluation={build.evaluation} />
            {build.status === 'Built' && !build.published && (
              <Button
                size="sm"
                onClick={() => publishBuild(build)}
                loading={publish.isPending && publish.variables === build.build_id}
                disabled={publish.isPending}
                aria-label={`Publish build ${build.number}`}
              >
                <Rocket aria-hidden="true" className="h-4 w-4" />
                Publish this build
              </Button>
            )}
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
      {publishError && <Alert>{publishError}</Alert>}
      {checked.dialog}
    </div>
  );
}

/**
 * Publishing one build of the list: asked first when it passes fewer checks than the published
 * one (`checked.dialog` asks), its refusal kept in `publishError`.
 */
function usePublishing(agentId: string) {
  const publish = usePublishBuild(agentId);
  const checked = useScoreCheckedPublish(agentId);
  const [publishError, setPublishError] = useState<string | null>(null);
  function publishBuild(build: TBuildHistoryItem) {
    setPublishError(null);
    checked.ask(build.build_id, () =>
      publish.mutate(build.build_id, {
        onSuccess: () => notify.success(`Visitors now see build ${build.number}`),
        onError: (error) =>
          setPublishError(
            errorDetail(error) ?? 'The build could not be published. Please try again.',
          ),
      }),
    );
  }
  return { publish, publishBuild, publishError, checked };
}
