import { agentProjectName, buildPaths, type TPipelineListItem } from '@agentloom/contracts';
import { useMutation } from '@tanstack/react-query';
import { Bot, FileUp, Plus, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Alert, Button, buttonClasses, Card, Spinner } from '../../components/ui';
import { PREVIEW_PATHS, previewFailure } from '../../features/build/build-api';
import { PreviewFrame } from '../../features/build/preview-frame';
import { api, errorDetail } from '../../lib/api';
import { saveDownload } from '../../lib/download';
import { notify } from '../../lib/notify';
import { AgentCard, type AgentCardActions } from './agent-card';
import { BackToDashboard, VIEW_TITLE_ID, ViewHeader } from './back-button';
import { useExportAgent } from './agent-files-api';
import { ImportAgentDialog } from './import-agent-dialog';
import { useAgents, useDeleteAgent } from './dashboard-api';

/** A Built agent's preview: starting it, the running one, and its failure alert. */
function useAgentPreview() {
  const [preview, setPreview] = useState<{ agent: TPipelineListItem; url: string } | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const startPreview = useMutation({
    mutationFn: (agent: TPipelineListItem) =>
      api<{ preview_url: string }>(PREVIEW_PATHS[agent.type](agent.id), { method: 'POST' }),
    onMutate: () => setPreviewError(null),
    onSuccess: (answer, agent) => setPreview({ agent, url: answer.preview_url }),
    // The failure alert, shown inline (role=alert) next to the list; no toast on top of it.
    onError: (error, agent) =>
      setPreviewError(`Preview failed: ${previewFailure(error, agent.type)}`),
  });
  return { preview, setPreview, previewError, startPreview };
}

/** An agent's latest Built zip, saved as {type}-agent-{id}.zip. */
function useAgentDownload() {
  return useMutation({
    mutationFn: (agent: TPipelineListItem) =>
      saveDownload(
        buildPaths.download(agent.type, agent.id),
        `${agentProjectName(agent.type, agent.id)}.zip`,
      ),
    onError: (error) =>
      notify.error('Download failed', errorDetail(error) ?? 'Could not download the agent.'),
  });
}

/** docs/product.md#the-dashboard-agents. */
export function AgentsView({ onBack }: { onBack: () => void }) {
  // A failed list load is silently ignored (the view shows its empty state).
  const agents = useAgents();
  const remove = useDeleteAgent();
  const [toDelete, setToDelete] = useState<TPipelineListItem | null>(null);
  const { preview, setPreview, previewError, startPreview } = useAgentPreview();
  const [openBuilds, setOpenBuilds] = useState<string | null>(null);
  const [openPublish, setOpenPublish] = useState<string | null>(null);

  const download = useAgentDownload();
  const exportAgent = useExportAgent();

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

  return (
    <section aria-labelledby={VIEW_TITLE_ID}>
      <BackToDashboard onBack={onBack} />
      <ViewHeader title="My Agents" actions={<HeaderActions />} />

      {previewError && <Alert className="mb-4">{previewError}</Alert>}
      {preview && (
        <AgentPreview
          name={preview.agent.name}
          url={preview.url}
          onClose={() => setPreview(null)}
        />
      )}

      <AgentList
        pending={agents.isPending}
        list={agents.data ?? []}
        actions={{
          onPreview: (agent) => startPreview.mutate(agent),
          onDownload: (agent) => download.mutate(agent),
          onDelete: setToDelete,
          onExport: (agent) => exportAgent.mutate(agent),
          exportingId: exportAgent.isPending ? exportAgent.variables?.id : undefined,
          previewingId: startPreview.isPending ? startPreview.variables?.id : undefined,
          downloadingId: download.isPending ? download.variables?.id : undefined,
          openPublish,
          setOpenPublish,
          openBuilds,
          setOpenBuilds,
        }}
      />

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

/** The view's header buttons: Import agent (with its dialog) and Create New Agent. */
function HeaderActions() {
  const [importing, setImporting] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setImporting(true)}>
        <FileUp aria-hidden="true" className="h-4 w-4" />
        Import agent
      </Button>
      <Link to="/dashboard/create-agent" className={buttonClasses('primary')}>
        <Plus aria-hidden="true" className="h-4 w-4" />
        Create New Agent
      </Link>
      <ImportAgentDialog open={importing} onClose={() => setImporting(false)} />
    </>
  );
}

/** The running preview of one agent, above the list. */
function AgentPreview({ name, url, onClose }: { name: string; url: string; onClose: () => void }) {
  return (
    <Card className="mb-6 p-4">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-900 dark:text-white">Preview: {name}</h3>
        <Button variant="ghost" size="sm" onClick={onClose}>
          <X aria-hidden="true" className="h-4 w-4" />
          Close Preview
        </Button>
      </div>
      <PreviewFrame url={url} title={`Preview of ${name}`} />
    </Card>
  );
}

/** The list with its loading and empty states. */
function AgentList({
  pending,
  list,
  actions,
}: {
  pending: boolean;
  list: TPipelineListItem[];
  actions: AgentCardActions;
}) {
  if (pending) {
    return (
      <div className="grid min-h-48 place-items-center text-indigo-600 dark:text-indigo-400">
        <Spinner size="lg" label="Loading agents…" />
      </div>
    );
  }
  if (list.length === 0) {
    return (
      <Card className="flex flex-col items-center gap-3 py-12 text-center">
        <Bot aria-hidden="true" className="h-12 w-12 text-slate-400 dark:text-slate-500" />
        <p className="text-lg font-semibold text-slate-900 dark:text-white">No agents yet</p>
        <p className="max-w-sm text-sm text-slate-600 dark:text-slate-300">
          Create your first agent: choose a type, connect your data and build it in minutes.
        </p>
      </Card>
    );
  }
  return (
    // grid-cols-1 is minmax(0, 1fr): a long name or a code example inside a card wraps or
    // scrolls in the card instead of widening it past a phone's screen.
    <ul className="grid grid-cols-1 gap-4 md:grid-cols-2">
      {list.map((agent) => (
        <li key={agent.id} className="min-w-0">
          <AgentCard agent={agent} actions={actions} />
        </li>
      ))}
    </ul>
  );
}
