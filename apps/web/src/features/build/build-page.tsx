import type { TAgentType, TBuildView } from '@agentloom/contracts';
import { clsx } from 'clsx';
import {
  CheckCircle2,
  Circle,
  Download,
  Eye,
  LayoutDashboard,
  Rocket,
  RotateCcw,
  XCircle,
} from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  Alert,
  Badge,
  Button,
  buttonClasses,
  Card,
  PageContainer,
  Spinner,
} from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';
import { STORAGE_KEYS } from '../../lib/storage';
import { PublishPanel } from '../publish/publish-panel';
import {
  previewFailure,
  useAgentName,
  useBuild,
  useDownload,
  usePreview,
  useRebuild,
} from './build-api';
import {
  currentStageIndex,
  progressPercent,
  stageMessage,
  stageStates,
  type StageState,
} from './build-progress';
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

function BuildScreen({ sessionId, routeType }: { sessionId: string; routeType: TAgentType }) {
  const build = useBuild(sessionId);
  const agentName = useAgentName(sessionId);
  const view = build.data;
  const type = view?.agent_type ?? routeType;
  const preview = usePreview(type, sessionId);
  const download = useDownload(type, sessionId);
  const rebuild = useRebuild(type, sessionId);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [publishOpen, setPublishOpen] = useState(false);

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

  const agentLabel = type === 'sql' ? 'SQL' : 'RAG';
  const downloadButton = (
    <Button variant="outline" size="lg" loading={download.isPending} onClick={startDownload}>
      {!download.isPending && <Download aria-hidden="true" className="h-4 w-4" />}
      Download Code
    </Button>
  );

  if (preview.data) {
    // Not a PageContainer: SPEC §9 wants the frame full width, so only the page padding stays.
    return (
      <div className="w-full px-4 py-8 sm:px-6 lg:px-8">
        <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <h1 className="text-2xl font-bold text-slate-900 dark:text-white">
            {agentLabel} Agent Preview
          </h1>
          <div className="flex flex-wrap gap-2">
            {downloadButton}
            <DashboardLink />
          </div>
        </div>
        <PreviewFrame url={preview.data.preview_url} title={`${agentLabel} Agent Preview`} />
      </div>
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

          {view.status === 'Built' && (
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              <Button size="lg" loading={preview.isPending} onClick={startPreview}>
                {!preview.isPending && <Eye aria-hidden="true" className="h-4 w-4" />}
                Preview
              </Button>
              {downloadButton}
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
          )}
          {view.status === 'Built' && publishOpen && (
            <div className="mt-6">
              <PublishPanel agentId={sessionId} agentName={agentName ?? `${agentLabel} agent`} />
            </div>
          )}

          {view.status === 'Failed' && (
            <div className="mt-6 space-y-4">
              <Alert>{view.error ?? 'The build failed.'}</Alert>
              <div className="flex flex-col gap-3 sm:flex-row">
                <Button size="lg" loading={rebuild.isPending} onClick={startAgain}>
                  {!rebuild.isPending && <RotateCcw aria-hidden="true" className="h-4 w-4" />}
                  Build again
                </Button>
                <DashboardLink />
              </div>
            </div>
          )}

          {view.status === 'Built' && previewError !== null && (
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
      )}
    </PageContainer>
  );
}

function BuildProgress({
  view,
  live,
  agentLabel,
  agentName,
}: {
  view: TBuildView;
  live: boolean;
  agentLabel: string;
  agentName: string | undefined;
}) {
  const total = view.stage_names.length;
  const index = currentStageIndex(view);
  const percent = progressPercent(index, total);
  const states = stageStates(view);
  const current = view.stages[view.stages.length - 1]?.name;
  const title =
    view.status === 'Built'
      ? 'Build Completed'
      : view.status === 'Failed'
        ? 'Build Failed'
        : `Building your ${agentLabel} agent`;

  return (
    <Card as="section" aria-labelledby="build-title" className="p-5 sm:p-8">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm font-medium text-indigo-700 dark:text-indigo-300">
            {agentName ? `${agentName} · ${agentLabel} agent` : `${agentLabel} agent`}
          </p>
          <h1
            id="build-title"
            className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl dark:text-white"
          >
            {title}
          </h1>
          <p
            role="status"
            aria-live="polite"
            className="mt-2 text-sm text-slate-700 dark:text-slate-300"
          >
            {view.status === 'Built'
              ? 'Your agent is ready: preview it or download the project.'
              : view.status === 'Failed'
                ? 'The build stopped. The reason is below.'
                : stageMessage(current)}
          </p>
        </div>
        {view.status === 'Building' && (
          <Badge tone={live ? 'green' : 'grey'}>{live ? 'Live' : 'Updating'}</Badge>
        )}
      </div>

      <div className="mt-6 flex items-center gap-3">
        <div
          role="progressbar"
          aria-label="Build progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-3 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
        >
          <div
            className={clsx(
              'h-full rounded-full transition-[width] duration-500 motion-reduce:transition-none',
              view.status === 'Failed'
                ? 'bg-red-600 dark:bg-red-400'
                : view.status === 'Built'
                  ? 'bg-green-600 dark:bg-green-400'
                  : 'bg-indigo-600 dark:bg-indigo-400',
            )}
            style={{ width: `${percent}%` }}
          />
        </div>
        <span className="w-12 text-right text-sm font-semibold text-slate-900 tabular-nums dark:text-white">
          {percent}%
        </span>
      </div>

      <ol aria-label="Build stages" className="mt-6 space-y-2">
        {states.map(({ name, state }, position) => (
          <li
            key={name}
            aria-current={state === 'active' ? 'step' : undefined}
            className={clsx(
              'flex items-center gap-3 rounded-lg px-3 py-2 text-sm',
              state === 'active' && 'bg-indigo-50 dark:bg-indigo-950',
              state === 'failed' && 'bg-red-50 dark:bg-red-950',
            )}
          >
            <StageIcon state={state} />
            <span
              className={clsx(
                'first-letter:uppercase',
                state === 'pending'
                  ? 'text-slate-600 dark:text-slate-400'
                  : 'font-medium text-slate-900 dark:text-white',
              )}
            >
              {name}
            </span>
            <span className="sr-only">{STATE_TEXT[state]}</span>
            <span aria-hidden="true" className="ml-auto text-xs text-slate-500 dark:text-slate-400">
              {position + 1}/{states.length}
            </span>
          </li>
        ))}
      </ol>
      {view.status === 'Building' && index === 0 && view.stages.length === 0 && (
        <p className="mt-4 text-xs text-slate-600 dark:text-slate-400">
          This may take a few minutes to complete
        </p>
      )}
    </Card>
  );
}

const STATE_TEXT: Record<StageState, string> = {
  done: '(done)',
  active: '(in progress)',
  failed: '(failed)',
  pending: '(waiting)',
};

function StageIcon({ state }: { state: StageState }) {
  switch (state) {
    case 'done':
      return (
        <CheckCircle2 aria-hidden="true" className="h-5 w-5 text-green-700 dark:text-green-400" />
      );
    case 'active':
      return (
        <Spinner size="sm" label={null} className="mx-0.5 text-indigo-700 dark:text-indigo-300" />
      );
    case 'failed':
      return <XCircle aria-hidden="true" className="h-5 w-5 text-red-700 dark:text-red-400" />;
    case 'pending':
      return <Circle aria-hidden="true" className="h-5 w-5 text-slate-400 dark:text-slate-600" />;
  }
}

function DashboardLink({ className }: { className?: string }) {
  return (
    <Link to="/dashboard" className={buttonClasses('ghost', 'lg', className)}>
      <LayoutDashboard aria-hidden="true" className="h-4 w-4" />
      Back to Dashboard
    </Link>
  );
}
