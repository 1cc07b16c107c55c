import type ExcelJS from 'exceljs';
import type { Readable } from 'node:stream';
import type { TUploadSummary } from '@agentloom/contracts';
import { UnreadableUploadError, reasonOf } from './upload-errors';
import { openGuardedWorkbook } from './xlsx-guard';

export type ExcelSummary = Extract<TUploadSummary, { kind: 'excel' }>;
type SheetReader = ExcelJS.stream.xlsx.WorksheetReader;

/*
 * The workbook readers themselves, on ExcelJS. They run in a worker thread (excel-worker.ts, started
 * by excel.ts), never on a server's event loop: parsing is CPU-bound and the shared strings are
 * held in memory, which the worker's heap limit bounds.
 */

/** Sheet names and the first sheet's header and data-row count, read as a stream. */
export async function inspectExcelHere(
  filePath: string,
  maxUncompressedBytes: number,
): Promise<ExcelSummary> {
  const source = await openGuardedWorkbook(filePath, maxUncompressedBytes);
  // The guard verified every part, so the source should not fail; if the disk does, ExcelJS would
  // not notice (it pipes without forwarding errors), hence the race.
  const sourceFailed = new Promise<never>((_, reject) => source.once('error', reject));
  try {
    return await Promise.race([readWorkbook(source), sourceFailed]);
  } catch (error) {
    throw new UnreadableUploadError(`The workbook could not be read: ${reasonOf(error)}`);
  } finally {
    source.destroy();
  }
}

/**
 * The data rows of one sheet (the first, unless named) as records keyed by the header row's
 * trimmed texts, streamed through the same zip-bomb guard as `inspectExcelHere`. Empty header cells
 * are named like pandas names them (`Unnamed: 3`), so the agent's own loader labels them alike.
 */
export async function* readExcelRecordsHere(
  filePath: string,
  maxUncompressedBytes: number,
  sheet?: string,
): AsyncGenerator<Record<string, string>> {
  const source = await openGuardedWorkbook(filePath, maxUncompressedBytes);
  const sourceFailed = new Promise<never>((_, reject) => source.once('error', reject));
  sourceFailed.catch(() => undefined); // observed through the race below
  const reader = new (excelJs().stream.xlsx.WorkbookReader)(source, READER_OPTIONS);
  const worksheets = reader[Symbol.asyncIterator]();
  const next = <T>(iterator: AsyncIterator<T>) => Promise.race([iterator.next(), sourceFailed]);
  try {
    for (let sheetResult = await next(worksheets); !sheetResult.done;) {
      const worksheet = sheetResult.value;
      const wanted = sheet ?? sheetNames(reader)[0];
      if (sheetName(worksheet) === wanted) {
        let columns: string[] | undefined;
        const rows = worksheet[Symbol.asyncIterator]();
        for (let row = await next(rows); !row.done; row = await next(rows)) {
          const cells = cellTexts(row.value);
          if (!columns) {
            columns = cells.map((text, index) => text || `Unnamed: ${index}`);
            continue;
          }
          const record: Record<string, string> = {};
          columns.forEach((column, index) => (record[column] = cells[index] ?? ''));
          yield record;
        }
        return; // the rest of the workbook is not needed
      }
      sheetResult = await next(worksheets);
    }
    throw new Error(`it has no sheet named "${sheet ?? sheetNames(reader)[0] ?? ''}"`);
  } catch (error) {
    throw new UnreadableUploadError(`The workbook could not be read: ${reasonOf(error)}`);
  } finally {
    source.destroy();
  }
}

/**
 * ExcelJS, loaded on first use: it adds about 24 MB to a process, and most builds and previews
 * never read a workbook. `require`, not `import()`: jest's CommonJS loader, which runs the apps'
 * tests, cannot follow a dynamic import.
 */
function excelJs(): typeof ExcelJS {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('exceljs') as typeof ExcelJS;
}

const READER_OPTIONS = {
  sharedStrings: 'cache', // cells refer to shared strings by index; the guard bounds their size
  worksheets: 'emit',
  hyperlinks: 'ignore',
  styles: 'ignore',
  entries: 'ignore',
} as const;

async function readWorkbook(source: Readable): Promise<ExcelSummary> {
  const reader = new (excelJs().stream.xlsx.WorkbookReader)(source, READER_OPTIONS);
  let table: Table | undefined;
  for await (const worksheet of reader) {
    // workbook.xml precedes the worksheets in the guarded stream, so the tab order is known here.
    // Other sheets are skipped unread; ExcelJS drains them.
    if (!table && sheetName(worksheet) === sheetNames(reader)[0]) {
      table = await readTable(worksheet);
    }
  }
  const sheets = sheetNames(reader);
  const [sheet] = sheets;
  if (sheet === undefined) throw new Error('the workbook lists no sheets');
  return { kind: 'excel', sheet, sheets, ...(table ?? { columns: [], rows: 0 }) };
}

interface Table {
  columns: string[];
  rows: number;
}

/** The first row as trimmed column names, and how many rows follow it. */
async function readTable(worksheet: SheetReader): Promise<Table> {
  let columns: string[] | undefined;
  let rows = 0;
  for await (const row of worksheet) {
    if (columns) rows++;
    else columns = cellTexts(row);
  }
  return { columns: columns ?? [], rows };
}

function cellTexts(row: ExcelJS.Row): string[] {
  const texts: string[] = [];
  row.eachCell({ includeEmpty: true }, (cell) => texts.push(cell.text.trim()));
  return texts;
}

/**
 * Sheet names in tab order. The streaming reader only has a model once it has read workbook.xml,
 * and a workbook.xml without <sheets> leaves the list out, whatever ExcelJS' types say.
 */
function sheetNames(reader: ExcelJS.stream.xlsx.WorkbookReader): string[] {
  const model = reader.model as Partial<ExcelJS.WorkbookModel> | undefined;
  return (model?.sheets ?? []).map((sheet) => sheet.name);
}

/** ExcelJS sets the tab name on each worksheet reader but does not declare it in its types. */
function sheetName(worksheet: SheetReader): string | undefined {
  return 'name' in worksheet && typeof worksheet.name === 'string' ? worksheet.name : undefined;
}
