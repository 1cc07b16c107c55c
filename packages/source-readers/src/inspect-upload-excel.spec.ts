import { readFile } from 'node:fs/promises';
import { inspectUpload, UnreadableUploadError, UnsupportedUploadError } from './inspect-upload';
import { openGuardedWorkbook } from './xlsx-guard';
import { dir, expectRejection, fixture, limits, useFixtureDir } from './inspect-upload.spec-helper';
import {
  MB,
  deflated,
  deflatedZeros,
  zip,
  sheetXml,
  workbookParts,
  oneSheetWorkbook,
  peopleWorkbook,
  type ZipEntry,
} from './testing/fixtures';

useFixtureDir();

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

  it('reads a workbook without shared strings the same every time, its other tabs skipped', async () => {
    // ExcelJS copies the sheets of such a workbook to temporary files unless the guard gives it an
    // empty shared-strings part: that path returned the first tab empty now and then, and ended
    // the process with an unhandled ENOENT when it deleted a skipped sheet's file too early.
    const parts = workbookParts(
      [
        { name: 'Summary', file: 2 },
        { name: 'Raw', file: 1 },
        { name: 'Notes', file: 3 },
      ],
      [
        deflated('xl/worksheets/sheet1.xml', sheetXml(9)),
        deflated('xl/worksheets/sheet2.xml', sheetXml(3)),
        deflated('xl/worksheets/sheet3.xml', sheetXml(5)),
      ],
    );
    const filePath = await fixture('no-shared-strings.xlsx', zip(parts));
    const stream = await openGuardedWorkbook(filePath, limits.xlsxMaxUncompressedBytes);
    const names = (await stream.toArray())
      .map((chunk: Buffer) => chunk.toString('latin1'))
      .join('')
      .match(/xl\/[\w/]+\.xml/g);
    expect(names?.indexOf('xl/sharedStrings.xml')).toBeLessThan(
      names!.indexOf('xl/worksheets/sheet1.xml'),
    );
    const rows = new Set<number>();
    for (let i = 0; i < 200; i += 1) {
      const summary = await inspectUpload(filePath, 'excel', limits);
      rows.add(summary.kind === 'excel' ? summary.rows : -1);
    }
    expect([...rows]).toEqual([2]);
  }, 120_000); // a worker thread a read

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

  it('refuses a workbook without the part that maps its sheets to tabs, and says what to do', async () => {
    const parts = oneSheetWorkbook(deflated('xl/worksheets/sheet1.xml', sheetXml(3)));
    const filePath = await fixture(
      'no-relationships.xlsx',
      zip(parts.filter((part) => part.name !== 'xl/_rels/workbook.xml.rels')),
    );
    await expectRejection(
      inspectUpload(filePath, 'excel', limits),
      UnsupportedUploadError,
      'The workbook is damaged: it does not say which sheet is which tab. Open it in Excel or LibreOffice, save it as .xlsx again, and upload that file.',
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
