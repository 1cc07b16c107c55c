import type { TAgentType } from '@agentloom/contracts';
import { Download, Eye, LayoutDashboard, Rocket, RotateCcw, Search } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Alert, Button, buttonClasses, PageContainer, Spinner } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { STORAGE_KEYS } from '../../lib/storage';
import { KnowledgePanel } from '../knowledge/knowledge-panel';
import { PublishPanel } from '../publish/publish-panel';
import { VisitorsNote } from '../publish/visitors-note';
import { RetrievalPanel } from '../retrieval/retrieval-panel';
import {
  previewFailure,
  useAgentName,
  useBuild,
  useDownload,
  usePreview,
  useRebuild,
} from './build-api';
import { BuildProgress } from './build-progress-card';
import { BuildWarnings } from './build-warnings';
import { PreviewFrame } from './preview-frame';

/**
 * /build/{type}/{sessionId} (RAG and others) and /sql/build/animation/{type}/{sessionId} (SQL):
 * the real build's stages as the worker reports them, then Preview and Download Code.
 */
export function BuildPage({ flavor }: { flavor: 'rag' | 'sql' }) {
  const params = useParams();
  const sessionId = params.sessionId || localStorage.getItem(STORAGE_KEYS.sessionId) || '';
  const routeType: TAgentType = flavor === 'sql' || params.type === 'sql' ? 'sql' : 'rag';

  if (!sessionId) {
    return (
      <PageContainer size="md">
        <h1 className="sr-only">Build</h1>
        <Alert>Session ID is missing.</Alert>
        <DashboardLink className="mt-6" />
      </PageContainer>
    );
  }
  return <BuildScreen key={sessionId} sessionId={sessionId} routeType={routeType} />;
}

/**
 * The Built and Failed screens' actions: preview (its failure shown in place and as a toast),
 * download and build again, each telling the user what went wrong.
 */
function useBuildActions(type: TAgentType, sessionId: string) {
  const preview = usePreview(type, sessionId);
  const download = useDownload(type, sessionId);
  const rebuild = useRebuild(type, sessionId);
  const [previewError, setPreviewError] = useState<string | null>(null);

  function startPreview() {
    setPreviewError(null);
    preview.mutate(undefined, {
      onError: (error) => {
        const message = previewFailure(error, type);
        setPreviewError(message);
        notify.error(`Preview failed: ${message}`);
      },
    });
  }

  function startDownload() {
    download.mutate(undefined, {
      onError: (error) => notify.error('Download failed', errorDetail(error)),
    });
  }

  function startAgain() {
    rebuild.mutate(undefined, {
      onError: (error) =>
        notify.error(
          errorDetail(error) ??
            (type === 'rag'
              ? 'Build failed. Please check configuration.'
              : 'Build failed. Please try again.'),
        ),
    });
  }

  return { preview, download, rebuild, previewError, startPreview, startDownload, startAgain };
}

type BuildActions = ReturnType<typeof useBuildActions>;

function BuildScreen({ sessionId, routeType }: { sessionId: string; routeType: TAgentType }) {
  const build = useBuild(sessionId);
  const agentName = useAgentName(sessionId);
  const view = build.data;
  const type = view?.agent_type ?? routeType;
  const actions = useBuildActions(type, sessionId);
  const agentLabel = type === 'sql' ? 'SQL' : 'RAG';

  if (actions.preview.data) {
    return (
      <AgentPreview
        url={actions.preview.data.preview_url}
        agentLabel={agentLabel}
        actions={actions}
        publish={{ sessionId, name: agentName ?? `${agentLabel} agent` }}
      />
    );
  }

  return (
    <PageContainer size="md" className="py-8 lg:py-12">
      {build.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner size="lg" label="Loading the build…" />
        </div>
      ) : !view ? (
        <>
          <h1 className="mb-4 text-2xl font-bold text-slate-900 dark:text-white">
            {agentLabel} agent build
          </h1>
          <Alert>{errorDetail(build.error) ?? 'Could not load the build. Please try again.'}</Alert>
          <DashboardLink className="mt-6" />
        </>
      ) : (
        <>
          <BuildProgress
            view={view}
            live={build.live}
            agentLabel={agentLabel}
            agentName={agentName}
          />
          <BuildWarnings view={view} sessionId={sessionId} />
          {view.status === 'Built' && (
            <BuiltActions
              sessionId={sessionId}
              publishName={agentName ?? `${agentLabel} agent`}
              searches={type === 'rag'}
              actions={actions}
            />
          )}
          {view.status === 'Failed' && (
            <div className="mt-6 space-y-4">
              <Alert>{view.error ?? 'The build failed.'}</Alert>
              <div className="flex flex-col gap-3 sm:flex-row">
                <Button size="lg" loading={actions.rebuild.isPending} onClick={actions.startAgain}>
                  {!actions.rebuild.isPending && (
                    <RotateCcw aria-hidden="true" className="h-4 w-4" />
                  )}
                  Build again
                </Button>
                <DashboardLink />
              </div>
            </div>
          )}
          {type === 'rag' && (
            // Once a build exists, its sources: each change starts a build shown above.
            <div className="mt-8">
              <KnowledgePanel
                agentId={sessionId}
                agentName={agentName ?? 'this agent'}
                where="build-screen"
              />
            </div>
          )}
        </>
      )}
    </PageContainer>
  );
}

