import {
  isFileSourceType,
  NO_FILE_SELECTED,
  UPLOAD_EXTENSIONS,
  ZDatabaseSourceType,
  ZRagDatabaseSourceRequest,
  ZSqlDatabaseSourceRequest,
  type TAgentType,
  type TUploadKind,
} from '@agentloom/contracts';
import { useState, type ReactNode } from 'react';
import { Alert } from '../../../components/ui';
import { errorDetail } from '../../../lib/api';
import { emptyConnection, splitUri } from '../connection-uri';
import {
  connectionOf,
  DatabaseFields,
  FileUploadFields,
  URI_PLACEHOLDERS,
  type DatabaseFieldsValue,
} from '../source-fields';
import { DatabaseTablePicker } from '../database-tables';
import { SourceSample } from '../source-sample';
import { uploadReadLine } from '../upload-read';
import { ragCalls, sqlCalls, type WizardCall } from '../wizard-api';
import { checked, type WizardStepProps } from '../wizard-step';

/**
 * Each wizard's words (docs/product.md#the-wizard-data-source) and calls for a file or a database
 * source.
 */
const KINDS: Record<
  TAgentType,
  {
    accept: (kind: TUploadKind) => string;
    hint: (kind: TUploadKind) => ReactNode;
    upload: (sessionId: string, file: File) => WizardCall;
    uploadFailure: string;
    labels: { uri: string; database: string; table: string };
    /** The checked database call, or null when a field is missing (the message is shown). */
    database: (
      sessionId: string,
      sourceType: string,
      fields: { uri: string; database: string; table: string },
    ) => WizardCall | null;
    databaseFailure: string;
  }
> = {
  rag: {
    accept: () => '.pdf,.csv,.txt,.xlsx',
    // The product's hint, and beside it the one kind of file this source takes.
    hint: (kind) => (
      <>
        <span className="block">Supports: PDF, CSV, TXT, Excel files</span>
        <span className="block font-medium">
          You chose {FILE_KIND_NAMES[kind]}: pick {FILE_KINDS[kind]}, or go back to choose another
          source type.
        </span>
      </>
    ),
    upload: ragCalls.upload,
    uploadFailure: 'File upload failed',
    labels: { uri: 'Connection URI', database: 'Database Name', table: 'Table / Collection' },
    database: (session_id, source_type, { uri, database, table }) => {
      const form = { source_type, uri, database, collection_or_table: table };
      const request = checked(ZRagDatabaseSourceRequest, { session_id, ...form });
      return request && ragCalls.database(session_id, trimmed(form));
    },
    databaseFailure: 'DB configuration failed.',
  },
  sql: {
    accept: (kind) => UPLOAD_EXTENSIONS[kind],
    hint: (kind) => (kind === 'csv' ? 'Supports: CSV files' : 'Supports: Excel (.xlsx) files'),
    upload: sqlCalls.upload,
    uploadFailure: 'Failed to upload file.',
    labels: { uri: 'Database URI', database: 'Database Name', table: 'Table Name' },
    database: (session_id, _sourceType, { uri, database, table }) => {
      const form = { db_uri: uri, db_name: database, table_name: table };
      const request = checked(ZSqlDatabaseSourceRequest, { session_id, ...form });
      return request && sqlCalls.database(session_id, trimmed(form));
    },
    databaseFailure: 'Failed to save DB config.',
  },
};

/** The source type chosen in step 2, as the hint names it. */
const FILE_KIND_NAMES: Record<TUploadKind, string> = {
  pdf: 'PDF',
  csv: 'CSV',
  excel: 'Excel',
  text_file: 'TXT',
};

/** The file each file source type takes, in words. */
const FILE_KINDS: Record<TUploadKind, string> = {
  pdf: 'a PDF file (.pdf)',
  csv: 'a CSV file (.csv)',
  excel: 'an Excel workbook (.xlsx)',
  text_file: 'a text file (.txt)',
};

function trimmed<T extends Record<string, string>>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.trim()])) as T;
}

/** Step 3: the file to upload, or the database to connect, for the source chosen in step 2. */
export function SourceDetailsStep(props: WizardStepProps) {
  if (props.type !== 'rag') return <SourceFields {...props} />;
  return (
    <div className="space-y-5">
      <SourceFields {...props} />
      <MoreSourcesLater />
    </div>
  );
}

