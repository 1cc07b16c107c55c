import {
  RAG_WIZARD_STEPS,
  SQL_WIZARD_STEPS,
  type TAgentType,
  type TPipelineDetail,
} from '@agentloom/contracts';
import { useCallback } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';

/** docs/product.md#the-wizards: wizards move one step at a time and never beyond the last step… */
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

/**
 * The address of a step of an agent's wizard; reload, Back/Forward and new tabs land on it.
 * `review`: the step was opened from the summary, and saving it returns there.
 */
export const wizardPath = (type: TAgentType, sessionId: string, step?: number, review = false) =>
  `/pipeline/${type}/${sessionId}${step === undefined ? '' : `?step=${step}`}${review ? '&review=1' : ''}`;

/** How many steps each wizard has, Build included (nine RAG steps, eight SQL steps). */
export const WIZARD_STEP_COUNT: Record<TAgentType, number> = {
  rag: RAG_WIZARD_STEPS.length + 1,
  sql: SQL_WIZARD_STEPS.length + 1,
};

/** Edit of an agent: its last step, the summary of every answer with a Change link per step. */
export const summaryPath = (type: TAgentType, sessionId: string) =>
  wizardPath(type, sessionId, WIZARD_STEP_COUNT[type]);

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
  const review = search.get('review') === '1' && requested !== null && requested < total;
  const goTo = useCallback(
    (id: string, step: number, replace = false, inReview = false) =>
      void navigate(wizardPath(type, id, step, inReview), { replace }),
    [navigate, type],
  );
  return { sessionId, requested, review, goTo };
}
