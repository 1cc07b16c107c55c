import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readCsvRecordBatches, readCsvRecords } from './csv';
import { readExcelRecords } from './excel';
import { readPdfPages } from './pdf';
import { readTextFile } from './text';
import { UnreadableUploadError, UnsupportedUploadError } from './upload-errors';
import {
  MB,
  deflated,
  oneSheetWorkbook,
  peopleWorkbook,
  twoPagePdf,
  zip,
} from './testing/fixtures';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'source-readers-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const record of records) all.push(record);
  return all;
}

describe('readCsvRecords', () => {
  it('streams data rows keyed by the trimmed header, skipping blank lines and the BOM', async () => {
    const file = path.join(dir, 'sales.csv');
    await writeFile(file, '\uFEFF region , amount\nNorth,120\n\n"South, East","8\n0"\n');
    expect(await collect(readCsvRecords(file))).toEqual([
      { region: 'North', amount: '120' },
      { region: 'South, East', amount: '8\n0' },
    ]);
  });

  it('reports a broken file as unreadable', async () => {
    const file = path.join(dir, 'broken.csv');
    await writeFile(file, 'a,b\n"unclosed,1\n');
    await expect(collect(readCsvRecords(file))).rejects.toThrow(UnreadableUploadError);
  });

  it('keeps only the fields a row has, and drops fields beyond the header', async () => {
    const file = path.join(dir, 'ragged.csv');
    await writeFile(file, 'a,b,c\r\n1,2\r\n3,4,5,6\r\n');
    expect(await collect(readCsvRecords(file))).toEqual([
      { a: '1', b: '2' },
      { a: '3', b: '4', c: '5' },
    ]);
  });

  it('reads a file of many batches whole: characters and quoted fields split between reads', async () => {
    // Multi-byte characters and quoted line breaks at every offset, over about 2 MB, so some
    // fall on the boundary between two reads from disk.
    const rows = Array.from({ length: 30_000 }, (_, index) => [
      String(index),
      `Zürich “${'é'.repeat(index % 7)}” ✓ ${index}`,
      `"line one\nline, two ${'ß'.repeat(index % 5)}"`,
    ]);
    const file = path.join(dir, 'large.csv');
    await writeFile(file, `id,city,note\n${rows.map((row) => row.join(',')).join('\n')}\n`);
    const batches = await collect(readCsvRecordBatches(file));
    expect(batches.length).toBeGreaterThan(1);
    const records = batches.flat();
    expect(records).toHaveLength(rows.length);
    records.forEach((record, index) => {
      const [id, city, note] = rows[index]!;
      expect(record).toEqual({ id, city, note: note!.slice(1, -1) });
    });
  });
});

describe('readExcelRecords', () => {
  it('streams the first sheet by default, and a named sheet on request', async () => {
    const file = await peopleWorkbook(dir);
    const people = await collect(readExcelRecords(file, 200 * MB));
    expect(people).toHaveLength(5);
    expect(people[0]).toEqual({ Name: 'Ada', Age: '36', City: 'London' });
    expect(people[2]).toEqual({ Name: 'Cé', Age: '29', City: 'Zürich' });
    // "Notes" holds a header row only.
    expect(await collect(readExcelRecords(file, 200 * MB, 'Notes'))).toEqual([]);
    await expect(collect(readExcelRecords(file, 200 * MB, 'Missing'))).rejects.toThrow(
      'The workbook could not be read: it has no sheet named "Missing"',
    );
  });

  it('goes through the zip-bomb guard', async () => {
    const file = path.join(dir, 'not-a-workbook.xlsx');
    await writeFile(file, zip([deflated('hello.txt', 'hi')]));
    await expect(collect(readExcelRecords(file, 200 * MB))).rejects.toThrow(UnsupportedUploadError);
    const bomb = path.join(dir, 'bomb.xlsx');
    await writeFile(
      bomb,
      zip(oneSheetWorkbook(deflated('xl/worksheets/sheet1.xml', Buffer.alloc(2 * MB)))),
    );
    await expect(collect(readExcelRecords(bomb, 1 * MB))).rejects.toThrow(UnsupportedUploadError);
  });
});

describe('readPdfPages', () => {
  it('returns the text of every page in order', async () => {
    const file = path.join(dir, 'two-pages.pdf');
    await writeFile(file, await twoPagePdf());
    const pages = await readPdfPages(file);
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('Hello page one');
    expect(pages[1]).toContain('Second page text');
  });

  it('reports a corrupt PDF as unreadable', async () => {
    const file = path.join(dir, 'corrupt.pdf');
    await writeFile(file, '%PDF-1.7\nnot really a pdf');
    await expect(readPdfPages(file)).rejects.toThrow(UnreadableUploadError);
  });
});

describe('readTextFile', () => {
  it('drops the byte-order mark only', async () => {
    const file = path.join(dir, 'notes.txt');
    await writeFile(file, '\uFEFF  Policy\n');
    expect(await readTextFile(file)).toBe('  Policy\n');
  });
});
