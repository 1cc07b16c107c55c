import { chunkHash, type SegmentChunk } from '@agentloom/agent-runtime';
import type { TChunking } from '@agentloom/contracts';
import {
  crawlWebSource,
  type DataSourceAccess,
  type RowBatch,
  type WebSourceSettings,
} from '@agentloom/data-sources';
import { chunkText } from '../generator';

/**
 * A source's passages as segments store them: each with its key (the unit a later change
 * replaces: a file's chunk, a table's row, a web page) and its text's digest.
 */

/** Keyed chunks from documents that are already cited (file readers' output), numbered in order. */
export async function* keyedFileChunks(
  documents: AsyncIterable<readonly FileDocument[]>,
  chunking: TChunking,
  idPrefix: string,
): AsyncGenerator<SegmentChunk[]> {
  let position = 0;
  for await (const batch of documents) {
    const chunks: SegmentChunk[] = [];
    for (const document of batch) {
      for (const text of chunkText(document.text, chunking.size, chunking.overlap)) {
        const key = `chunk-${String(position).padStart(6, '0')}`;
        position += 1;
        chunks.push({
          id: `${idPrefix}${key}`,
          key,
          hash: chunkHash(text),
          text,
          source: document.source,
          ...(document.page !== undefined && { page: document.page }),
          ...(document.row !== undefined && { row: document.row }),
          ...(document.ref !== undefined && { ref: document.ref }),
          ...(document.url !== undefined && { url: document.url }),
          ...(document.section !== undefined && { section: document.section }),
        });
      }
    }
    if (chunks.length > 0) yield chunks;
  }
}

/** A unit a file (or a page) gives before chunking, with what its citation needs. */
export interface FileDocument {
  text: string;
  source: string;
  page?: number;
  row?: number;
  ref?: string;
  url?: string;
  section?: string;
}

/** One table row, as a source's unit of change: its key, text and digest. */
export interface TableUnit {
  key: string;
  /** The digest of the row's whole text: a row whose digest is unchanged is not read again. */
  digest: string;
  chunks: SegmentChunk[];
}

export interface TableRead {
  type: 'postgres' | 'mysql' | 'sqlite' | 'mongo';
  uri: string;
  database: string;
  table: string;
  /** How citations name the table. */
  label: string;
}

/**
 * A table's rows as units of change, a batch at a time, streamed through the data-sources guard
 * (a server-side cursor; never the whole table). A row is keyed by its primary key
 * (`id=42`, shown in its citation), else an `id` column, else its own content (so an edited row
 * of a keyless table is a removed row and a new one). Rows are numbered from 1 as read.
 */
export async function* tableUnits(
  access: DataSourceAccess,
  read: TableRead,
  chunking: TChunking,
  idPrefix: string,
  onRows: (rows: number) => Promise<void>,
): AsyncGenerator<TableUnit[]> {
  let rowNumber = 0;
  const seen = new Map<string, number>();
  for await (const batch of pulled<RowBatch>((push) =>
    access.readTable(
      { type: read.type, uri: read.uri, database: read.database, table: read.table },
      push,
    ),
  )) {
    const units: TableUnit[] = [];
    const keyColumns = batch.keyColumns.length > 0 ? batch.keyColumns : idColumn(batch.columns);
    // A primary key is unique (but for SQLite's NULLs): only other keys are remembered, where
    // a table's duplicates could be (a million rows' keys would hold ~80 MB).
    const primary = batch.keyColumns.length > 0;
    for (const values of batch.rows) {
      rowNumber += 1;
      const text = recordText(values, read.type === 'mongo' ? ['_id'] : []);
      if (!text) continue;
      const digest = chunkHash(text);
      let key =
        keyColumns.length > 0
          ? keyColumns.map((column) => `${column}=${cellText(values[column])}`).join(', ')
          : `#${digest}`;
      // Two rows with one key (a keyless table's identical rows, a duplicated id): numbered.
      const remembered = !primary || keyColumns.some((column) => values[column] == null);
      const count = remembered ? (seen.get(key) ?? 0) : 0;
      if (remembered) seen.set(key, count + 1);
      if (count > 0) key = `${key} (${count + 1})`;
      const ref = keyColumns.length > 0 ? key : undefined;
      const pieces = chunkText(text, chunking.size, chunking.overlap);
      units.push({
        key,
        digest,
        chunks: pieces.map((piece, index) => ({
          id: `${idPrefix}${key}#${index}`,
          key,
          hash: chunkHash(piece),
          text: piece,
          source: read.label,
          row: rowNumber,
          ...(ref !== undefined && { ref }),
        })),
      });
    }
    await onRows(rowNumber);
    if (units.length > 0) yield units;
  }
}

export interface WebRead {
  url: string;
  maxPages: number;
  sitemap: boolean;
}

