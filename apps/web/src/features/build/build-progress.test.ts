import {
  RAG_BUILD_STAGES,
  SQL_BUILD_STAGES,
  type TBuildStageKey,
  type TBuildView,
} from '@agentloom/contracts';
import { describe, expect, it } from 'vitest';
import {
  applyStageEvent,
  currentStageIndex,
  mergeBuildView,
  progressPercent,
  stageMessage,
  stageStates,
} from './build-progress';
import { buildViewFixture, stagesReached } from '../testing/build-view';

const BUILD_ID = '11111111-1111-4111-8111-111111111111';
const SESSION_ID = '22222222-2222-4222-8222-222222222222';
const AT = '2026-11-27T10:00:00.000Z';

const view = (overrides: Partial<TBuildView> = {}) =>
  buildViewFixture({ build_id: BUILD_ID, session_id: SESSION_ID, ...overrides });

describe('progressPercent (stage index over the last index)', () => {
  it('maps the RAG stages 0..7 to 0..100 %', () => {
    expect(progressPercent(0, 8)).toBe(0);
    expect(progressPercent(1, 8)).toBe(14);
    expect(progressPercent(4, 8)).toBe(57);
    expect(progressPercent(7, 8)).toBe(100);
  });

  it('maps the SQL stages 0..9 to 0..100 %', () => {
    expect(SQL_BUILD_STAGES).toHaveLength(10);
    expect(progressPercent(3, 10)).toBe(33);
    expect(progressPercent(9, 10)).toBe(100);
  });

  it('stays within 0..100', () => {
    expect(progressPercent(-1, 8)).toBe(0);
    expect(progressPercent(12, 8)).toBe(100);
    expect(progressPercent(0, 1)).toBe(100);
  });
});

describe('stages of a build view', () => {
  it('has the current stage at the last one reached', () => {
    expect(currentStageIndex(view())).toBe(0);
    expect(currentStageIndex(view({ stages: stagesReached(3, false) }))).toBe(2);
    expect(currentStageIndex(view({ status: 'Built', stages: stagesReached(8) }))).toBe(7);
  });

  it('marks reached stages done, the running one active and the rest pending', () => {
    const states = stageStates(view({ stages: stagesReached(3, false) })).map(
      (stage) => stage.state,
    );
    expect(states).toEqual(['done', 'done', 'active', ...Array<string>(5).fill('pending')]);
  });

  it('marks the stage a failed build stopped at as failed', () => {
    const states = stageStates(view({ status: 'Failed', stages: stagesReached(2, false) }));
    expect(states[1]).toEqual({
      key: 'train_embeddings',
      label: 'training embeddings',
      state: 'failed',
    });
  });

  it('marks every stage done once the build is Built', () => {
    expect(
      stageStates(view({ status: 'Built', stages: stagesReached(8) })).every(
        (s) => s.state === 'done',
      ),
    ).toBe(true);
  });

  it('describes what the builder does at each stage', () => {
    expect(stageMessage(undefined)).toMatch(/Waiting/);
    const stage = (key: TBuildStageKey) => ({ key, started_at: AT, finished_at: null });
    expect(stageMessage(stage('generate_code'))).toBe('Writing the agent, its UI and its tests…');
  });

  it('counts the chunks indexed while the index is made, and not once the stage is done', () => {
    const work = { done: 3200, of: 12002, unit: 'chunks' as const };
    const running = { key: 'train_embeddings' as const, started_at: AT, finished_at: null, work };
    expect(stageMessage(running)).toMatch(/3,200 of 12,002 chunks indexed\.$/);
    expect(stageMessage({ ...running, finished_at: AT })).not.toMatch(/chunks indexed/);
  });

  it('keeps a stage running while its progress arrives, with the newest count', () => {
    const started = applyStageEvent(view({ status: 'Building', stages: [] }), {
      buildId: BUILD_ID,
      session_id: SESSION_ID,
      stage: RAG_BUILD_STAGES[0],
      index: 0,
      total: 8,
      state: 'started',
      at: AT,
    });
    const progressed = applyStageEvent(started, {
      buildId: BUILD_ID,
      session_id: SESSION_ID,
      stage: RAG_BUILD_STAGES[0],
      index: 0,
      total: 8,
      state: 'progress',
      work: { done: 512, of: 2048, unit: 'chunks' },
      at: AT,
    });
    expect(progressed.stages[0]).toMatchObject({ finished_at: null, work: { done: 512 } });
  });
});

describe('live stage events', () => {
  const event = (index: number, state: 'started' | 'finished', buildId = BUILD_ID) => ({
    buildId,
    session_id: SESSION_ID,
    stage: RAG_BUILD_STAGES[index] ?? 'complete',
    index,
    total: 8,
    state,
    at: '2025-01-01T00:00:05.000Z',
  });

  it('adds a started stage and finishes it', () => {
    const started = applyStageEvent(view({ stages: stagesReached(1) }), event(1, 'started'));
    expect(started.stages).toHaveLength(2);
    expect(started.stages[1]?.finished_at).toBeNull();
    const finished = applyStageEvent(started, event(1, 'finished'));
    expect(finished.stages[1]).toEqual({
      key: 'train_embeddings',
      started_at: '2025-01-01T00:00:05.000Z',
      finished_at: '2025-01-01T00:00:05.000Z',
    });
  });

  it('starts over when a retried attempt reports its first stage again', () => {
    const retried = applyStageEvent(view({ stages: stagesReached(4, false) }), event(0, 'started'));
    expect(retried.stages).toHaveLength(1);
  });

  it('starts a fresh view for a new build of the same agent', () => {
    const failed = view({ status: 'Failed', error: 'boom', stages: stagesReached(2, false) });
    const next = applyStageEvent(
      failed,
      event(0, 'started', '33333333-3333-4333-8333-333333333333'),
    );
    expect(next).toMatchObject({
      status: 'Building',
      error: null,
      stages: [{ key: 'validate_config' }],
    });
  });

  it('ignores stage events of a build that has ended', () => {
    const built = view({ status: 'Built', stages: stagesReached(8) });
    expect(applyStageEvent(built, event(3, 'started'))).toBe(built);
  });

  it('never lets an older answer turn an ended build back into Building', () => {
    const built = view({ status: 'Built', stages: stagesReached(8) });
    expect(mergeBuildView(built, view({ stages: stagesReached(5) }))).toBe(built);
    const newer = view({ stages: stagesReached(6) });
    expect(mergeBuildView(view({ stages: stagesReached(5) }), newer)).toBe(newer);
    expect(mergeBuildView(undefined, newer)).toBe(newer);
  });
});
