import {
  REFRESH_SCHEDULES,
  type TKnowledgeSource,
  type TRefreshSchedule,
} from '@agentloom/contracts';
import { RefreshCw, Trash2, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Alert, Badge, Button, Select } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { useKnowledgeChange, type KnowledgeChange } from './knowledge-api';
import { kindWords, lastChangeWords, passages, statusWords } from './source-words';

const SCHEDULE_WORDS: Record<TRefreshSchedule, string> = {
  off: 'Off',
  hourly: 'Every hour',
  daily: 'Every day',
};
const SCHEDULE_OPTIONS = REFRESH_SCHEDULES.map((value) => ({
  value,
  label: SCHEDULE_WORDS[value],
}));

/** Accepted by "Replace": every kind of file an agent's knowledge reads. */
export const KNOWLEDGE_FILE_ACCEPT = '.pdf,.csv,.xlsx,.txt,.docx,.md,.markdown,.html,.htm';

/**
 * One source of an agent's knowledge: what it is, its status in plain words, its passages and
 * last change, and its actions — a file takes a new version, a table or site is refreshed now
 * or on a schedule, and any but the wizard's first is removed. A failed action's `detail` stays
 * under the row until the next action.
 */
export function SourceRow({
  agentId,
  source,
  onChanged,
}: {
  agentId: string;
  source: TKnowledgeSource;
  onChanged: (what: string) => void;
}) {
  const change = useKnowledgeChange(agentId);
  const [actionError, setActionError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const busyWith = (action: KnowledgeChange['action']) =>
    change.isPending && change.variables?.action === action;

  function run(request: KnowledgeChange, done: string) {
    setActionError(null);
    change.mutate(request, {
      onSuccess: () => {
        setConfirming(false);
        onChanged(done);
      },
      onError: (error) => {
        setConfirming(false);
        setActionError(errorDetail(error) ?? 'That did not work. Please try again.');
      },
    });
  }

  return (
    <li
      aria-label={source.name}
      className="space-y-2 rounded-lg border border-slate-200 p-2.5 text-sm sm:p-3 dark:border-slate-700"
    >
      <SourceSummary source={source} />
      {source.error && <Alert>{source.error}</Alert>}
      <div className="flex flex-wrap items-end gap-2">
        {source.kind === 'file' ? (
          <ReplaceButton
            name={source.name}
            busy={busyWith('replace')}
            onFile={(file) => run({ action: 'replace', sourceId: source.id, file }, 'new version')}
          />
        ) : (
          <RefreshControls
            source={source}
            busy={busyWith('refresh')}
            disabled={change.isPending}
            onRefresh={() => run({ action: 'refresh', sourceId: source.id }, 'refresh')}
            onSchedule={(refresh) =>
              run({ action: 'schedule', sourceId: source.id, refresh }, 'schedule')
            }
          />
        )}
        {!source.primary && (
          <Button size="sm" variant="dangerGhost" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" className="h-4 w-4" />
            Remove
          </Button>
        )}
      </div>
      {actionError && <Alert>{actionError}</Alert>}
      <ConfirmDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        title={`Remove ${source.name}?`}
        description="The agent stops answering from it after the next build, which starts now. Older builds keep it, so publishing one of them brings it back."
        confirmLabel="Remove source"
        busy={busyWith('remove')}
        onConfirm={() => run({ action: 'remove', sourceId: source.id }, 'removed')}
      />
    </li>
  );
}

function RefreshControls({
  source,
  busy,
  disabled,
  onRefresh,
  onSchedule,
}: {
  source: TKnowledgeSource;
  busy: boolean;
  disabled: boolean;
  onRefresh: () => void;
  onSchedule: (refresh: TRefreshSchedule) => void;
}) {
  return (
    <>
      <Button size="sm" variant="outline" loading={busy} disabled={disabled} onClick={onRefresh}>
        {!busy && <RefreshCw aria-hidden="true" className="h-4 w-4" />}
        Refresh now
      </Button>
      <Select
        label="Refresh automatically"
        wrapperClassName="w-40"
        className="py-1"
        options={SCHEDULE_OPTIONS}
        value={source.refresh}
        disabled={disabled}
        onChange={(event) => onSchedule(event.target.value as TRefreshSchedule)}
      />
    </>
  );
}

/** "Replace with a new version": picks the file, which is sent at once. */
function ReplaceButton({
  name,
  busy,
  onFile,
}: {
  name: string;
  busy: boolean;
  onFile: (file: File) => void;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={fileInput}
        type="file"
        className="sr-only"
        tabIndex={-1}
        aria-label={`New version of ${name}`}
        accept={KNOWLEDGE_FILE_ACCEPT}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      <Button
        size="sm"
        variant="outline"
        // On a phone the label wraps inside the row instead of running out of it.
        className="h-auto min-h-8 py-1 whitespace-normal"
        loading={busy}
        onClick={() => fileInput.current?.click()}
      >
        {!busy && <Upload aria-hidden="true" className="h-4 w-4" />}
        Replace with a new version
      </Button>
    </>
  );
}

/** Name, status in plain words, kind, passages and the last change. */
function SourceSummary({ source }: { source: TKnowledgeSource }) {
  const status = statusWords(source);
  const last = lastChangeWords(source);
  return (
    <>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="min-w-0 font-semibold [overflow-wrap:anywhere] text-slate-900 dark:text-white">
          {source.name}
        </span>
        <Badge tone={status.tone}>{status.text}</Badge>
        {source.primary && <Badge tone="indigo">From the wizard</Badge>}
      </div>
      <p className="text-slate-700 dark:text-slate-300">
        {kindWords(source)}
        {/* Not read yet: no passages to count. */}
        {(source.chunks > 0 || source.status === 'ready') && ` · ${passages(source.chunks)}`}
        {last && ` · ${last}`}
      </p>
    </>
  );
}
