/** A value as it goes into SQLite: empty cells are NULL, numbers are numbers. */
export type SqliteValue = string | number | null;

export type ColumnType = 'INTEGER' | 'REAL' | 'TEXT';

export interface FileColumn {
  /** The header as the file has it, e.g. "Order Date". */
  header: string;
  /** The SQL name, e.g. order_date. */
  name: string;
  type: ColumnType;
}

const INTEGER = /^[-+]?(?:0|[1-9]\d*)$/;
const REAL = /^[-+]?(?:(?:0|[1-9]\d*)(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * Learns a table's columns from its records in one pass: every header seen, in order, typed as
 * INTEGER when every non-empty value is a whole number, REAL when every one is a number, TEXT
 * otherwise. A leading zero ("007", a postcode) makes a column TEXT, so it is not mangled.
 */
export class ColumnInference {
  private readonly seen = new Map<string, { integer: boolean; real: boolean }>();
  rows = 0;

  add(record: Record<string, string>): void {
    this.rows++;
    for (const [header, raw] of Object.entries(record)) {
      let state = this.seen.get(header);
      if (!state) this.seen.set(header, (state = { integer: true, real: true }));
      const value = raw.trim();
      if (value === '') continue;
      state.integer &&= INTEGER.test(value) && Number.isSafeInteger(Number(value));
      state.real &&= REAL.test(value) && Number.isFinite(Number(value));
    }
  }

  columns(): FileColumn[] {
    const names = new Set<string>();
    return [...this.seen].map(([header, state], index) => {
      const base = sqlIdentifier(header, `column_${index + 1}`);
      let name = base;
      for (let n = 2; names.has(name); n++) name = `${base}_${n}`;
      names.add(name);
      const type = state.integer ? 'INTEGER' : state.real ? 'REAL' : 'TEXT';
      return { header, name, type };
    });
  }
}

export function sqliteValue(raw: string | undefined, type: ColumnType): SqliteValue {
  const value = raw?.trim() ?? '';
  if (value === '') return null;
  return type === 'TEXT' ? (raw ?? null) : Number(value);
}

/**
 * A name the model can write without quotes: lowercase ASCII letters, digits and underscores,
 * accents dropped ("Zürich" → zurich), not starting with a digit, and not an SQL keyword
 * ("order" → order_), because models rarely quote identifiers.
 */
export function sqlIdentifier(text: string, fallback: string): string {
  let name = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (name === '') return fallback;
  if (/^[0-9]/.test(name)) name = `${fallback.split('_')[0]}_${name}`;
  return SQLITE_KEYWORDS.has(name) ? `${name}_` : name;
}

/** The table name from an upload's file name: "Sales 2024.csv" → sales_2024. */
export function tableNameOf(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
  return sqlIdentifier(base, 'data');
}

/** https://www.sqlite.org/lang_keywords.html */
const SQLITE_KEYWORDS = new Set(
  `abort action add after all alter always analyze and as asc attach autoincrement before begin
  between by cascade case cast check collate column commit conflict constraint create cross current
  current_date current_time current_timestamp database default deferrable deferred delete desc
  detach distinct do drop each else end escape except exclude exclusive exists explain fail filter
  first following for foreign from full generated glob group groups having if ignore immediate in
  index indexed initially inner insert instead intersect into is isnull join key last left like
  limit match materialized natural no not nothing notnull null nulls of offset on or order others
  outer over partition plan pragma preceding primary query raise range recursive references regexp
  reindex release rename replace restrict returning right rollback row rows savepoint select set
  table temp temporary then ties to transaction trigger unbounded union unique update using vacuum
  values view virtual when where window with without`.split(/\s+/),
);
