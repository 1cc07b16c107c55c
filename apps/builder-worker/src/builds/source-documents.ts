import type { TRagSourceType } from '@agentloom/contracts';
import {
  readCsvRecords,
  readExcelRecords,
  readPdfPages,
  readTextFile,
} from '@agentloom/source-readers';
import type { SourceDocument } from '../generator';

/**
 * The documents of an uploaded source, as the generated agent's own loaders (agent/loaders.py)
 * make them: a PDF page each, a CSV/Excel row each ("column: value" lines, empty values skipped,
 * rows numbered from 1 after the header), or the whole text file. Streamed where the format
 * allows (CSV, Excel), so the file's size does not decide the memory a build needs.
 */
export async function* sourceDocuments(
  kind: Extract<TRagSourceType, 'pdf' | 'csv' | 'excel' | 'text_file'>,
  filePath: string,
  source: string,
  options: SourceReadOptions,
): AsyncGenerator<SourceDocument> {
  switch (kind) {
    case 'csv':
    case 'excel':
      yield* rowDocuments(tableRecords(kind, filePath, options), source);
      return;
    case 'pdf': {
      const pages = await readPdfPages(filePath);
      for (const [index, text] of pages.entries()) {
        if (text.trim()) yield { text, source, page: index + 1 };
      }
      return;
    }
    case 'text_file': {
      const text = await readTextFile(filePath);
      if (text.trim()) yield { text, source };
      return;
    }
  }
}

export interface SourceReadOptions {
  /** The zip-bomb guard's limit for Excel workbooks. */
  maxUncompressedBytes: number;
  /** Excel: the sheet the wizard recorded (default: the first). */
  sheet?: string;
}

/** The rows of a table-shaped upload (CSV, or the chosen Excel sheet), streamed as records. */
export function tableRecords(
  kind: 'csv' | 'excel',
  filePath: string,
  options: SourceReadOptions,
): AsyncGenerator<Record<string, string>> {
  return kind === 'csv'
    ? readCsvRecords(filePath)
    : readExcelRecords(filePath, options.maxUncompressedBytes, options.sheet);
}

async function* rowDocuments(
  records: AsyncIterable<Record<string, string>>,
  source: string,
): AsyncGenerator<SourceDocument> {
  let row = 0;
  for await (const record of records) {
    row += 1;
    const text = recordText(record);
    if (text) yield { text, source, row };
  }
}

/** loaders.py's record_text: "column: value" lines, skipping empty values. */
function recordText(record: Record<string, string>): string {
  return Object.entries(record)
    .filter(([, value]) => value.trim() !== '')
    .map(([column, value]) => `${column}: ${value}`)
    .join('\n');
}
