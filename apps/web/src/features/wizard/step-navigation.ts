import type { TAgentType, TPipelineDetail } from '@agentloom/contracts';
import { useCallback } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

/** SPEC §4: wizards move one step at a time and never beyond the last step… */
export function nextStep(step: number, total: number): number {
  return Math.min(step + 1, total);
}

/** …and Previous never goes below step 1. */
export function previousStep(step: number): number {
  return Math.max(step - 1, 1);
}

/** The progress bar's value: how far through the wizard the current step is. */
export function stepPercent(step: number, total: number): number {
  return Math.round((step / total) * 100);
}

/** Where an agent's wizard opens without a step in its address: its first unfinished step. */
export function firstUnfinishedStep(pipeline: Pick<TPipelineDetail, 'steps'>, total: number) {
  const index = pipeline.steps.findIndex((step) => !step.complete);
  return index === -1 ? total : index + 1;
}

/** The address of a step of an agent's wizard; reload, Back/Forward and new tabs land on it. */
export const wizardPath = (type: TAgentType, sessionId: string, step?: number) =>
  `/pipeline/${type}/${sessionId}${step === undefined ? '' : `?step=${step}`}`;

/**
 * The wizard's place lives in the URL (`/pipeline/{type}/{sessionId}?step=N`), not in component
 * state: each move is a history entry, so the browser's Back and Forward walk the steps.
 */
export function useWizardRoute(type: TAgentType, total: number) {
  const { sessionId = '' } = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const asked = Number(search.get('step'));
  const requested = Number.isInteger(asked) && asked >= 1 ? Math.min(asked, total) : null;
  const goTo = useCallback(
    (id: string, step: number, replace = false) =>
      void navigate(wizardPath(type, id, step), { replace }),
    [navigate, type],
  );
  return { sessionId, requested, goTo };
}
