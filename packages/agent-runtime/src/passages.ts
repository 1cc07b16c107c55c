import type { Chunk } from './chunks';
import {
  chunkOf,
  connection,
  TABLE,
  type HostedIndexLocation,
  type StoredRow,
} from './hosted-index';
import { readRemovedKeys } from './segments';

/**
 * Citations you can open: one passage of a build's index, found by its id in the build's own
 * tables (its segments, or the one table of a build made before segments), with the passages
 * around it — the rows next to a table's row, the other passages of a document's page or of a
 * web page, the passages before and after any other. Only live passages count: one a later
 * delta of its source replaced or removed is not in the build.
 */

/** One table of a build's index: a segment (with its source), or a build's only table. */
export interface PassageTable {
  location: HostedIndexLocation;
  /** The knowledge source the segment is of; null for a build made before segments. */
  sourceId: string | null;
  /** How many earlier chunks of its source it replaces or removes (a delta's removed.json). */
  removed: number;
  /** A segment of no chunks (a delta that only removes) has no table to read. */
  empty: boolean;
}

export interface PassageRead {
  chunk: Chunk;
  /** The passage and those around it, in the source's order. */
  neighbours: Chunk[];
}

/** Rows on either side of a cited row; passages on either side of a plain-text one. */
const AROUND = 2;
/** The most passages shown of one page. */
const PAGE_LIMIT = 60;

interface Found {
  chunk: Chunk;
  key: string;
  position: number;
  table: number;
}

/** The live passage `id` of the build, with its neighbours, or null when it has none such. */
export async function readPassage(tables: PassageTable[], id: string): Promise<PassageRead | null> {
  const dead = await deadKeys(tables);
  let found: Found | null = null;
  for (let index = tables.length - 1; index >= 0 && !found; index -= 1) {
    const rows = await select(tables[index]!, `\`id\` = ${quoted(id)}`, 5);
    const live = rows.find((row) => !dead[index]!.has(row.key ?? row.id));
    if (live) found = foundOf(live, index);
  }
  if (!found) return null;
  const { chunk } = found;
  const near = nearFilter(found);
  const sameSource = tables
    .map((table, index) => ({ table, index }))
    .filter(({ table, index }) =>
      near.sameTable ? index === found.table : table.sourceId === tables[found.table]!.sourceId,
    );
  const around: Found[] = [];
  for (const { table, index } of sameSource) {
    const rows = await select(table, near.filter, PAGE_LIMIT);
    for (const row of rows) {
      if (!dead[index]!.has(row.key ?? row.id)) around.push(foundOf(row, index));
    }
  }
  const byId = new Map<string, Found>();
  for (const item of around) {
    const earlier = byId.get(item.chunk.id);
    if (!earlier || earlier.table < item.table) byId.set(item.chunk.id, item);
  }
  byId.set(chunk.id, found);
  const neighbours = [...byId.values()]
    .sort(
      (a, b) =>
        (a.chunk.row ?? 0) - (b.chunk.row ?? 0) || a.table - b.table || a.position - b.position,
    )
    .map((item) => item.chunk);
  return { chunk, neighbours };
}

/** Which passages stand around this one, as a filter on its source's tables. */
function nearFilter(found: Found): { filter: string; sameTable: boolean } {
  const { chunk, position } = found;
  const source = `\`source\` = ${quoted(chunk.source)}`;
  if (chunk.row !== undefined) {
    return {
      filter: `${source} AND \`row\` >= ${chunk.row - AROUND} AND \`row\` <= ${chunk.row + AROUND}`,
      sameTable: false,
    };
  }
  if (chunk.page !== undefined) {
    return { filter: `${source} AND \`page\` = ${chunk.page}`, sameTable: false };
  }
  if (chunk.url !== undefined) {
    return { filter: `\`url\` = ${quoted(chunk.url)}`, sameTable: false };
  }
  return {
    filter: `${source} AND \`position\` >= ${position - AROUND} AND \`position\` <= ${position + AROUND}`,
    sameTable: true,
  };
}

/** A chunk is dead when a later segment of its own source replaces or removes its key. */
async function deadKeys(tables: PassageTable[]): Promise<Set<string>[]> {
  const dead = tables.map(() => new Set<string>());
  for (const [later, table] of tables.entries()) {
    if (table.removed === 0 || table.sourceId === null) continue;
    const removed = await readRemovedKeys(table.location);
    tables.forEach((earlier, index) => {
      if (index < later && earlier.sourceId === table.sourceId) {
        for (const key of removed) dead[index]!.add(key);
      }
    });
  }
  return dead;
}

/** The rows of a table matching `filter`, with the columns this table has. */
async function select(table: PassageTable, filter: string, limit: number): Promise<StoredRow[]> {
  if (table.empty) return [];
  const opened = await (await connection(table.location)).openTable(TABLE);
  try {
    const names = new Set((await opened.schema()).fields.map((field) => field.name));
    const columns = COLUMNS.filter((name) => names.has(name));
    // A build made before pages' addresses were kept has no `url` to filter on.
    if (/`url`/.test(filter) && !names.has('url')) return [];
    return (await opened
      .query()
      .where(filter)
      .select(columns)
      .limit(limit)
      .toArray()) as StoredRow[];
  } finally {
    opened.close();
  }
}

const COLUMNS = [
  'position',
  'id',
  'key',
  'text',
  'source',
  'page',
  'row',
  'ref',
  'url',
  'section',
] as const;

function foundOf(row: StoredRow, table: number): Found {
  return { chunk: chunkOf(row), key: row.key ?? row.id, position: Number(row.position), table };
}

/** A string as a SQL literal of LanceDB's filters. */
function quoted(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
