import type { ProjectCuratedAnswer } from './types';

/**
 * data/curated_answers.json: the owner's curated answers as the build captured them, oldest
 * first, each `{id, question, answer}` exactly as written (agent/curated.py reads it). Always
 * written, `[]` when there are none, so the project shows where to add one by hand.
 */
export function curatedAnswersJson(answers: readonly ProjectCuratedAnswer[] = []): string {
  const entries = answers.map(({ id, question, answer }) => ({ id, question, answer }));
  return `${JSON.stringify(entries, null, 2)}\n`;
}
