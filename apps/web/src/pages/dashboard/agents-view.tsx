import type { TPipelineListItem } from '@agentloom/contracts';
import { useMutation } from '@tanstack/react-query';
import {
  Bot,
  ChevronDown,
  Download,
  History,
  Pencil,
  Play,
  Plus,
  Rocket,
  Trash2,
  X,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Alert, Badge, Button, buttonClasses, Card, Spinner } from '../../components/ui';
import { PREVIEW_PATHS, previewFailure } from '../../features/build/build-api';
import { PreviewFrame } from '../../features/build/preview-frame';
import { PublishPanel } from '../../features/publish/publish-panel';
import { wizardPath } from '../../features/wizard/step-navigation';
import { api, errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { formatKeyDate } from './api-key-format';
import { BackToDashboard, VIEW_TITLE_ID, ViewHeader } from './back-button';
import { AgentBuilds, saveZip } from './agent-builds';
import { useAgents, useDeleteAgent } from './dashboard-api';
import { statusTone } from './status-tone';

/** SPEC §2 Agents view. */
export function AgentsView({ onBack }: { onBack: () => void }) {
  // SPEC §8: a failed list load is silently ignored (the view shows its empty state).
  const agents = useAgents();
  const remove = useDeleteAgent();
  const [toDelete, setToDelete] = useState<TPipelineListItem | null>(null);
  const [preview, setPreview] = useState<{ agent: TPipelineListItem; url: string } | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [openBuilds, setOpenBuilds] = useState<string | null>(null);
  const [openPublish, setOpenPublish] = useState<string | null>(null);

  const startPreview = useMutation({
    mutationFn: (agent: TPipelineListItem) =>
      api<{ preview_url: string }>(PREVIEW_PATHS[agent.type](agent.id), { method: 'POST' }),
    onMutate: () => setPreviewError(null),
    onSuccess: (answer, agent) => setPreview({ agent, url: answer.preview_url }),
    // SPEC §8's alert, shown inline (role=alert) next to the list; no toast on top of it.
    onError: (error, agent) =>
      setPreviewError(`Preview failed: ${previewFailure(error, agent.type)}`),
  });

  const download = useMutation({
    // SPEC §7: the latest Built zip, saved as {type}-agent-{id}.zip.
    mutationFn: (agent: TPipelineListItem) =>
      saveZip(
        `/${agent.type}/builds/${encodeURIComponent(agent.id)}/download`,
        `${agent.type}-agent-${agent.id}.zip`,
      ),
    onError: (error) =>
      notify.error('Download failed', errorDetail(error) ?? 'Could not download the agent.'),
  });

  function confirmDelete() {
    if (!toDelete) return;
    const agent = toDelete;
    remove.mutate(agent.id, {
      onSuccess: () => {
        notify.success('Agent deleted', `"${agent.name}" was deleted.`);
        if (preview?.agent.id === agent.id) setPreview(null);
        setToDelete(null);
      },
      onError: (error) =>
        notify.error('Delete failed', errorDetail(error) ?? 'Could not delete the agent.'),
    });
  }

  const list = agents.data ?? [];

  return (
    <section aria-labelledby={VIEW_TITLE_ID}>
      <BackToDashboard onBack={onBack} />
      <ViewHeader
        title="My Agents"
        actions={
          <Link to="/dashboard/create-agent" className={buttonClasses('primary')}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            Create New Agent
          </Link>
        }
      />

      {previewError && <Alert className="mb-4">{previewError}</Alert>}
      {preview && (
        <Card className="mb-6 p-4">
          <div className="mb-3 flex items-center justify-between gap-2">
            <h3 className="font-semibold text-slate-900 dark:text-white">
              Preview: {preview.agent.name}
            </h3>
            <Button variant="ghost" size="sm" onClick={() => setPreview(null)}>
              <X aria-hidden="true" className="h-4 w-4" />
              Close Preview
            </Button>
          </div>
          <PreviewFrame url={preview.url} title={`Preview of ${preview.agent.name}`} />
        </Card>
      )}

      {agents.isPending ? (
        <div className="grid min-h-48 place-items-center text-indigo-600 dark:text-indigo-400">
          <Spinner size="lg" label="Loading agents…" />
        </div>
      ) : list.length === 0 ? (
        <Card className="flex flex-col items-center gap-3 py-12 text-center">
          <Bot aria-hidden="true" className="h-12 w-12 text-slate-400 dark:text-slate-500" />
          <p className="text-lg font-semibold text-slate-900 dark:text-white">No agents yet</p>
          <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">
            Create your first agent: choose a type, connect your data and build it in minutes.
          </p>
        </Card>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {list.map((agent) => (
            <li key={agent.id}>
              <Card as="article" className="flex h-full flex-col gap-3" aria-label={agent.name}>
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <h3 className="truncate text-lg font-semibold text-slate-900 dark:text-white">
                      {agent.name}
                    </h3>
                    <p className="text-sm text-slate-600 dark:text-slate-300">
                      {agent.description || 'No description'}
                    </p>
                  </div>
                  <Badge tone={statusTone(agent.status)}>{agent.status}</Badge>
                </div>
                <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
                  <div className="flex gap-1">
                    <dt className="text-slate-600 dark:text-slate-400">Type:</dt>
                    <dd className="font-medium text-slate-900 uppercase dark:text-slate-100">
                      {agent.type}
                    </dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="text-slate-600 dark:text-slate-400">Created:</dt>
                    <dd className="font-medium text-slate-900 dark:text-slate-100">
                      {formatKeyDate(agent.created_at)}
                    </dd>
                  </div>
                </dl>
                <div className="mt-auto flex flex-wrap items-center gap-2 pt-2">
                  {agent.status === 'Built' && (
                    <>
                      <Button
                        size="sm"
                        onClick={() => startPreview.mutate(agent)}
                        loading={startPreview.isPending && startPreview.variables?.id === agent.id}
                      >
                        <Play aria-hidden="true" className="h-4 w-4" />
                        Preview
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        onClick={() => download.mutate(agent)}
                        loading={download.isPending && download.variables?.id === agent.id}
                      >
                        <Download aria-hidden="true" className="h-4 w-4" />
                        Download
                      </Button>
                      <Button
                        size="sm"
                        variant="outline"
                        aria-expanded={openPublish === agent.id}
                        aria-label={`Publish ${agent.name}`}
                        onClick={() => setOpenPublish(openPublish === agent.id ? null : agent.id)}
                      >
                        <Rocket aria-hidden="true" className="h-4 w-4" />
                        Publish
                      </Button>
                    </>
                  )}
                  {agent.status === 'Draft' && (
                    // A draft opens where its setup stopped: the first unfinished step.
                    <Link
                      to={wizardPath(agent.type, agent.id)}
                      className={buttonClasses('primary', 'sm')}
                    >
                      <Play aria-hidden="true" className="h-4 w-4" />
                      Continue setup
                    </Link>
                  )}
                  {(agent.status === 'Built' || agent.status === 'Failed') && (
                    <Link
                      to={wizardPath(agent.type, agent.id, 1)}
                      className={buttonClasses('outline', 'sm')}
                      aria-label={`Edit ${agent.name}`}
                    >
                      <Pencil aria-hidden="true" className="h-4 w-4" />
                      Edit
                    </Link>
                  )}
                  {agent.status !== 'Draft' && (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-expanded={openBuilds === agent.id}
                      aria-controls={`builds-${agent.id}`}
                      onClick={() => setOpenBuilds(openBuilds === agent.id ? null : agent.id)}
                    >
                      <History aria-hidden="true" className="h-4 w-4" />
                      Builds
                      <ChevronDown aria-hidden="true" className="h-4 w-4" />
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="dangerGhost"
                    className="ml-auto"
                    aria-label={`Delete ${agent.name}`}
                    onClick={() => setToDelete(agent)}
                  >
                    <Trash2 aria-hidden="true" className="h-4 w-4" />
                  </Button>
                </div>
                {openPublish === agent.id && agent.status === 'Built' && (
                  <PublishPanel agentId={agent.id} agentName={agent.name} />
                )}
                {openBuilds === agent.id && (
                  <div id={`builds-${agent.id}`}>
                    <AgentBuilds agent={agent} />
                  </div>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        onCancel={() => setToDelete(null)}
        title="Delete this agent?"
        description={
          toDelete
            ? `"${toDelete.name}" and its builds will be deleted. This cannot be undone.`
            : ''
        }
        confirmLabel="Delete Agent"
        onConfirm={confirmDelete}
        busy={remove.isPending}
      />
    </section>
  );
}
