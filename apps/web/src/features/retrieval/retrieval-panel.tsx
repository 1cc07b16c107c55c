import { Alert, Spinner } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { useRetrievalSettings } from './retrieval-api';
import { RetrievalSettingsForm } from './retrieval-settings';
import { RetrievalTest } from './retrieval-test';

/**
 * "How your agent finds answers": a RAG agent's retrieval settings and the retrieval test, on the
 * wizard's last step (settings, and the test once a build exists) and beside a built agent. The
 * test searches the newest build, so before the first build it says to build first.
 */
export function RetrievalPanel({ agentId, built }: { agentId: string; built: boolean }) {
  const settings = useRetrievalSettings(agentId);
  return (
    <section
      aria-labelledby={`retrieval-${agentId}`}
      className="space-y-6 rounded-xl border border-slate-200 p-4 sm:p-6 dark:border-slate-800"
    >
      <div>
        <h2
          id={`retrieval-${agentId}`}
          className="text-lg font-semibold text-slate-900 dark:text-white"
        >
          How your agent finds answers
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Your data is cut into passages; each answer reads the passages that fit the question best.
        </p>
      </div>
      {settings.isPending ? (
        <Spinner label="Loading the settings…" />
      ) : settings.data ? (
        <RetrievalSettingsForm agentId={agentId} view={settings.data} />
      ) : (
        <Alert>{errorDetail(settings.error) ?? 'The settings could not be loaded.'}</Alert>
      )}
      {built ? (
        <RetrievalTest agentId={agentId} />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Once the agent is built, you can test which passages a question finds here.
        </p>
      )}
    </section>
  );
}
