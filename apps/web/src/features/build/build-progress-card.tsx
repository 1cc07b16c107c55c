import type { TBuildView } from '@agentloom/contracts';
import { clsx } from 'clsx';
import { CheckCircle2, Circle, XCircle } from 'lucide-react';
import { Badge, Card, ProgressBar, Spinner } from '../../components/ui';
import {
  currentStageIndex,
  progressPercent,
  stageMessage,
  stageStates,
  type StageRow,
  type StageState,
} from './build-progress';

/** The build's title, the current stage in words, the progress bar and every stage's state. */
export function BuildProgress({
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
  const total = view.stage_keys.length;
  const index = currentStageIndex(view);
  const percent = progressPercent(index, total);
  const states = stageStates(view);
  const current = view.stages[view.stages.length - 1];
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

      <BuildProgressBar percent={percent} status={view.status} />

      <StageList states={states} />
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

/** The build's bar, coloured by its outcome, with the percentage beside it. */
function BuildProgressBar({ percent, status }: { percent: number; status: TBuildView['status'] }) {
  return (
    <div className="mt-6 flex items-center gap-3">
      <ProgressBar
        label="Build progress"
        percent={percent}
        className="h-3 flex-1"
        fillClassName={clsx(
          'duration-500',
          status === 'Failed'
            ? 'bg-red-600 dark:bg-red-400'
            : status === 'Built'
              ? 'bg-green-600 dark:bg-green-400'
              : 'bg-indigo-600 dark:bg-indigo-400',
        )}
      />
      <span className="w-12 text-right text-sm font-semibold text-slate-900 tabular-nums dark:text-white">
        {percent}%
      </span>
    </div>
  );
}

function StageList({ states }: { states: StageRow[] }) {
  return (
    <ol aria-label="Build stages" className="mt-6 space-y-2">
      {states.map(({ key, label, state }, position) => (
        <li
          key={key}
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
            {label}
          </span>
          <span className="sr-only">{STATE_TEXT[state]}</span>
          <span aria-hidden="true" className="ml-auto text-xs text-slate-500 dark:text-slate-400">
            {position + 1}/{states.length}
          </span>
        </li>
      ))}
    </ol>
  );
}
