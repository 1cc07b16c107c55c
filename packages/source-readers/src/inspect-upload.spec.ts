import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  inspectUpload,
  sanitizeOriginalName,
  UnreadableUploadError,
  UnsupportedUploadError,
  type UploadInspectionLimits,
} from './inspect-upload';
import {
  MB,
  deflated,
  deflatedZeros,
  zip,
  sheetXml,
  workbookParts,
  oneSheetWorkbook,
  twoPagePdf,
  peopleWorkbook,
  type ZipEntry,
} from './testing/fixtures';

const limits: UploadInspectionLimits = { xlsxMaxUncompressedBytes: 200 * MB };

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'inspect-upload-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a fixture into the temp dir and returns its path. */
async function fixture(name: string, content: string | Uint8Array): Promise<string> {
  const filePath = path.join(dir, name);
  await writeFile(filePath, content);
  return filePath;
}

async function expectRejection(
  promise: Promise<unknown>,
  errorClass: typeof UnsupportedUploadError | typeof UnreadableUploadError,
  message: string | RegExp,
): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(errorClass);
  expect((error as Error).message).toMatch(message);
}

// --- Tests -------------------------------------------------------------------------------------

describe('inspectUpload: pdf', () => {
  it('counts pages and extracted characters of a valid PDF', async () => {
    const filePath = await fixture('valid.pdf', await twoPagePdf());
    await expect(inspectUpload(filePath, 'pdf', limits)).resolves.toEqual({
      kind: 'pdf',
      pages: 2,
      characters: 'Hello page one'.length + 'Second page text'.length,
    });
  });

  it('refuses HTML renamed to .pdf as unsupported', async () => {
    const filePath = await fixture('page.pdf', '<!doctype html><html><body>Hi</body></html>');
    await expectRejection(
      inspectUpload(filePath, 'pdf', limits),
      UnsupportedUploadError,
      'The file is not a PDF.',
    );
  });

  it('reports a PDF header followed by garbage as unreadable, with the parser reason', async () => {
    const garbage = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2000, 'x')]);
    const filePath = await fixture('corrupt.pdf', garbage);
    await expectRejection(
      inspectUpload(filePath, 'pdf', limits),
      UnreadableUploadError,
      /^The PDF could not be read: .*Invalid PDF structure/,
    );
  });

  it('reports a truncated PDF as unreadable', async () => {
    const filePath = await fixture('truncated.pdf', (await twoPagePdf()).subarray(0, 400));
    await expectRejection(
      inspectUpload(filePath, 'pdf', limits),
      UnreadableUploadError,
      'The PDF could not be read:',
    );
  });
});

describe('inspectUpload: csv', () => {
  it('reads the trimmed header and counts data rows of a CSV with a BOM', async () => {
    const csv = '\uFEFFname, age ,city\r\nAda,36,London\r\nBob,41,"Paris, FR"\r\nCé,29,Zürich\r\n';
    const filePath = await fixture('people.csv', csv);
    await expect(inspectUpload(filePath, 'csv', limits)).resolves.toEqual({
      kind: 'csv',
      columns: ['name', 'age', 'city'],
      rows: 3,
    });
  });

  it('reports a ragged CSV as unreadable, naming the line', async () => {
    const filePath = await fixture('ragged.csv', 'a,b,c\n1,2,3\n4,5\n');
    await expectRejection(
      inspectUpload(filePath, 'csv', limits),
      UnreadableUploadError,
      /^The CSV file could not be read: Invalid Record Length: expect 3, got 2 on line 3/,
    );
  });

  it('reports an unclosed quote as unreadable', async () => {
    const filePath = await fixture('unclosed.csv', 'a,b\n1,"2\n3,4\n');
    await expectRejection(
      inspectUpload(filePath, 'csv', limits),
      UnreadableUploadError,
      /Quote Not Closed/,
    );
  });

  it('reports an empty CSV (even with a BOM) as unreadable', async () => {
    for (const [name, content] of [
      ['empty.csv', ''],
      ['bom-only.csv', '\uFEFF'],
    ] as const) {
      await expectRejection(
        inspectUpload(await fixture(name, content), 'csv', limits),
        UnreadableUploadError,
        'The CSV file is empty.',
      );
    }
  });

  it('refuses a zip renamed to .csv as unsupported', async () => {
    const filePath = await fixture('archive.csv', zip([deflated('a.csv', 'a,b\n1,2\n')]));
    await expectRejection(
      inspectUpload(filePath, 'csv', limits),
      UnsupportedUploadError,
      /^The file is not UTF-8 text\./,
    );
  });

  it('refuses a CSV with NUL bytes as unsupported', async () => {
    const filePath = await fixture('nul.csv', 'a,b\n1,\u00002\n');
    await expectRejection(
      inspectUpload(filePath, 'csv', limits),
      UnsupportedUploadError,
      'It contains NUL bytes.',
    );
  });
});

