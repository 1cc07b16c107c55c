import { parse } from 'csv-parse';
import Papa from 'papaparse';
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
  // Refused here, not at build: an agent over a header alone has nothing to answer from.
  if (rows === 0) {
    throw new UnreadableUploadError(
      'The CSV file has a header row but no data rows; upload a file with data.',
    );
  }
  return { kind: 'csv', columns, rows };
}

/**
 * The data rows of a CSV file as records keyed by the trimmed header names, streamed. Used to
 * chunk a source at build time and to load it into the preview's SQL engine; `inspectCsv` has
 * already proved the file is readable text with no record over the size cap.
 */
export async function* readCsvRecords(filePath: string): AsyncGenerator<Record<string, string>> {
  for await (const batch of readCsvRecordBatches(filePath)) yield* batch;
}

/**
 * `readCsvRecords` a batch at a time (the rows of one read from disk), for callers that handle
 * hundreds of thousands of rows and should not pay for an await per row.
 *
 * Papa Parse reads here rather than csv-parse: for a file already checked by `inspectCsv` it
 * yields the same records about four times faster, which is most of a RAG build's time
 * (npm run bench:builds). csv-parse stays the upload check for its line-numbered reasons.
 */
export async function* readCsvRecordBatches(
  filePath: string,
): AsyncGenerator<Record<string, string>[]> {
  // Decoded by the stream, so a character split between two reads stays whole. Small batches
  // keep what is alive at each young-generation collection small: with 64 KB reads, enough of
  // each batch was promoted that a 50 MB file's build peaked at 184-257 MB across runs; with
  // 16 KB reads, 188-207 MB, at the same builds/s (npm run bench:builds).
  const input = createReadStream(filePath, { encoding: 'utf8', highWaterMark: 16 * 1024 });
  const ready: string[][][] = [];
  let columns: string[] | undefined;
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  Papa.parse<string[]>(input, {
    delimiter: ',',
    quoteChar: '"',
    escapeChar: '"',
    skipEmptyLines: true,
    chunk(results, parser) {
      const [error] = results.errors;
      if (error) {
        failure = new Error(error.message);
        parser.abort();
      } else {
        ready.push(results.data);
        // Back-pressure: stop reading while a batch waits for the consumer.
        input.pause();
      }
      notify();
    },
    complete() {
      ended = true;
      notify();
    },
    error(error) {
      failure = error;
      notify();
    },
  });
  try {
    for (;;) {
      const rows = ready.shift();
      if (rows) {
        if (ready.length === 0) input.resume();
        if (rows.length === 0) continue;
        const batch = recordsOf(rows, columns);
        columns = batch.columns;
        if (batch.records.length > 0) yield batch.records;
        continue;
      }
      if (failure) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } catch (error) {
    throw new UnreadableUploadError(`The CSV file could not be read: ${reasonOf(error)}`);
  } finally {
    input.destroy();
  }
}

/** Rows as records; the first row of the file (when `columns` is not yet known) is the header. */
function recordsOf(
  rows: string[][],
  known: string[] | undefined,
): { columns: string[]; records: Record<string, string>[] } {
  let from = 0;
  let columns = known;
  if (!columns) {
    const header = rows[0] ?? [];
    columns = header.map((name, index) => (index === 0 ? stripBom(name) : name).trim());
    from = 1;
  }
  const records: Record<string, string>[] = [];
  for (let index = from; index < rows.length; index += 1) {
    const row = rows[index]!;
    const record: Record<string, string> = {};
    // A short row has only the fields it holds; extra fields have no column and are dropped.
    const width = Math.min(row.length, columns.length);
    for (let field = 0; field < width; field += 1) record[columns[field]!] = row[field]!;
    records.push(record);
  }
  return { columns, records };
}

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

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