/** What a site's read found besides its pages: the first page that could not be read, if any. */
export interface WebReadOutcome {
  pages: number;
  failed?: string;
}

/**
 * A site's pages as units of change, keyed by the address each ended at (and cited by it):
 * one page, the pages its same-site links lead to (up to the page limit), or a sitemap's pages,
 * through the data-sources web guard. Pages that cannot be read are left out and the first such
 * reason is kept in `outcome`; robots.txt, noindex and other types are skipped quietly.
 */
export async function* webUnits(
  settings: WebSourceSettings,
  read: WebRead,
  chunking: TChunking,
  idPrefix: string,
  outcome: WebReadOutcome,
  onPages: (pages: number) => Promise<void>,
): AsyncGenerator<TableUnit[]> {
  const mode = read.sitemap ? 'sitemap' : read.maxPages > 1 ? 'site' : 'page';
  const seen = new Set<string>();
  for await (const page of crawlWebSource(
    { url: read.url, mode, maxPages: read.maxPages },
    settings,
  )) {
    if (page.status === 'error') {
      outcome.failed ??= `${page.url}: ${page.detail}`;
      continue;
    }
    if (page.status !== 'ok' || seen.has(page.finalUrl)) continue;
    seen.add(page.finalUrl);
    outcome.pages += 1;
    await onPages(outcome.pages);
    const key = page.finalUrl;
    const chunks: SegmentChunk[] = [];
    for (const section of page.documents) {
      for (const text of chunkText(section.text, chunking.size, chunking.overlap)) {
        chunks.push({
          id: `${idPrefix}${key}#${chunks.length}`,
          key,
          hash: chunkHash(text),
          text,
          source: key,
          url: key,
          ...(section.section && { section: section.section }),
        });
      }
    }
    if (chunks.length > 0) yield [{ key, digest: page.contentHash, chunks }];
  }
}

function idColumn(columns: string[]): string[] {
  const id = columns.find((column) => column.toLowerCase() === 'id');
  return id ? [id] : [];
}

/**
 * The generated agent's record_text (agent/loaders.py): "column: value" lines, skipping empty
 * values; nested values as JSON.
 */
export function recordText(values: Record<string, unknown>, skip: string[] = []): string {
  const lines: string[] = [];
  for (const [column, value] of Object.entries(values)) {
    if (skip.includes(column) || value === null || value === undefined) continue;
    const text = cellText(value);
    if (text.trim() === '') continue;
    lines.push(`${column}: ${text}`);
  }
  return lines.join('\n');
}

/** A database value as text: dates in ISO form, binary by its size, documents as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  // MongoDB's ObjectId, Decimal128 and the like say themselves best.
  const own = (value as { toHexString?: () => string }).toHexString;
  if (typeof own === 'function') return own.call(value);
  if (typeof value === 'object' && value.constructor !== Object && !Array.isArray(value)) {
    const text = (value as { toString(): string }).toString();
    if (text !== '[object Object]') return text;
  }
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint' ? item.toString() : item,
  );
}

/**
 * Turns a producer that pushes batches (and waits for each to be taken) into an async generator:
 * the producer is paused while the consumer works on a batch, so memory holds one batch at a
 * time. The producer's failure is thrown from the generator; a consumer that stops early ends
 * the producer's next push.
 */
export async function* pulled<T>(
  produce: (push: (item: T) => Promise<void>) => Promise<void>,
): AsyncGenerator<T> {
  type Slot =
    | { item: T; taken: () => void; cancel: (error: Error) => void }
    | { done: true }
    | { error: unknown };
  let waiting: ((slot: Slot) => void) | null = null;
  const queue: Slot[] = [];
  let stopped = false;
  let current: Slot | null = null;
  const deliver = (slot: Slot) => {
    if (waiting) {
      const resolve = waiting;
      waiting = null;
      resolve(slot);
    } else {
      queue.push(slot);
    }
  };
  const producing = produce(
    (item) =>
      new Promise<void>((taken, cancel) => {
        if (stopped) cancel(new Error('The reader stopped.'));
        else deliver({ item, taken, cancel });
      }),
  ).then(
    () => deliver({ done: true }),
    (error: unknown) => deliver({ error }),
  );
  try {
    for (;;) {
      current = queue.shift() ?? (await new Promise<Slot>((resolve) => (waiting = resolve)));
      if ('done' in current) return;
      if ('error' in current) throw current.error;
      yield current.item;
      current.taken();
      current = null;
    }
  } finally {
    // A consumer that stopped early (or failed) ends the producer's wait, so it can close.
    stopped = true;
    for (const slot of current ? [current, ...queue] : queue) {
      if ('cancel' in slot) slot.cancel(new Error('The reader stopped.'));
    }
    await producing;
  }
}
