import { inspectUpload, UnreadableUploadError, UnsupportedUploadError } from './inspect-upload';
import { expectRejection, fixture, limits, useFixtureDir } from './inspect-upload.spec-helper';
import { deflated, zip, twoPagePdf } from './testing/fixtures';

// Excel workbooks, zip bombs among them, are in inspect-upload-excel.spec.ts.

useFixtureDir();

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

  it('reports a CSV with a header and no data rows as unreadable, at upload', async () => {
    await expect(
      inspectUpload(await fixture('header-only.csv', 'region,amount\r\n'), 'csv', limits),
    ).rejects.toThrow('The CSV file has a header row but no data rows; upload a file with data.');
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
