import { z } from 'zod';
import { routePath } from './routes';
import { zText } from './text';

/**
 * Curated answers: what the owner wrote for a question. A question close in meaning to a curated
 * one is answered with its text — no passage search and no model call — in the preview, on every
 * published channel and in the downloaded project; often written from a thumbs-down answer, in
 * one step. RAG and SQL agents alike.
 */
export const CURATED_QUESTION_MAX = 500;
export const CURATED_ANSWER_MAX = 4000;
/** At most this many per agent: each is compared with every question asked. */
export const CURATED_ANSWERS_MAX_PER_AGENT = 500;

const question = zText()
  .trim()
  .min(1, { error: 'Type the question this answer is for.' })
  .max(CURATED_QUESTION_MAX, {
    error: `A question can be at most ${CURATED_QUESTION_MAX} characters.`,
  });
const answer = zText()
  .trim()
  .min(1, { error: 'Type the answer the agent should give.' })
  .max(CURATED_ANSWER_MAX, {
    error: `An answer can be at most ${CURATED_ANSWER_MAX} characters.`,
  });

/**
 * POST /agents/{id}/curated-answers. Written from a conversation, `corrects_message_id` names the
 * published answer it corrects (an answer of one of the agent's conversations, often one with a
 * thumbs down) and the question may be left out: it is the question that answer was given to.
 */
export const ZCuratedAnswerRequest = z
  .object({
    question: question.optional(),
    answer,
    corrects_message_id: z
      .uuid({ error: 'corrects_message_id must be the id of an answer in a conversation.' })
      .optional(),
  })
  .refine((request) => request.question !== undefined || request.corrects_message_id, {
    error: 'Type the question this answer is for.',
  });
export type TCuratedAnswerRequest = z.infer<typeof ZCuratedAnswerRequest>;

/** PUT /agents/{id}/curated-answers/{answerId}: either or both. */
export const ZCuratedAnswerUpdate = z
  .object({ question, answer })
  .partial()
  .refine((update) => update.question !== undefined || update.answer !== undefined, {
    error: 'Change the question or the answer.',
  });
export type TCuratedAnswerUpdate = z.infer<typeof ZCuratedAnswerUpdate>;

export const ZCuratedAnswer = z.object({
  id: z.uuid(),
  question: zText(),
  answer: zText(),
  corrects_message_id: z.uuid().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});
export type TCuratedAnswer = z.infer<typeof ZCuratedAnswer>;

export const ZCuratedAnswers = z.object({ answers: z.array(ZCuratedAnswer) });
export type TCuratedAnswers = z.infer<typeof ZCuratedAnswers>;

export const CURATED_ANSWER_ROUTES = {
  list: '/agents/:id/curated-answers',
  one: '/agents/:id/curated-answers/:answerId',
} as const;

export const curatedAnswerPaths = {
  list: (id: string) => routePath(CURATED_ANSWER_ROUTES.list, { id }),
  one: (id: string, answerId: string) => routePath(CURATED_ANSWER_ROUTES.one, { id, answerId }),
};
