import {
  buildPaths,
  describeEvaluation,
  type TBuildEvaluation,
  type TBuildHistoryItem,
  type TEvaluationFailure,
} from '@agentloom/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { api } from '../../lib/api';

/** The build list's query (features/publish/build-history.tsx reads the same key). */
const buildsKey = (agentId: string) => ['pipelines', agentId, 'builds'] as const;

const KIND_WORDS: Record<TEvaluationFailure['kind'], string> = {
  expected: 'a question you expect',
  thumbs_up: 'an answer visitors liked',
  curated: 'an answer you corrected',
};

/** One failed check, in plain words: the question, where it comes from, and what went wrong. */
export function describeFailure(failure: TEvaluationFailure): string {
  return `“${failure.question}” (${KIND_WORDS[failure.kind]}): ${failure.reason}`;
}

/** A build's checks: "9 of 10 checks passed", and the failed ones on demand. */
export function EvaluationSummary({ evaluation }: { evaluation: TBuildEvaluation | null }) {
  if (!evaluation) return null;
  const failed = evaluation.failed.length;
  return (
    <div className="w-full text-slate-700 dark:text-slate-300">
      <span className={failed > 0 ? 'text-amber-800 dark:text-amber-300' : undefined}>
        {describeEvaluation(evaluation)}
      </span>
      {failed > 0 && (
        <details className="mt-1">
          <summary className="cursor-pointer">
            {failed === 1 ? 'The check that failed' : `The ${failed} checks that failed`}
          </summary>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            {evaluation.failed.map((failure, index) => (
              <li key={index}>{describeFailure(failure)}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/**
 * The question to ask before publishing `candidate` in place of the published build, or null
 * when it passes as many of its checks (or either has no evaluation to compare).
 */
export function lowerScoreQuestion(
  candidate: Pick<TBuildHistoryItem, 'number' | 'evaluation'> | undefined,
  published: Pick<TBuildHistoryItem, 'number' | 'evaluation'> | undefined,
): string | null {
  const next = candidate?.evaluation;
  const now = published?.evaluation;
  if (!candidate || !published || !next || !now || candidate.number === published.number) {
    return null;
  }
  if (next.score >= now.score) return null;
  return (
    `Build ${candidate.number} passes ${next.passed} of ${next.cases} checks; ` +
    `the published build ${published.number} passes ${now.passed}` +
    (now.cases === next.cases ? '' : ` of ${now.cases}`) +
    '. Publish anyway?'
  );
}

/**
 * Publishing with a look at the scores first: `ask(buildId, publish)` reads the builds afresh
 * and calls `publish` at once, or after the owner confirms when the build to publish (the
 * newest Built one when no id is given) passes fewer of its checks than the published one.
 * Render `dialog` once.
 */
export function useScoreCheckedPublish(agentId: string): {
  ask: (buildId: string | null | undefined, publish: () => void) => void;
  dialog: ReactNode;
} {
  const client = useQueryClient();
  const [pending, setPending] = useState<{ question: string; publish: () => void } | null>(null);
  const ask = (buildId: string | null | undefined, publish: () => void) => {
    void client
      .fetchQuery({
        queryKey: buildsKey(agentId),
        queryFn: ({ signal }) => api<TBuildHistoryItem[]>(buildPaths.history(agentId), { signal }),
        staleTime: 0,
      })
      .then((builds) => {
        const candidate = buildId
          ? builds.find((build) => build.build_id === buildId)
          : builds.find((build) => build.status === 'Built');
        const question = lowerScoreQuestion(
          candidate,
          builds.find((build) => build.published),
        );
        if (question) setPending({ question, publish });
        else publish();
      })
      // Without the scores, publishing is not held back: it is what the owner asked for.
      .catch(() => publish());
  };
  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      onCancel={() => setPending(null)}
      title="This build passes fewer checks"
      description={pending?.question ?? ''}
      confirmLabel="Publish anyway"
      onConfirm={() => {
        pending?.publish();
        setPending(null);
      }}
    />
  );
  return { ask, dialog };
}
