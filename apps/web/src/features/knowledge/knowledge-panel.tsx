import { BookOpen, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert, Button, Spinner } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { AddSourceForm } from './add-source-form';
import { useSources } from './knowledge-api';
import { SourceRow } from './source-row';

const DONE_WORDS: Record<string, string> = {
  added: 'Source added.',
  'new version': 'New version uploaded.',
  removed: 'Source removed.',
  refresh: 'Reading it again now: if anything changed, a new build follows.',
  schedule: 'Refresh setting saved.',
};

/**
 * A RAG agent's knowledge: its sources with their status, and every change to them — add a file,
 * a database table or web pages, replace a file, refresh, schedule, remove. Each change starts a
 * build (or waits for the running one); `where` says whether that build's progress is on this
 * screen (the build screen) or a link away (My Agents), or whether the agent is not built yet
 * (the wizard: its first build reads every source).
 */
export function KnowledgePanel({
  agentId,
  agentName,
  where,
}: {
  agentId: string;
  agentName: string;
  where: 'build-screen' | 'my-agents' | 'wizard';
}) {
  const sources = useSources(agentId, { poll: where !== 'wizard' });
  const [adding, setAdding] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  if (sources.isPending) return <Spinner size="sm" label="Loading the knowledge sources…" />;
  if (sources.isError) {
    return <Alert>{errorDetail(sources.error) ?? 'Could not load the knowledge sources.'}</Alert>;
  }
  const { sources: list, building_build_id: building } = sources.data;
  const changed = (what: string) => setDone(DONE_WORDS[what] ?? 'Saved.');

  return (
    <section
      aria-label={`Knowledge of ${agentName}`}
      // A card, with less padding on a phone: the panel sits inside My Agents' cards too.
      className="space-y-3 rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-5 dark:border-slate-800 dark:bg-slate-900"
    >
      <h3 className="flex items-center gap-2 font-semibold text-slate-900 dark:text-white">
        <BookOpen aria-hidden="true" className="h-4 w-4" />
        Knowledge
      </h3>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {where === 'wizard'
          ? 'The sources this agent answers from. Its first build reads them all.'
          : 'The sources this agent answers from. Each change starts a new build that reads only what changed.'}
      </p>
      {building && where !== 'wizard' && (
        <Alert tone="info">
          {done ? 'A new build started with your changes.' : 'A build of this agent is running.'}{' '}
          {where === 'build-screen' ? (
            'Its progress is shown above.'
          ) : (
            <Link
              to={`/build/rag/${agentId}`}
              className="font-semibold text-indigo-700 underline dark:text-indigo-300"
            >
              Watch its progress
            </Link>
          )}
        </Alert>
      )}
      {done && <Alert tone="success">{done}</Alert>}
      <ul aria-label={`Sources of ${agentName}`} className="space-y-2">
        {list.map((source) => (
          <SourceRow key={source.id} agentId={agentId} source={source} onChanged={changed} />
        ))}
      </ul>
      {adding ? (
        <AddSourceForm
          agentId={agentId}
          onAdded={() => {
            setAdding(false);
            changed('added');
          }}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            setDone(null);
            setAdding(true);
          }}
        >
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add another source
        </Button>
      )}
    </section>
  );
}
