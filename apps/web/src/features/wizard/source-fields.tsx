import { DATABASE_SOURCE_CATALOG, type TDatabaseSourceType } from '@agentloom/contracts';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';
import { TextField } from '../../components/ui';
import { composeUri, splitUri, type ConnectionFields } from './connection-uri';
import { StepForm, SubmitButton } from './step-form';

/** Step 3 of a file source: the file to upload (or the one already uploaded). */
export function FileUploadFields({
  accept,
  hint,
  file,
  saved,
  onFile,
  busy,
  onSubmit,
  read,
}: {
  accept: string;
  hint: ReactNode;
  file: File | null;
  /** The file the server already holds for this source, kept unless another one is picked. */
  saved: { name: string; size: number } | null;
  onFile: (file: File | null) => void;
  busy: boolean;
  onSubmit: () => void;
  /** What the upload just read ("Read 500 rows, 6 columns"), said above the way on. */
  read?: ReactNode;
}) {
  return (
    <StepForm onSubmit={onSubmit}>
      <TextField
        type="file"
        label="Source File"
        accept={accept}
        hint={hint}
        onChange={(event) => onFile(event.target.files?.[0] ?? null)}
      />
      {file ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Selected: <span className="font-medium">{file.name}</span> ({formatBytes(file.size)})
        </p>
      ) : (
        saved && (
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Uploaded: <span className="font-medium">{saved.name}</span> ({formatBytes(saved.size)})
          </p>
        )
      )}
      {read}
      {/* The file on record with nothing new picked: the button only moves on. */}
      <SubmitButton
        busy={busy}
        label={!file && saved ? 'Continue' : 'Upload & Continue'}
        busyLabel="Uploading…"
      />
    </StepForm>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * A database source as the step edits it: `mode` says whether the connection is typed as fields
 * (host, port, user, password — the URI is composed and encoded for the user) or as a URI.
 */
export type DatabaseFieldsValue = {
  mode: 'fields' | 'uri';
  connection: ConnectionFields;
  uri: string;
  database: string;
  table: string;
};

export function DatabaseFields({
  type,
  labels,
  uriPlaceholder,
  value,
  onChange,
  keptPassword,
  busy,
  onSubmit,
  tablePicker,
}: {
  type: TDatabaseSourceType;
  /** The product's names of the three fields of each wizard. */
  labels: { uri: string; database: string; table: string };
  uriPlaceholder: string;
  value: DatabaseFieldsValue;
  onChange: (value: DatabaseFieldsValue) => void;
  /** The saved password as the server shows it (`****`): an empty password field keeps it. */
  keptPassword: string | null;
  busy: boolean;
  onSubmit: () => void;
  /** Under the fields: the tables found in the database, to pick one. */
  tablePicker?: ReactNode;
}) {
  const set = (change: Partial<DatabaseFieldsValue>) => onChange({ ...value, ...change });
  const setConnection = (change: Partial<ConnectionFields>) =>
    set({ connection: { ...value.connection, ...change } });
  // A SQLite source is one file: its URI is all there is to type.
  const fieldsOffered = type !== 'sqlite';
  const mode = fieldsOffered ? value.mode : 'uri';
  return (
    <StepForm onSubmit={onSubmit}>
      {fieldsOffered && (
        <ConnectionModeToggle
          mode={mode}
          onSwitch={(option) => onChange(switchedMode(type, value, option, keptPassword))}
        />
      )}
      {mode === 'fields' ? (
        <ConnectionInputs
          labels={labels}
          value={value}
          keptPassword={keptPassword}
          set={set}
          setConnection={setConnection}
        />
      ) : (
        <>
          <TextField
            label={labels.uri}
            placeholder={uriPlaceholder}
            hint="Special characters in the user name or password must be URL-encoded here (# as %23); the fields above encode them for you."
            value={value.uri}
            onChange={(event) => set({ uri: event.target.value })}
            required
            autoComplete="off"
            spellCheck={false}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label={labels.database}
              value={value.database}
              onChange={(event) => set({ database: event.target.value })}
              required
              autoComplete="off"
            />
            <TableField
              label={labels.table}
              value={value.table}
              onChange={(table) => set({ table })}
            />
          </div>
        </>
      )}
      {tablePicker}
      <SubmitButton busy={busy} label="Connect & Continue" busyLabel="Connecting…" />
    </StepForm>
  );
}

/** Switching keeps what was typed: the URI of the fields, or the fields of the URI. */
function switchedMode(
  type: TDatabaseSourceType,
  value: DatabaseFieldsValue,
  mode: DatabaseFieldsValue['mode'],
  keptPassword: string | null,
): DatabaseFieldsValue {
  if (mode === value.mode) return value;
  if (mode === 'uri') {
    const typed = value.connection.user || value.connection.database;
    const uri = connectionOf(type, value, keptPassword).uri;
    return { ...value, mode, uri: typed ? uri : value.uri };
  }
  const split = value.uri ? splitUri(type, value.uri, value.database) : null;
  return { ...value, mode, connection: split ?? value.connection };
}

function ConnectionModeToggle({
  mode,
  onSwitch,
}: {
  mode: DatabaseFieldsValue['mode'];
  onSwitch: (mode: DatabaseFieldsValue['mode']) => void;
}) {
  return (
    <div role="group" aria-label="How to connect" className="flex flex-wrap gap-2">
      {(
        [
          ['fields', 'Enter host, user and password'],
          ['uri', 'Paste a connection URI'],
        ] as const
      ).map(([option, text]) => (
        <button
          key={option}
          type="button"
          aria-pressed={mode === option}
          onClick={() => onSwitch(option)}
          className={clsx(
            'rounded-full border px-3 py-1.5 text-sm font-medium focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none',
            mode === option
              ? 'border-indigo-600 bg-indigo-600 text-white dark:border-indigo-400 dark:bg-indigo-400 dark:text-slate-950'
              : 'border-slate-300 text-slate-700 hover:border-indigo-400 dark:border-slate-600 dark:text-slate-200',
          )}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

/** Host, port, user, password, database and table: the connection without a URI. */
function ConnectionInputs({
  labels,
  value,
  keptPassword,
  set,
  setConnection,
}: {
  labels: { database: string; table: string };
  value: DatabaseFieldsValue;
  keptPassword: string | null;
  set: (change: Partial<DatabaseFieldsValue>) => void;
  setConnection: (change: Partial<ConnectionFields>) => void;
}) {
  return (
    <>
      <div className="grid gap-5 sm:grid-cols-[1fr_8rem]">
        <TextField
          label="Host"
          hint="The server's name or address, such as db.example.com"
          value={value.connection.host}
          onChange={(event) => setConnection({ host: event.target.value })}
          required
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label="Port"
          inputMode="numeric"
          value={value.connection.port}
          onChange={(event) => setConnection({ port: event.target.value })}
          autoComplete="off"
        />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="User"
          value={value.connection.user}
          onChange={(event) => setConnection({ user: event.target.value })}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          type="password"
          label="Password"
          hint={
            keptPassword
              ? 'Saved. Leave empty to keep it.'
              : 'Any characters, # @ : / % included: it is encoded for you.'
          }
          value={value.connection.password}
          onChange={(event) => setConnection({ password: event.target.value })}
          autoComplete="new-password"
        />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={labels.database}
          value={value.connection.database}
          onChange={(event) => setConnection({ database: event.target.value })}
          required
          autoComplete="off"
        />
        <TableField label={labels.table} value={value.table} onChange={(table) => set({ table })} />
      </div>
    </>
  );
}

function TableField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      autoComplete="off"
    />
  );
}

/** What the step sends: the URI (composed from the fields, or as typed) and the database. */
export function connectionOf(
  type: TDatabaseSourceType,
  value: DatabaseFieldsValue,
  keptPassword: string | null,
): { uri: string; database: string } {
  if (type === 'sqlite' || value.mode === 'uri')
    return { uri: value.uri, database: value.database };
  const connection = value.connection;
  const password = connection.password || keptPassword || '';
  return {
    uri: composeUri(type, { ...connection, password }),
    database: connection.database,
  };
}
/** Examples of a connection URI for each database source. */
export const URI_PLACEHOLDERS: Record<string, string> = Object.fromEntries(
  Object.entries(DATABASE_SOURCE_CATALOG).map(([type, spec]) => [type, spec.uriPlaceholder]),
);