describe('inspectUpload: text_file', () => {
  it('counts lines and code points of UTF-8 text with multibyte characters', async () => {
    const filePath = await fixture('notes.txt', 'héllo wörld\r\n日本語\n😀 emoji');
    await expect(inspectUpload(filePath, 'text_file', limits)).resolves.toEqual({
      kind: 'text_file',
      lines: 3,
      characters: 11 + 2 + 3 + 1 + 7,
    });
  });

  it('decodes characters split across read chunks and ignores a leading BOM', async () => {
    // 3- and 4-byte sequences straddle the 64 KiB chunk boundaries of the file stream.
    const text = '€'.repeat(50_000) + '\n' + '😀'.repeat(50_000) + '\n';
    const filePath = await fixture('long.txt', '\uFEFF' + text);
    await expect(inspectUpload(filePath, 'text_file', limits)).resolves.toEqual({
      kind: 'text_file',
      lines: 2,
      characters: 100_002,
    });
  });

  it('refuses Latin-1 bytes as unsupported', async () => {
    const filePath = await fixture('latin1.txt', Buffer.from('café crème\n', 'latin1'));
    await expectRejection(
      inspectUpload(filePath, 'text_file', limits),
      UnsupportedUploadError,
      'The file is not UTF-8 text. It contains bytes that are not valid UTF-8.',
    );
  });

  it('refuses a file cut inside a multibyte character as unsupported', async () => {
    const filePath = await fixture('cut.txt', Buffer.from('ok €').subarray(0, 5));
    await expectRejection(
      inspectUpload(filePath, 'text_file', limits),
      UnsupportedUploadError,
      'not valid UTF-8',
    );
  });

  it('refuses an all-ASCII PDF renamed to .txt as unsupported', async () => {
    const filePath = await fixture('doc.txt', '%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n');
    await expectRejection(
      inspectUpload(filePath, 'text_file', limits),
      UnsupportedUploadError,
      'The file is not UTF-8 text. It looks like a binary file.',
    );
  });

  it('reports an empty text file as unreadable', async () => {
    await expectRejection(
      inspectUpload(await fixture('empty.txt', ''), 'text_file', limits),
      UnreadableUploadError,
      'The text file is empty.',
    );
  });
});