function SourceFields(props: WizardStepProps) {
  const { type, sessionId, pipeline, busy, save, advance } = props;
  const kind = KINDS[type];
  const config = pipeline?.config;
  const sourceType = config?.source_type ?? '';
  const done = pipeline?.steps.some((step) => step.key === 'source_details' && step.complete);
  const savedDb = config?.database;
  const databaseType = ZDatabaseSourceType.safeParse(sourceType).data ?? 'postgres';
  const saved = savedDb && savedDb.type === sourceType ? savedDb : null;
  // The saved connection opens as fields when it can be shown as fields; its password stays
  // masked (`****`) and is kept unless another one is typed.
  const savedFields = saved ? splitUri(databaseType, saved.uri, saved.database) : null;
  const keptPassword = savedFields?.password ? savedFields.password : null;
  const initialDb: DatabaseFieldsValue = {
    mode: saved && !savedFields ? 'uri' : 'fields',
    connection: savedFields ? { ...savedFields, password: '' } : emptyConnection(databaseType),
    uri: saved?.uri ?? '',
    database: saved?.database ?? '',
    table: saved?.table ?? '',
  };
  const [db, setDb] = useState(initialDb);

  if (isFileSourceType(sourceType)) {
    return <FileSourceDetails {...props} sourceType={sourceType} done={Boolean(done)} />;
  }

  const connection = connectionOf(databaseType, db, keptPassword);
  const connect = async () => {
    const fields = { ...connection, table: db.table };
    // The saved connection, unchanged, needs no second check (its password is masked here).
    const unchanged =
      saved !== null &&
      fields.uri.trim() === saved.uri &&
      fields.database.trim() === saved.database &&
      fields.table.trim() === saved.table;
    if (done && unchanged) return advance();
    const call = kind.database(sessionId, sourceType, fields);
    if (call && (await save(call, kind.databaseFailure))) advance();
  };
  return (
    <DatabaseFields
      type={databaseType}
      labels={kind.labels}
      uriPlaceholder={URI_PLACEHOLDERS[sourceType] ?? ''}
      value={db}
      onChange={setDb}
      keptPassword={keptPassword}
      busy={busy}
      onSubmit={() => void connect()}
      tablePicker={
        <DatabaseTablePicker
          sessionId={sessionId}
          sourceType={databaseType}
          uri={connection.uri}
          database={connection.database}
          table={db.table}
          disabled={busy}
          onPick={(table) => setDb({ ...db, table })}
        />
      }
    />
  );
}

/**
 * Step 3 of a file source: the file, its upload's failure in place, and the sample once read. A
 * good upload stays on the step and says what was read ("Read 500 rows, 6 columns") with its
 * sample; Continue moves on (it moved on silently, issue 43 item 6).
 */
function FileSourceDetails(props: WizardStepProps & { sourceType: TUploadKind; done: boolean }) {
  const { type, sessionId, pipeline, busy, advance, mutations, sourceType, done } = props;
  const kind = KINDS[type];
  const config = pipeline?.config;
  const [file, setFile] = useState<File | null>(null);
  // A failed upload is said beside the file picker and stays there until the next try: a toast
  // vanished, and left "Selected: notes.docx" with an active button as if nothing was wrong.
  const [uploadError, setUploadError] = useState<{ title: string; detail?: string } | null>(null);
  const [justRead, setJustRead] = useState(false);

  const kept = config?.file?.summary.kind === sourceType ? config.file : null;
  const upload = async () => {
    setUploadError(null);
    // The file already uploaded stays unless another one is picked.
    if (!file) return kept && done ? advance() : setUploadError({ title: NO_FILE_SELECTED });
    setJustRead(false);
    try {
      // The agent is read again before this resolves: `kept` is the new file's.
      await mutations.save.mutateAsync(kind.upload(sessionId, file));
      setFile(null);
      setJustRead(true);
    } catch (error) {
      setUploadError({ title: kind.uploadFailure, detail: errorDetail(error) });
    }
  };
  return (
    <div className="space-y-5">
      <FileUploadFields
        accept={kind.accept(sourceType)}
        hint={kind.hint(sourceType)}
        file={file}
        saved={kept && { name: kept.original_name, size: kept.size_bytes }}
        onFile={setFile}
        busy={busy}
        onSubmit={() => void upload()}
        read={
          justRead &&
          kept &&
          !file && (
            <Alert tone="success">
              <p className="font-semibold">{uploadReadLine(kept.summary)}</p>
              <p className="mt-1">
                From {kept.original_name}. Check the sample below, then continue — or pick another
                file.
              </p>
            </Alert>
          )
        }
      />
      {uploadError && (
        <Alert>
          <p className="font-semibold">{uploadError.title}</p>
          {uploadError.detail && <p className="mt-1">{uploadError.detail}</p>}
        </Alert>
      )}
      {kept && !file && <SourceSample sessionId={sessionId} file={kept} />}
    </div>
  );
}

/** A RAG agent answers from more than one source: where to add the others. */
function MoreSourcesLater() {
  return (
    <p className="text-sm text-slate-600 dark:text-slate-300">
      This is the agent&apos;s first source. More files, database tables and web pages can be added
      on the last step (Add another source), before you build, and any time after.
    </p>
  );
}
