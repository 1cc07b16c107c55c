import {
  stageLabel,
  type TBuildStage,
  type TBuildStageEvent,
  type TBuildStageKey,
  type TBuildView,
  type TStageWork,
} from '@agentloom/contracts';

/**
 * The build screen's rules, kept apart from React so they can be tested on their own. The
 * stages are the worker's real ones (Socket.IO events and GET /builds/{sessionId}), not a timer.
 * Rows and events name a stage by its key; only this screen turns a key into words.
 */

/**
 * docs/product.md#build-progress-preview-and-download: progress is the current stage's index over
 * the last index, as a percentage.
 */
export function progressPercent(index: number, total: number): number {
  if (total <= 1) return index >= 0 ? 100 : 0;
  const clamped = Math.min(Math.max(index, 0), total - 1);
  return Math.round((clamped / (total - 1)) * 100);
}

/** The stage the build is at: the last one reached, or the final one once it is Built. */
export function currentStageIndex(view: TBuildView): number {
  if (view.status === 'Built') return view.stage_keys.length - 1;
  return Math.max(view.stages.length - 1, 0);
}

export type StageState = 'done' | 'active' | 'failed' | 'pending';

export interface StageRow {
  key: TBuildStageKey;
  label: string;
  state: StageState;
}

export function stageStates(view: TBuildView): StageRow[] {
  return view.stage_keys.map((key, index) => {
    const row = (state: StageState): StageRow => ({ key, label: stageLabel(key), state });
    if (view.status === 'Built') return row('done');
    const reached = view.stages[index];
    if (!reached) return row('pending');
    if (reached.finished_at) return row('done');
    return row(view.status === 'Failed' ? 'failed' : 'active');
  });
}

const isFinished = (view: TBuildView) => view.status === 'Built' || view.status === 'Failed';

/**
 * A newer answer replaces the cached view — except that a build which has ended never goes back
 * to Building: an answer read before the end may arrive after the end's event.
 */
export function mergeBuildView(current: TBuildView | undefined, incoming: TBuildView): TBuildView {
  if (
    current &&
    current.build_id === incoming.build_id &&
    isFinished(current) &&
    !isFinished(incoming)
  ) {
    return current;
  }
  return incoming;
}

/** Applies a live `build:stage` event (a stage started or finished) to the cached view. */
export function applyStageEvent(view: TBuildView, event: TBuildStageEvent): TBuildView {
  const base: TBuildView =
    view.build_id === event.buildId
      ? view
      : // A new build of the same agent (started again after a failure): its stages start over.
        {
          ...view,
          build_id: event.buildId,
          status: 'Building',
          stages: [],
          error: null,
          finished_at: null,
          download_url: null,
        };
  if (isFinished(base)) return base;
  // A retried attempt reports from its first stage again, so later stages are dropped.
  const stages = base.stages.slice(0, event.index);
  const existing = base.stages[event.index];
  const startedAt = existing?.started_at ?? event.at;
  const work = event.work ?? existing?.work;
  stages.push(
    event.state === 'started'
      ? { key: event.stage, started_at: event.at, finished_at: null, work: event.work }
      : {
          key: event.stage,
          started_at: startedAt,
          finished_at: event.state === 'finished' ? event.at : null,
          ...(work ? { work } : {}),
        },
  );
  return { ...base, stages };
}

/** What the screen says while a stage runs: what the builder is really doing at that moment. */
const STAGE_MESSAGES: Record<TBuildStageKey, string> = {
  validate_config: 'Checking your configuration and preparing the build…',
  train_embeddings:
    'Reading your data source, splitting it into chunks and embedding each one for the agent’s index…',
  set_up_vector_store: 'Preparing the vector store settings…',
  load_source: 'Loading your data source…',
  profile_schema: 'Profiling the columns and types of your table…',
  configure_query_engine: 'Setting up the query engine you chose…',
  integrate_models: 'Checking that every key the agent needs can be unlocked…',
  secure_sql_access: 'Adding the read-only guard for generated SQL…',
  generate_code: 'Writing the agent, its UI and its tests…',
  package_container: 'Adding the Dockerfile, docker-compose file and CI workflow…',
  store_artifact: 'Packing the project into a zip…',
  complete: 'Your agent is ready.',
};

export function stageMessage(stage: TBuildStage | undefined): string {
  if (!stage) return 'Waiting for a builder to pick up the job…';
  const message = STAGE_MESSAGES[stage.key];
  const work = stage.finished_at ? undefined : stage.work;
  return work ? `${message} ${workText(work)}` : message;
}

/**
 * "3,200 of 12,002 chunks indexed", "12,000 of 100,000 rows read from orders", in the reader's
 * own number format; while the total is not known yet, the count alone.
 */
export function workText(work: TStageWork): string {
  const format = (n: number) => n.toLocaleString();
  const count = work.of > 0 ? `${format(work.done)} of ${format(work.of)}` : format(work.done);
  const from = work.source ? ` from ${work.source}` : '';
  switch (work.unit) {
    case 'rows':
      return `${count} rows read${from}.`;
    case 'pages':
      return `${count} pages read${from}.`;
    case 'chunks':
      return `${count} chunks indexed${from}.`;
  }
}
