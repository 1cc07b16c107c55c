import { z } from 'zod';
import { routePath } from './routes';
import { zText } from './text';

/**
 * What an owner learns from a published agent's conversations: how many questions it was asked
 * each day, and the questions it answered badly — without a source (it said it did not know) or
 * with a visitor's thumbs down — each with its question, so the owner can write the right answer
 * in one step (POST /agents/{id}/curated-answers with `corrects_message_id`).
 */
export const INSIGHTS_DAYS = 14;
/** The newest this many of each list are sent; the totals count them all. */
export const INSIGHTS_LIST_MAX = 50;

/** One answer the owner may want to correct, with the question it was given to. */
export const ZInsightAnswer = z.object({
  /** The answer's id: what `corrects_message_id` takes. */
  message_id: z.uuid(),
  conversation_id: z.uuid(),
  question: zText(),
  answer: zText(),
  answered_at: z.iso.datetime(),
  /** The curated answer already written for it, if any. */
  curated_answer_id: z.uuid().nullable(),
});
export type TInsightAnswer = z.infer<typeof ZInsightAnswer>;

export const ZInsightAnswers = z.object({
  /** All of them in the period. */
  total: z.number().int(),
  /** The newest INSIGHTS_LIST_MAX, newest first. */
  answers: z.array(ZInsightAnswer),
});
export type TInsightAnswers = z.infer<typeof ZInsightAnswers>;

/** GET /agents/{id}/insights: the last INSIGHTS_DAYS days, today (UTC) included. */
export const ZAgentInsights = z.object({
  /** Every day of the period, oldest first, days without a question included. */
  days: z.array(z.object({ date: z.iso.date(), questions: z.number().int() })),
  questions: z.number().int(),
  unanswered: ZInsightAnswers,
  thumbs_down: ZInsightAnswers,
});
export type TAgentInsights = z.infer<typeof ZAgentInsights>;

export const INSIGHTS_ROUTES = { insights: '/agents/:id/insights' } as const;

export const insightsPaths = {
  insights: (id: string) => routePath(INSIGHTS_ROUTES.insights, { id }),
};
