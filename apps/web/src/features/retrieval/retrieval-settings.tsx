import {
  RETRIEVAL_LIMITS,
  type TRetrievalSettings,
  type TRetrievalSettingsView,
  type TSearchMode,
} from '@agentloom/contracts';
import { useState, type FormEvent } from 'react';
import { Alert, Button, TextField } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { useSaveRetrieval } from './retrieval-api';

/** The three ways to search, each in one plain line. */
export const SEARCH_CHOICES: readonly { mode: TSearchMode; label: string; hint: string }[] = [
  {
    mode: 'both',
    label: 'Both (recommended)',
    hint: 'Finds passages that mean the same as the question, and passages with its exact names, codes and numbers.',
  },
  {
    mode: 'meaning',
    label: 'By meaning',
    hint: 'Finds passages that say the same thing in other words.',
  },
  {
    mode: 'words',
    label: 'By words',
    hint: 'Finds passages that contain the question’s words, like a search box.',
  },
];

/** The form's fields as typed; numbers are checked by the gateway, which says what is wrong. */
type Draft = Omit<TRetrievalSettings, 'chunk_size' | 'top_k'> & {
  chunk_size: string;
  top_k: string;
};

const draftOf = (settings: TRetrievalSettings): Draft => ({
  ...settings,
  chunk_size: String(settings.chunk_size),
  top_k: String(settings.top_k),
});

/**
 * How the agent finds what it answers from, in words an owner can set: passage size, passages an
 * answer reads, how to search, and whether to answer only from the sources. Saved settings apply
 * from the next build; the form says so, and says when that build embeds everything again.
 */
export function RetrievalSettingsForm({
  agentId,
  view,
}: {
  agentId: string;
  view: TRetrievalSettingsView;
}) {
  const save = useSaveRetrieval(agentId);
  const [draft, setDraft] = useState<Draft>(() => draftOf(view.settings));
  const [failure, setFailure] = useState<string | null>(null);
  const change = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    save.mutate(
      { ...draft, chunk_size: Number(draft.chunk_size), top_k: Number(draft.top_k) },
      {
        onError: (error) =>
          setFailure(errorDetail(error) ?? 'The settings could not be saved. Please try again.'),
      },
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Retrieval settings">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Passage size (characters)"
          type="number"
          min={RETRIEVAL_LIMITS.chunkSize.min}
          max={RETRIEVAL_LIMITS.chunkSize.max}
          value={draft.chunk_size}
          onChange={(event) => change({ chunk_size: event.target.value })}
          hint="How much text each piece of your data holds. Larger passages keep more context together."
        />
        <TextField
          label="Passages per answer"
          type="number"
          min={RETRIEVAL_LIMITS.topK.min}
          max={RETRIEVAL_LIMITS.topK.max}
          value={draft.top_k}
          onChange={(event) => change({ top_k: event.target.value })}
          hint="How many passages the agent reads before it answers."
        />
      </div>
      <SearchChoice value={draft.search} onChange={(search) => change({ search })} />
      <label className="flex items-start gap-2 text-sm text-slate-800 dark:text-slate-200">
        <input
          type="checkbox"
          className="mt-0.5"
          checked={draft.answer_only_from_sources}
          onChange={(event) => change({ answer_only_from_sources: event.target.checked })}
        />
        <span>
          Answer only from my data
          <span className="block text-xs text-slate-600 dark:text-slate-400">
            When nothing in your data fits the question, the agent says it does not know, and the
            question is listed for you.
          </span>
        </span>
      </label>
      <SavedNote view={view} />
      {failure !== null && <Alert>{failure}</Alert>}
      <Button type="submit" variant="outline" loading={save.isPending}>
        Save settings
      </Button>
    </form>
  );
}

function SearchChoice({
  value,
  onChange,
}: {
  value: TSearchMode;
  onChange: (mode: TSearchMode) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Search</legend>
      {SEARCH_CHOICES.map((choice) => (
        <label key={choice.mode} className="flex items-start gap-2 text-sm">
          <input
            type="radio"
            name="search"
            className="mt-0.5"
            checked={value === choice.mode}
            onChange={() => onChange(choice.mode)}
          />
          <span className="text-slate-800 dark:text-slate-200">
            {choice.label}
            <span className="block text-xs text-slate-600 dark:text-slate-400">{choice.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** Whether the saved settings are already built, and what the next build will cost. */
function SavedNote({ view }: { view: TRetrievalSettingsView }) {
  if (!view.build_needed) return null;
  return (
    <Alert tone="info">
      These settings apply from the next build.
      {view.reembeds_everything &&
        ' A new passage size cuts your data anew, so that build embeds all of it again.'}
    </Alert>
  );
}
