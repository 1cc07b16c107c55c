import type { ReactNode } from 'react';
import { TextField } from '../../components/ui';
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
}: {
  accept: string;
  hint: string;
  file: File | null;
  /** The file the server already holds for this source, kept unless another one is picked. */
  saved: { name: string; size: number } | null;
  onFile: (file: File | null) => void;
  busy: boolean;
  onSubmit: () => void;
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
      <SubmitButton busy={busy} label="Upload & Continue" busyLabel="Uploading…" />
    </StepForm>
  );
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export type DatabaseFieldsValue = { uri: string; database: string; table: string };

export function DatabaseFields({
  labels,
  uriPlaceholder,
  value,
  onChange,
  busy,
  onSubmit,
  tablePicker,
}: {
  labels: { uri: string; database: string; table: string };
  uriPlaceholder: string;
  value: DatabaseFieldsValue;
  onChange: (value: DatabaseFieldsValue) => void;
  busy: boolean;
  onSubmit: () => void;
  /** Under the fields: the tables found in the database, to pick one. */
  tablePicker?: ReactNode;
}) {
  return (
    <StepForm onSubmit={onSubmit}>
      <TextField
        label={labels.uri}
        placeholder={uriPlaceholder}
        value={value.uri}
        onChange={(event) => onChange({ ...value, uri: event.target.value })}
        required
        autoComplete="off"
        spellCheck={false}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label={labels.database}
          value={value.database}
          onChange={(event) => onChange({ ...value, database: event.target.value })}
          required
          autoComplete="off"
        />
        <TextField
          label={labels.table}
          value={value.table}
          onChange={(event) => onChange({ ...value, table: event.target.value })}
          required
          autoComplete="off"
        />
      </div>
      {tablePicker}
      <SubmitButton busy={busy} label="Connect & Continue" busyLabel="Connecting…" />
    </StepForm>
  );
}

/** Examples of a connection URI for each database source. */
export const URI_PLACEHOLDERS: Record<string, string> = {
  postgres: 'postgresql://user:password@localhost:5432/mydb',
  mysql: 'mysql://user:password@localhost:3306/mydb',
  sqlite: 'sqlite:///data/mydb.sqlite',
  mongo: 'mongodb://user:password@localhost:27017',
};
