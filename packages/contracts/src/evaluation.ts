import { z } from 'zod';
import { routePath } from './routes';
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
  /** What the check expected, in words: "a relevant passage", "report.pdf p. 3", a curated answer. */
  expected: zText(),
  /** What the build gave instead, in words: "4 passages, none relevant", "faq.txt, notes.md". */
  got: zText(),
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

/**
 * The owner's "Questions you expect": each build checks that every one finds a relevant passage.
 * Kept in the RAG agent's configuration (`expected_questions`) but not in a build's snapshot: they
 * test the agent, they are not part of it, so changing them needs no build and changes nothing a
 * build is compared on.
 */
export const EXPECTED_QUESTIONS_MAX = 20;
export const EXPECTED_QUESTION_MAX = 300;
export const ZExpectedQuestion = zText()
  .trim()
  .min(1, { error: 'A question cannot be empty.' })
  .max(EXPECTED_QUESTION_MAX, {
    error: `A question holds at most ${EXPECTED_QUESTION_MAX} characters.`,
  });
export const ZExpectedQuestions = z.object({
  questions: z.array(ZExpectedQuestion).max(EXPECTED_QUESTIONS_MAX, {
    error: `Write at most ${EXPECTED_QUESTIONS_MAX} questions; each build checks every one.`,
  }),
});
export type TExpectedQuestions = z.infer<typeof ZExpectedQuestions>;

export const EVALUATION_ROUTES = { expectedQuestions: '/agents/:id/expected-questions' } as const;
export const evaluationPaths = {
  expectedQuestions: (id: string) => routePath(EVALUATION_ROUTES.expectedQuestions, { id }),
};

/** "9 of 10 checks passed", for the build list and the publish confirmation. */
export function describeEvaluation(evaluation: TBuildEvaluation): string {
  if (evaluation.cases === 0) return 'Nothing to check yet';
  return `${evaluation.passed} of ${evaluation.cases} ${evaluation.cases === 1 ? 'check' : 'checks'} passed`;
}
