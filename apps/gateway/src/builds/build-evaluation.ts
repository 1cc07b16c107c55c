import { ZBuildEvaluation, type TBuildEvaluation } from '@agentloom/contracts';
import type { Build } from '@agentloom/db';

/** A build's recorded evaluation (the worker's, when it was Built); null when it has none. */
export function evaluationOf(build: Pick<Build, 'evaluation'>): TBuildEvaluation | null {
  const parsed = ZBuildEvaluation.safeParse(build.evaluation);
  return parsed.success ? parsed.data : null;
}
