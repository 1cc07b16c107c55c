import {
  EXPECTED_QUESTIONS_MAX,
  evaluationPaths,
  type TExpectedQuestions,
} from '@agentloom/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, errorDetail } from '../../lib/api';
import { notify } from '../../lib/notify';

/** The lines of a text box as questions: trimmed, empty ones dropped, at most the limit kept. */
export function questionsOf(text: string): string[] {
  return [...new Set(text.split('\n').map((line) => line.trim()))]
    .filter(Boolean)
    .slice(0, EXPECTED_QUESTIONS_MAX);
}

/**
 * A RAG agent's "Questions you expect", as saved with the agent: `saved` (one per line, or null
 * while loading) and `save(text)`, which keeps them for the next build's checks.
 */
export function useExpectedQuestions(agentId: string, enabled: boolean) {
  const saved = useQuery({
    queryKey: ['agents', agentId, 'expected-questions'],
    queryFn: ({ signal }) =>
      api<TExpectedQuestions>(evaluationPaths.expectedQuestions(agentId), { signal }),
    enabled,
  });
  const change = useMutation({
    mutationFn: (questions: string[]) =>
      api<TExpectedQuestions>(evaluationPaths.expectedQuestions(agentId), {
        method: 'PUT',
        json: { questions },
      }),
    onError: (error) =>
      notify.error(
        'Your questions were not saved',
        errorDetail(error) ?? 'Please try again; each build checks the questions you save.',
      ),
  });
  const questions = saved.data?.questions;
  return {
    saved: Array.isArray(questions) ? questions.join('\n') : saved.isPending ? null : '',
    save: (text: string) => {
      const next = questionsOf(text);
      if (next.join('\n') !== (questions ?? []).join('\n')) change.mutate(next);
    },
  };
}
