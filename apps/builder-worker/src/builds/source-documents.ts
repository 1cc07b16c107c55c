import type { TKnowledgeFileType } from '@agentloom/contracts';
import {
  DEFAULT_DOCUMENT_LIMITS,
  readCsvRecordBatches,
  readDocumentFile,
  readExcelRecords,
  readPdfPages,
  readTextFile,
} from '@agentloom/source-readers';
import type { SourceDocument } from '../generator';

/**
 * The documents of an uploaded source, as the generated agent's own loaders (agent/loaders.py)
 * make them: a PDF page each, a CSV/Excel row each ("column: value" lines, empty values skipped,
 * rows numbered from 1 after the header), the whole text file, or a Word, Markdown or HTML file's
 * sections (each cited by its heading). In batches, streamed where the format allows (CSV,
 * Excel), so the file's size does not decide the memory a build needs.
 */
export async function* sourceDocumentBatches(
  kind: TKnowledgeFileType,
  filePath: string,
  source: string,
  options: SourceReadOptions,
): AsyncGenerator<(SourceDocument & { section?: string })[]> {
  switch (kind) {
    case 'docx':
    case 'markdown':
    case 'html': {
      const sections = await readDocumentFile(filePath, kind, DEFAULT_DOCUMENT_LIMITS);
      yield sections.map((section) => ({
        text: section.text,
        source,
        ...(section.section && { section: section.section }),
      }));
      return;
    }
    case 'csv':
    case 'excel':
      yield* rowDocumentBatches(tableRecordBatches(kind, filePath, options), source);
      return;
    case 'pdf': {
      const pages = await readPdfPages(filePath);
      yield pages.flatMap((text, index) =>
        text.trim() ? [{ text, source, page: index + 1 }] : [],
      );
      return;
    }
    case 'text_file': {
      const text = await readTextFile(filePath);
      if (text.trim()) yield [{ text, source }];
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

/** The rows of a table-shaped upload (CSV, or the chosen Excel sheet), streamed in batches. */
export function tableRecordBatches(
  kind: 'csv' | 'excel',
  filePath: string,
  options: SourceReadOptions,
): AsyncGenerator<Record<string, string>[]> {
  return kind === 'csv'
    ? readCsvRecordBatches(filePath)
    : batched(readExcelRecords(filePath, options.maxUncompressedBytes, options.sheet));
}

const EXCEL_BATCH_ROWS = 1000;

async function* batched<T>(items: AsyncIterable<T>): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === EXCEL_BATCH_ROWS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

async function* rowDocumentBatches(
  batches: AsyncIterable<Record<string, string>[]>,
  source: string,
): AsyncGenerator<SourceDocument[]> {
  let row = 0;
  for await (const records of batches) {
    const documents: SourceDocument[] = [];
    for (const record of records) {
      row += 1;
      const text = recordText(record);
      if (text) documents.push({ text, source, row });
    }
    yield documents;
  }
}

/** loaders.py's record_text: "column: value" lines, skipping empty values. */
function recordText(record: Record<string, string>): string {
  let text = '';
  for (const column in record) {
    const value = record[column]!;
    if (value.trim() === '') continue;
    text += text ? `\n${column}: ${value}` : `${column}: ${value}`;
  }
  return text;
}
