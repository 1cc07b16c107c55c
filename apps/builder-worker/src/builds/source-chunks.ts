import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { chunkText as splitText, RAG_DEFAULTS, type SourceChunk } from '../generator';

/**
 * The chunks the build ships in `data/chunks.jsonl`. They match what the generated agent's own
 * loaders (agent/loaders.py, agent/chunking.py) would make from the same file, so an agent that
 * re-reads its source behaves exactly like one that uses the shipped chunks.
 */

/** A CSV row becomes one chunk of "column: value" lines (empty values skipped), cited by row. */
export async function chunkCsv(filePath: string, source: string): Promise<SourceChunk[]> {
  const chunks: SourceChunk[] = [];
  const parser = createReadStream(filePath).pipe(
    parse({
      bom: true,
      columns: (header: string[]) => header.map((column) => column.trim()),
      skip_empty_lines: true,
    }),
  );
  let row = 0;
  for await (const record of parser as AsyncIterable<Record<string, string>>) {
    row += 1;
    const text = Object.entries(record)
      .filter(([, value]) => value.trim() !== '')
      .map(([column, value]) => `${column}: ${value}`)
      .join('\n');
    if (text) chunks.push({ id: `row-${row}`, text, source, row });
  }
  return chunks;
}

/** Plain text is split into overlapping windows, exactly as agent/chunking.py splits it. */
export async function chunkTextFile(filePath: string, source: string): Promise<SourceChunk[]> {
  const text = (await readFile(filePath, 'utf8')).replace(/^\uFEFF/, '');
  return splitText(text, RAG_DEFAULTS.chunk_size, RAG_DEFAULTS.chunk_overlap).map(
    (part, index) => ({ id: `chunk-${index + 1}`, text: part, source }),
  );
}
