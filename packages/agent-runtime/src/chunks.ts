import type { TChunkLine } from '@agentloom/contracts';

/** One passage the agent retrieves from: a line of the build's `data/chunks.jsonl`. */
export type Chunk = TChunkLine;

/** Parses `data/chunks.jsonl`; blank lines are skipped, a malformed line is named by number. */
export function parseChunksJsonl(content: string): Chunk[] {
  const chunks: Chunk[] = [];
  content.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const lineNumber = index + 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new Error(
        `chunks.jsonl line ${lineNumber} is not valid JSON: ${(error as Error).message}`,
      );
    }
    chunks.push(chunkOf(value, lineNumber));
  });
  return chunks;
}

function chunkOf(value: unknown, lineNumber: number): Chunk {
  const problem = (what: string) => new Error(`chunks.jsonl line ${lineNumber}: ${what}.`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw problem('expected an object like {"id", "text", "source"}');
  }
  const record = value as Record<string, unknown>;
  const { id, text, source, page, row, ref } = record;
  if (typeof id !== 'string' || id === '') throw problem('"id" must be a non-empty string');
  if (typeof text !== 'string') throw problem('"text" must be a string');
  if (source !== undefined && source !== null && typeof source !== 'string') {
    throw problem('"source" must be a string');
  }
  const chunk: Chunk = { id, text, source: source ?? '' };
  for (const [key, number] of [
    ['page', page],
    ['row', row],
  ] as const) {
    if (number === undefined || number === null) continue;
    if (!Number.isInteger(number)) throw problem(`"${key}" must be a whole number`);
    chunk[key] = number as number;
  }
  if (ref !== undefined && ref !== null) {
    if (typeof ref !== 'string') throw problem('"ref" must be a string');
    chunk.ref = ref;
  }
  return chunk;
}

/** Files opened in a spreadsheet, whose first row is the header. */
const SPREADSHEET = /\.(csv|xlsx)$/i;

/**
 * How an answer cites a chunk: "sales.csv, row 13", "report.pdf, page 3", "customers, id=42",
 * "policies.md › Warranty" (a section of a document or web page).
 * A chunk's row counts data rows; a spreadsheet numbers its header row 1, so a file's data row 12
 * is cited as row 13 — the row the owner finds when they open the file.
 */
export function citationOf(chunk: Chunk): string {
  const source = chunk.section
    ? `${chunk.source || chunk.id} › ${chunk.section}`
    : chunk.source || chunk.id;
  if (chunk.ref !== undefined) return `${source}, ${chunk.ref}`;
  if (chunk.page !== undefined) return `${source}, page ${chunk.page}`;
  if (chunk.row !== undefined) {
    return `${source}, row ${SPREADSHEET.test(source) ? chunk.row + 1 : chunk.row}`;
  }
  return source;
}