/**
 * The running agent, framed full width (docs/product.md#build-progress-preview-and-download), with
 * Download Code, Publish (an owner who likes what they see publishes from here) and the way back.
 */
function AgentPreview({
  url,
  agentLabel,
  actions,
  publish,
}: {
  url: string;
  agentLabel: string;
  actions: BuildActions;
  publish: { sessionId: string; name: string };
}) {
  const [publishOpen, setPublishOpen] = useState(false);
  // Not a PageContainer: the frame is full width, so only the page padding stays.
  return (
    <div className="w-full px-4 py-8 sm:px-6 lg:px-8">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h1 className="text-2xl font-bold text-slate-900 dark:text-white">
          {agentLabel} Agent Preview
        </h1>
        <div className="flex flex-wrap gap-2">
          <DownloadButton actions={actions} />
          <Button
            size="lg"
            variant="outline"
            aria-expanded={publishOpen}
            onClick={() => setPublishOpen(!publishOpen)}
          >
            <Rocket aria-hidden="true" className="h-4 w-4" />
            Publish
          </Button>
          <DashboardLink />
        </div>
      </div>
      {publishOpen && (
        <div className="mb-6">
          <PublishPanel agentId={publish.sessionId} agentName={publish.name} />
        </div>
      )}
      <PreviewFrame url={url} title={`${agentLabel} Agent Preview`} />
    </div>
  );
}

/**
 * A Built agent's actions: Preview, Download Code, Publish (with its panel), for a RAG agent its
 * retrieval settings and test, and the dashboard.
 */
function BuiltActions({
  sessionId,
  publishName,
  searches,
  actions,
}: {
  sessionId: string;
  publishName: string;
  searches: boolean;
  actions: BuildActions;
}) {
  const [publishOpen, setPublishOpen] = useState(false);
  const [retrievalOpen, setRetrievalOpen] = useState(false);
  const { preview, previewError } = actions;
  return (
    <>
      {/* The panel says it too, beside the builds. */}
      {!publishOpen && <VisitorsNote agentId={sessionId} className="mt-6" />}
      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <Button size="lg" loading={preview.isPending} onClick={actions.startPreview}>
          {!preview.isPending && <Eye aria-hidden="true" className="h-4 w-4" />}
          Preview
        </Button>
        <DownloadButton actions={actions} />
        <Button
          size="lg"
          variant="outline"
          aria-expanded={publishOpen}
          onClick={() => setPublishOpen(!publishOpen)}
        >
          <Rocket aria-hidden="true" className="h-4 w-4" />
          Publish
        </Button>
        {searches && (
          <Button
            size="lg"
            variant="outline"
            aria-expanded={retrievalOpen}
            onClick={() => setRetrievalOpen(!retrievalOpen)}
          >
            <Search aria-hidden="true" className="h-4 w-4" />
            Test retrieval
          </Button>
        )}
        <DashboardLink />
      </div>
      {publishOpen && (
        <div className="mt-6">
          <PublishPanel agentId={sessionId} agentName={publishName} />
        </div>
      )}
      {retrievalOpen && (
        <div className="mt-6">
          <RetrievalPanel agentId={sessionId} built />
        </div>
      )}
      {previewError !== null && (
        <section
          aria-label="Preview"
          className="mt-6 flex min-h-40 items-center justify-center rounded-xl border-2 border-dashed border-slate-300 p-6 text-center dark:border-slate-700"
        >
          <div>
            <p className="font-semibold text-slate-900 dark:text-white">Preview unavailable</p>
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{previewError}</p>
          </div>
        </section>
      )}
    </>
  );
}

function DownloadButton({ actions: { download, startDownload } }: { actions: BuildActions }) {
  return (
    <Button variant="outline" size="lg" loading={download.isPending} onClick={startDownload}>
      {!download.isPending && <Download aria-hidden="true" className="h-4 w-4" />}
      Download Code
    </Button>
  );
}

function DashboardLink({ className }: { className?: string }) {
  return (
    <Link to="/dashboard" className={buttonClasses('ghost', 'lg', className)}>
      <LayoutDashboard aria-hidden="true" className="h-4 w-4" />
      Back to Dashboard
    </Link>
  );
}
