import { RAG_BUILD_STAGES, type TBuildStageKey, type TBuildView } from '@agentloom/contracts';

/** The time every fixture stage started and finished at. */
export const FIXTURE_AT = '2025-01-01T00:00:00.000Z';

/**
 * A GET /builds/{id} answer for tests: a RAG build that has just started, with no stage finished.
 * Tests override what their case is about (status, stages, session id…).
 */
export function buildViewFixture(overrides: Partial<TBuildView> = {}): TBuildView {
  return {
    build_id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
    session_id: '3f6b2a1c-7d8e-4f90-a1b2-c3d4e5f6a7b8',
    agent_type: 'rag',
    status: 'Building',
    stage_keys: [...RAG_BUILD_STAGES],
    stages: [],
    error: null,
    created_at: FIXTURE_AT,
    finished_at: null,
    download_url: null,
    warnings: [],
    ...overrides,
  };
}

/** The first `count` stages of `keys` as the server lists them: all finished, the last one
 * still running unless `lastFinished`. */
export function stagesReached(
  count: number,
  lastFinished = true,
  keys: readonly TBuildStageKey[] = RAG_BUILD_STAGES,
): TBuildView['stages'] {
  return keys.slice(0, count).map((key, index) => ({
    key,
    started_at: FIXTURE_AT,
    finished_at: index < count - 1 || lastFinished ? FIXTURE_AT : null,
  }));
}
