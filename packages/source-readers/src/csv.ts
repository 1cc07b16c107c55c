import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { TUploadSummary } from '@agentloom/contracts';
import { UnreadableUploadError, reasonOf } from './upload-errors';
import { scanUtf8Text } from './utf8-text';

/**
 * An unclosed quote makes the parser buffer the rest of the file as one field; this cap keeps a
 * broken file from being held in memory and turns it into a readable error instead.
 */
const MAX_RECORD_BYTES = 1024 * 1024;

/** Header and data-row count of a UTF-8 CSV file, read as a stream. */
export async function inspectCsv(
  filePath: string,
): Promise<Extract<TUploadSummary, { kind: 'csv' }>> {
  // A separate pass first so a binary file is always reported as such (415), even when the parser
  // would have tripped over it earlier (422).
  await scanUtf8Text(filePath);
  const { columns, rows } = await parseCsv(filePath);
  if (!columns) throw new UnreadableUploadError('The CSV file is empty.');
  return { kind: 'csv', columns, rows };
}

/**
 * The data rows of a CSV file as records keyed by the trimmed header names, streamed. Used to
 * chunk a source at build time; `inspectCsv` has already proved the file is readable text.
 */
export async function* readCsvRecords(filePath: string): AsyncGenerator<Record<string, string>> {
  const parser = createReadStream(filePath).pipe(
    parse({
      bom: true,
      columns: (header: string[]) => header.map((column) => column.trim()),
      skip_empty_lines: true,
      relax_column_count: true,
      max_record_size: MAX_RECORD_BYTES,
    }),
  );
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) yield record;
  } catch (error) {
    throw new UnreadableUploadError(`The CSV file could not be read: ${reasonOf(error)}`);
  } finally {
    parser.destroy();
  }
}

async function parseCsv(filePath: string): Promise<{ columns?: string[]; rows: number }> {
  let columns: string[] | undefined;
  let rows = 0;
  const parser = parse({ bom: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES });
  try {
    await pipeline(createReadStream(filePath), parser, async (records: AsyncIterable<string[]>) => {
      for await (const record of records) {
        if (columns) rows++;
        else columns = record.map((name) => name.trim());
      }
    });
  } catch (error) {
    // csv-parse reasons name the line, e.g. "Invalid Record Length: expect 3, got 2 on line 4".
    throw new UnreadableUploadError(`The CSV file could not be read: ${reasonOf(error)}`);
  }
  return { columns, rows };
}