describe('inspectUpload: excel', () => {
  it('summarizes a workbook written by ExcelJS', async () => {
    await expect(
      inspectUpload(await peopleWorkbook(dir, 'people.xlsx'), 'excel', limits),
    ).resolves.toEqual({
      kind: 'excel',
      sheet: 'People',
      sheets: ['People', 'Notes'],
      columns: ['Name', 'Age', 'City'],
      rows: 5,
    });
  });

  it('reads the first tab even when its worksheet is not the first part', async () => {
    const parts = workbookParts(
      [
        { name: 'Summary', file: 2 },
        { name: 'Raw', file: 1 },
      ],
      [
        deflated('xl/worksheets/sheet1.xml', sheetXml(9)),
        deflated('xl/worksheets/sheet2.xml', sheetXml(3)),
      ],
    );
    const filePath = await fixture('tabs.xlsx', zip(parts));
    await expect(inspectUpload(filePath, 'excel', limits)).resolves.toEqual({
      kind: 'excel',
      sheet: 'Summary',
      sheets: ['Summary', 'Raw'],
      columns: ['r1'],
      rows: 2,
    });
  });

  it('refuses a CSV renamed to .xlsx as unsupported', async () => {
    const filePath = await fixture('table.xlsx', 'a,b\n1,2\n');
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnsupportedUploadError,
      'The file is not an Excel workbook (.xlsx).',
    );
  });

  it('refuses a zip without workbook parts as unsupported', async () => {
    const filePath = await fixture('not-xlsx', zip([deflated('readme.txt', 'hello')]));
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnsupportedUploadError,
      'The file is not an Excel workbook (.xlsx).',
    );
  });

  it('reports a truncated workbook as unreadable', async () => {
    const whole = await readFile(await peopleWorkbook(dir, 'whole.xlsx'));
    const filePath = await fixture('truncated.xlsx', whole.subarray(0, whole.length / 2));
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnreadableUploadError,
      /^The workbook could not be read: End of central directory record signature not found/,
    );
  });

  it('reports a worksheet with malformed XML as unreadable', async () => {
    const broken = deflated('xl/worksheets/sheet1.xml', '<worksheet><sheetData></row></worksheet>');
    const filePath = await fixture('malformed.xlsx', zip(oneSheetWorkbook(broken)));
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnreadableUploadError,
      /^The workbook could not be read: .*unmatched closing tag: worksheet/,
    );
  });

  it('reports a part with corrupt compressed data as unreadable', async () => {
    const corrupt: ZipEntry = {
      name: 'xl/worksheets/sheet1.xml',
      data: Buffer.alloc(64, 0xff),
      uncompressedSize: 500,
    };
    const filePath = await fixture('corrupt.xlsx', zip(oneSheetWorkbook(corrupt)));
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnreadableUploadError,
      'The workbook could not be read: invalid block type',
    );
  });

  it('refuses a zip bomb declaring 300 MB from its central directory alone', async () => {
    const bomb: ZipEntry = {
      name: 'xl/worksheets/sheet1.xml',
      data: deflatedZeros(300),
      uncompressedSize: 300 * MB,
    };
    const filePath = await fixture('bomb.xlsx', zip(oneSheetWorkbook(bomb)));
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnsupportedUploadError,
      'The workbook expands to more than 200 MB when unpacked, beyond the limit for uploads.',
    );
  });

  it('refuses a part compressed more than 200 times even under the total limit', async () => {
    const bomb: ZipEntry = {
      name: 'xl/worksheets/sheet1.xml',
      data: deflatedZeros(20),
      uncompressedSize: 20 * MB,
    };
    const filePath = await fixture('dense.xlsx', zip(oneSheetWorkbook(bomb)));
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnsupportedUploadError,
      'The workbook part "xl/worksheets/sheet1.xml" is compressed more than 200 times',
    );
  });

  it('refuses a zip with more than 10,000 entries', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => ({
      name: `f${i}`,
      data: Buffer.alloc(0),
      uncompressedSize: 0,
      stored: true,
    }));
    const filePath = await fixture('many.xlsx', zip(entries));
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnsupportedUploadError,
      'The workbook has 10001 parts; at most 10000 are accepted.',
    );
  });

  it('stops a bomb whose headers understate its size as soon as it exceeds them', async () => {
    // Declares 1 KB (under the ratio exemption) but inflates to 50 MB of zeros.
    const liar: ZipEntry = {
      name: 'xl/worksheets/sheet1.xml',
      data: deflatedZeros(50),
      uncompressedSize: 1024,
    };
    const filePath = await fixture('liar.xlsx', zip(oneSheetWorkbook(liar)));
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnreadableUploadError,
      /^The workbook could not be read: too many bytes in the stream\. expected 1024/,
    );
  });

  it('parses only the parts the central directory lists', async () => {
    // A local entry missing from the central directory: a reader walking local headers (as
    // ExcelJS does) would count its 1,000 rows as the sheet's.
    const hidden = { ...deflated('xl/worksheets/sheet1.xml', sheetXml(1000)), hidden: true };
    const listed = deflated('xl/worksheets/sheet1.xml', sheetXml(6));
    const [contentTypes, ...rest] = oneSheetWorkbook(listed);
    const filePath = await fixture('smuggled.xlsx', zip([hidden, contentTypes!, ...rest]));
    await expect(inspectUpload(filePath, 'excel', limits)).resolves.toEqual({
      kind: 'excel',
      sheet: 'Data',
      sheets: ['Data'],
      columns: ['r1'],
      rows: 5,
    });
  });
});

describe('sanitizeOriginalName', () => {
  it('keeps only the last path segment', () => {
    expect(sanitizeOriginalName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeOriginalName('C:\\Users\\ada\\report.pdf')).toBe('report.pdf');
    expect(sanitizeOriginalName('a/b\\c.csv')).toBe('c.csv');
  });

  it('removes NUL, control and bidi characters and trims', () => {
    expect(sanitizeOriginalName('  rep\u0000ort\n\t.txt  ')).toBe('report.txt');
    expect(sanitizeOriginalName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
  });

  it('falls back to "upload" when nothing is left', () => {
    for (const name of ['', '   ', 'dir/', '\u0000\u001f', '..', '../..']) {
      expect(sanitizeOriginalName(name)).toBe('upload');
    }
  });

  it('shortens long names to 120 characters, keeping the extension', () => {
    const result = sanitizeOriginalName(`${'a'.repeat(300)}.xlsx`);
    expect(result).toBe(`${'a'.repeat(115)}.xlsx`);
  });

  it('never splits a surrogate pair when shortening', () => {
    const result = sanitizeOriginalName(`${'😀'.repeat(100)}.csv`);
    expect(result).toBe(`${'😀'.repeat(58)}.csv`);
  });

  it('treats a very long "extension" as part of the name', () => {
    expect(sanitizeOriginalName(`x.${'b'.repeat(200)}`)).toBe(`x.${'b'.repeat(118)}`);
  });
});
