import {
  DATABASE_SOURCE_CATALOG,
  DATABASE_SOURCE_TYPES,
  WEB_SOURCE_MAX_PAGES,
  type TDatabaseSourceType,
} from '@agentloom/contracts';
import { clsx } from 'clsx';
import { useState, type FormEvent } from 'react';
import { Alert, Button, CancelAndSubmit, Select, TextField } from '../../components/ui';
import { errorDetail } from '../../lib/api';
import { useKnowledgeChange, type KnowledgeChange } from './knowledge-api';
import { KNOWLEDGE_FILE_ACCEPT } from './source-row';

type Kind = 'file' | 'table' | 'web';
const KINDS: { kind: Kind; label: string }[] = [
  { kind: 'file', label: 'File' },
  { kind: 'table', label: 'Database table' },
  { kind: 'web', label: 'Web pages' },
];
const DATABASE_OPTIONS = DATABASE_SOURCE_TYPES.map((value) => ({
  value,
  label: DATABASE_SOURCE_CATALOG[value].knowledgeLabel,
}));

/**
 * "Add another source": a file, a database table or web pages. The server checks each (a file
 * by its content, a table by connecting, an address by the network guard); its `detail` stays
 * in the form until the next try.
 */
export function AddSourceForm({
  agentId,
  onAdded,
  onCancel,
}: {
  agentId: string;
  onAdded: () => void;
  onCancel: () => void;
}) {
  const change = useKnowledgeChange(agentId);
  const [kind, setKind] = useState<Kind>('file');
  const [file, setFile] = useState<File | null>(null);
  const [table, setTable] = useState({
    source_type: 'postgres' as TDatabaseSourceType,
    uri: '',
    database: '',
    collection_or_table: '',
  });
  const [web, setWeb] = useState({ url: '', max_pages: '1' });
  const [error, setError] = useState<string | null>(null);

  function request(): KnowledgeChange | string {
    if (kind === 'file') return file ? { action: 'add-file', file } : 'Choose a file to add.';
    if (kind === 'table') return { action: 'add', request: { kind: 'table', ...table } };
    const maxPages = Number(web.max_pages);
    if (!Number.isInteger(maxPages) || maxPages < 1 || maxPages > WEB_SOURCE_MAX_PAGES) {
      return `Pages to read: a whole number from 1 to ${WEB_SOURCE_MAX_PAGES}.`;
    }
    return { action: 'add', request: { kind: 'web', url: web.url, max_pages: maxPages } };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const next = request();
    if (typeof next === 'string') return setError(next);
    setError(null);
    change.mutate(next, {
      onSuccess: onAdded,
      onError: (failure) =>
        setError(errorDetail(failure) ?? 'The source could not be added. Please try again.'),
    });
  }

  return (
    <form
      aria-label="Add another source"
      onSubmit={submit}
      className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
    >
      <KindPicker
        kind={kind}
        onPick={(picked) => {
          setKind(picked);
          setError(null);
        }}
      />
      {kind === 'file' && (
        <TextField
          label="File"
          type="file"
          accept={KNOWLEDGE_FILE_ACCEPT}
          hint="PDF, CSV, Excel (.xlsx), TXT, Word (.docx), Markdown or HTML."
          onChange={(event) => setFile(event.target.files?.[0] ?? null)}
        />
      )}
      {kind === 'table' && <TableFields value={table} onChange={setTable} />}
      {kind === 'web' && <WebFields value={web} onChange={setWeb} />}
      {error && <Alert>{error}</Alert>}
      <CancelAndSubmit submitLabel="Add source" busy={change.isPending} onCancel={onCancel} />
    </form>
  );
}

type TableValue = {
  source_type: TDatabaseSourceType;
  uri: string;
  database: string;
  collection_or_table: string;
};

function TableFields({
  value,
  onChange,
}: {
  value: TableValue;
  onChange: (value: TableValue) => void;
}) {
  const field = (key: 'uri' | 'database' | 'collection_or_table') => ({
    value: value[key],
    onChange: (event: { target: { value: string } }) =>
      onChange({ ...value, [key]: event.target.value }),
  });
  return (
    <div className={clsx('grid gap-3 sm:grid-cols-2')}>
      <Select
        label="Database"
        options={DATABASE_OPTIONS}
        value={value.source_type}
        onChange={(event) =>
          onChange({ ...value, source_type: event.target.value as TDatabaseSourceType })
        }
      />
      <TextField
        label="Connection URI"
        placeholder="postgresql://user:password@host:5432/shop"
        {...field('uri')}
      />
      <TextField label="Database Name" {...field('database')} />
      <TextField label="Table / Collection" {...field('collection_or_table')} />
    </div>
  );
}

function KindPicker({ kind, onPick }: { kind: Kind; onPick: (kind: Kind) => void }) {
  return (
    <div role="group" aria-label="Kind of source" className="flex flex-wrap gap-1">
      {KINDS.map((item) => (
        <Button
          key={item.kind}
          size="sm"
          aria-pressed={kind === item.kind}
          variant={kind === item.kind ? 'primary' : 'outline'}
          onClick={() => onPick(item.kind)}
        >
          {item.label}
        </Button>
      ))}
    </div>
  );
}

type WebValue = { url: string; max_pages: string };

function WebFields({ value, onChange }: { value: WebValue; onChange: (value: WebValue) => void }) {
  return (
    <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
      <TextField
        label="Page address"
        placeholder="https://www.example.com/help"
        value={value.url}
        onChange={(event) => onChange({ ...value, url: event.target.value })}
      />
      <TextField
        label="Pages to read"
        type="number"
        min={1}
        max={WEB_SOURCE_MAX_PAGES}
        value={value.max_pages}
        onChange={(event) => onChange({ ...value, max_pages: event.target.value })}
      />
      <p className="text-xs text-slate-600 sm:col-span-2 dark:text-slate-400">
        1 reads just this page; more also reads the pages of the same site its links lead to. A
        sitemap.xml address reads the pages it lists.
      </p>
    </div>
  );
}
