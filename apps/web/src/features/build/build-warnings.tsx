import {
  buildPaths,
  WIZARD_ROUTES,
  type TBuildStarted,
  type TBuildView,
} from '@agentloom/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Alert, Button } from '../../components/ui';
import { api, errorDetail } from '../../lib/api';
import { buildQueryKey } from './build-api';

/**
 * Switches a keyword-only agent to the embedding model the warning offers, then builds it again:
 * two wizard calls the owner would otherwise make by walking back through the steps.
 */
function useApplyFix(sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (embeddingModel: string) => {
      await api(WIZARD_ROUTES.rag.embedding, {
        form: { session_id: sessionId, model_name: embeddingModel },
      });
      return api<TBuildStarted>(buildPaths.start('rag'), { form: { session_id: sessionId } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buildQueryKey(sessionId) }),
  });
}

/**
 * What a green build still hides: the build's warnings (today, that the chosen embedding model
 * could not be used, so the agent searches by words only), each with its one-click fix when there
 * is one. The fix's failure stays in place until the next try.
 */
export function BuildWarnings({ view, sessionId }: { view: TBuildView; sessionId: string }) {
  const applyFix = useApplyFix(sessionId);
  const [failure, setFailure] = useState<string | null>(null);
  if (view.status !== 'Built' || view.warnings.length === 0) return null;

  function fix(embeddingModel: string) {
    setFailure(null);
    applyFix.mutate(embeddingModel, {
      onError: (error) =>
        setFailure(errorDetail(error) ?? 'The agent could not be switched. Please try again.'),
    });
  }

  return (
    <section aria-label="Build warnings" className="mt-6 space-y-3">
      {view.warnings.map((warning) => (
        <Alert key={warning.code} tone="info">
          <p>{warning.detail}</p>
          {warning.fix && (
            <Button
              className="mt-3"
              variant="outline"
              loading={applyFix.isPending}
              onClick={() => warning.fix && fix(warning.fix.embedding_model)}
            >
              {warning.fix.label}
            </Button>
          )}
        </Alert>
      ))}
      {failure !== null && <Alert>{failure}</Alert>}
    </section>
  );
}
