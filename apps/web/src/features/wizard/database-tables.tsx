import type { TDatabaseSourceType } from '@agentloom/contracts';
import { useState } from 'react';
import { Button, Select } from '../../components/ui';
import { ApiError } from '../../lib/api';
import { listSourceTables } from './wizard-api';

type Listing =
  | { state: 'idle' }
  | { state: 'loading'; key: string }
  | { state: 'listed'; key: string; tables: string[] }
  | { state: 'failed'; key: string; detail: string };

/**
 * "See your data" for a database: once the URI and database name are in, the tables the gateway
 * finds there (checked by the same rules as connecting) to pick from. Picking fills the table
 * field, which stays typeable; a listing belongs to the URI and database it was made for.
 */
export function DatabaseTablePicker({
  sessionId,
  sourceType,
  uri,
  database,
  table,
  disabled,
  onPick,
}: {
  sessionId: string;
  sourceType: TDatabaseSourceType;
  uri: string;
  database: string;
  table: string;
  disabled: boolean;
  onPick: (table: string) => void;
}) {
  const [listing, setListing] = useState<Listing>({ state: 'idle' });
  const key = `${sourceType}\n${uri.trim()}\n${database.trim()}`;
  const current = listing.state !== 'idle' && listing.key === key ? listing : null;

  const list = async () => {
    if (!uri.trim() || !database.trim()) {
      setListing({
        state: 'failed',
        key,
        detail: 'Enter the connection URI and the database name first.',
      });
      return;
    }
    setListing({ state: 'loading', key });
    try {
      const answer = await listSourceTables(sessionId, {
        source_type: sourceType,
        uri: uri.trim(),
        database: database.trim(),
      });
      setListing({ state: 'listed', key, tables: answer.tables });
    } catch (error) {
      const detail =
        error instanceof ApiError && error.detail
          ? error.detail
          : 'The tables could not be listed. Check the connection and try again.';
      setListing({ state: 'failed', key, detail });
    }
  };

  return (
    <div className="space-y-3">
      <Button
        variant="outline"
        onClick={() => void list()}
        loading={current?.state === 'loading'}
        disabled={disabled}
      >
        {current?.state === 'loading' ? 'Listing tables…' : 'List tables'}
      </Button>
      {current?.state === 'failed' && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {current.detail}
        </p>
      )}
      {current?.state === 'listed' && (
        <TableChoices tables={current.tables} table={table} disabled={disabled} onPick={onPick} />
      )}
    </div>
  );
}

/** The tables found, to pick from; the one typed above is shown as picked if it is among them. */
function TableChoices({
  tables,
  table,
  disabled,
  onPick,
}: {
  tables: string[];
  table: string;
  disabled: boolean;
  onPick: (table: string) => void;
}) {
  if (tables.length === 0) {
    return (
      <p role="status" className="text-sm text-slate-700 dark:text-slate-300">
        No tables were found in this database; type the name instead.
      </p>
    );
  }
  return (
    <Select
      label="Tables in this database"
      hint="Picking one fills in the table above."
      placeholder="Pick a table"
      options={tables.map((name) => ({ value: name, label: name }))}
      value={tables.includes(table.trim()) ? table.trim() : ''}
      onChange={(event) => event.target.value && onPick(event.target.value)}
      disabled={disabled}
    />
  );
}
