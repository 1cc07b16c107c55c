import { z } from 'zod';
import { zText } from './text';

/**
 * A build's evaluation: what each build is checked against when it is Built, with no dataset to
 * write — the agent's own "Questions you expect", its rated published answers and its curated
 * answers, replayed against the new build:
 * - `expected`: an expected question retrieves at least one relevant passage;
 * - `thumbs_up`: a question whose answer a visitor liked retrieves the passages that answer cited;
 * - `curated`: a thumbs-down question the owner wrote a curated answer for is served that answer.
 * Retrieval-only checks need no provider call beyond embedding the questions (with the owner's
 * key when the model is OpenAI's); they are recorded on the build (`GET /pipelines/{id}/builds`).
 */
export const EVALUATION_CASE_KINDS = ['expected', 'thumbs_up', 'curated'] as const;
export const ZEvaluationCaseKind = z.enum(EVALUATION_CASE_KINDS);
export type TEvaluationCaseKind = z.infer<typeof ZEvaluationCaseKind>;

export const ZEvaluationFailure = z.object({
  kind: ZEvaluationCaseKind,
  question: zText(),
  /** Why it failed, in words: "none of the 4 passages is relevant", "row 13 no longer found"… */
  reason: zText(),
});
export type TEvaluationFailure = z.infer<typeof ZEvaluationFailure>;

export const ZBuildEvaluation = z.object({
  /** Cases checked. */
  cases: z.number().int().min(0),
  passed: z.number().int().min(0),
  failed: z.array(ZEvaluationFailure),
  /** passed / cases (1 when there is no case). */
  score: z.number().min(0).max(1),
  evaluated_at: z.iso.datetime(),
});
export type TBuildEvaluation = z.infer<typeof ZBuildEvaluation>;
