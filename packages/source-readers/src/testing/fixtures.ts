// Upload fixtures the tests write themselves (no binary files in the repository): PDFs,
// workbooks, and zips written by hand so their headers can lie like a real zip bomb's.
import ExcelJS from 'exceljs';
export * from './document-fixtures';
import path from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';

export const MB = 1024 * 1024;

// --- Zip fixtures, written by hand so headers can lie -----------------------------------------

export interface ZipEntry {
  name: string;
  /** The bytes as stored in the archive (deflated unless `stored`). */
  data: Buffer;
  /** What the headers declare; the truth for honest entries. */
  uncompressedSize: number;
  stored?: boolean;
  /** Written as a local entry only, missing from the central directory. */
  hidden?: boolean;
}

export function deflated(name: string, content: string | Buffer): ZipEntry {
  const raw = Buffer.from(content);
  return { name, data: deflateRawSync(raw), uncompressedSize: raw.length };
}

/**
 * `megabytes` MB of zeros as one deflate stream, built in milliseconds without allocating them:
 * a fully flushed block of 1 MB of zeros does not depend on what came before it, so it can be
 * repeated, and the final empty block ends the stream.
 */
export function deflatedZeros(megabytes: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(MB), { finishFlush: constants.Z_FULL_FLUSH });
  const finalBlock = deflateRawSync(Buffer.alloc(0));
  return Buffer.concat([...Array<Buffer>(megabytes).fill(block), finalBlock]);
}

/** CRCs are left at zero: neither yauzl nor unzipper checks them. */
export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const method = entry.stored ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.uncompressedSize, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, entry.data);
    if (!entry.hidden) {
      const central = Buffer.alloc(46);
      central.writeUInt32LE(0x02014b50, 0);
      central.writeUInt16LE(20, 4);
      central.writeUInt16LE(20, 6);
      central.writeUInt16LE(method, 10);
      central.writeUInt32LE(entry.data.length, 20);
      central.writeUInt32LE(entry.uncompressedSize, 24);
      central.writeUInt16LE(name.length, 28);
      central.writeUInt32LE(offset, 42);
      centrals.push(central, name);
    }
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export function sheetXml(rows: number): string {
  const rowXml = Array.from(
    { length: rows },
    (_, i) =>
      `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>r${i + 1}</t></is></c></row>`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rowXml}</sheetData></worksheet>`;
}

/** The minimal parts of a workbook whose tabs, in order, point at xl/worksheets/sheet<file>.xml. */
export function workbookParts(
  tabs: { name: string; file: number }[],
  worksheets: ZipEntry[],
): ZipEntry[] {
  const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
  const rels = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const sheets = tabs
    .map((tab, i) => `<sheet name="${tab.name}" sheetId="${i + 1}" r:id="rId${tab.file}"/>`)
    .join('');
  const relationships = tabs
    .map(
      (tab) =>
        `<Relationship Id="rId${tab.file}" Type="${rels}/worksheet" Target="worksheets/sheet${tab.file}.xml"/>`,
    )
    .join('');
  return [
    deflated('[Content_Types].xml', '<?xml version="1.0"?><Types/>'),
    deflated(
      'xl/workbook.xml',
      `<?xml version="1.0"?><workbook xmlns="${main}" xmlns:r="${rels}"><sheets>${sheets}</sheets></workbook>`,
    ),
    deflated(
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`,
    ),
    ...worksheets,
  ];
}

/** A workbook with one tab, "Data", whose worksheet the test supplies. */
export function oneSheetWorkbook(worksheet: ZipEntry): ZipEntry[] {
  return workbookParts([{ name: 'Data', file: 1 }], [worksheet]);
}

// --- A workbook heavy to parse -----------------------------------------------------------------

/**
 * A workbook whose shared strings part holds about `megabytes` MB of distinct strings (within the
 * zip-bomb guard: they compress about 6 times), and one tab, "Data", whose 3 rows use the first
 * of them: reading it means holding every string. The shape of the probe's 26 MB workbook with
 * 171 MB of shared strings.
 */
export function sharedStringsWorkbook(megabytes: number): ZipEntry[] {
  const strings: string[] = [];
  let size = 0;
  for (let i = 0; size < megabytes * MB; i += 1) {
    const text = `<si><t>${i.toString(36)} ${(i * 2654435761).toString(36)} ${((i * 40503) % 65521).toString(16)} station ${i % 977}</t></si>`;
    strings.push(text);
    size += text.length;
  }
  const sst = Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.join('')}</sst>`,
  );
  const cell = (ref: string, index: number) => `<c r="${ref}" t="s"><v>${index}</v></c>`;
  const rows = [0, 1, 2]
    .map(
      (row) =>
        `<row r="${row + 1}">${cell(`A${row + 1}`, 2 * row)}${cell(`B${row + 1}`, 2 * row + 1)}</row>`,
    )
    .join('');
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`;
  const parts = oneSheetWorkbook(deflated('xl/worksheets/sheet1.xml', sheet));
  return [
    ...parts,
    {
      name: 'xl/sharedStrings.xml',
      data: deflateRawSync(sst, { level: 1 }),
      uncompressedSize: sst.length,
    },
  ];
}

// --- A PDF decompression bomb -------------------------------------------------------------------

/**
 * A PDF of `pages` pages whose content streams (/FlateDecode) each hold a line of text and then
 * inflate to `megabytes` MB of spaces: about 1 KB of file per MB, made without allocating the
 * spaces (a fully flushed deflate block does not depend on what came before it, so it can be
 * repeated). The zlib checksum is left at zero: pdf.js does not check it.
 */
export function inflatingPdf(megabytes: number, pages = 1): Buffer {
  const flush = { finishFlush: constants.Z_FULL_FLUSH };
  const text = deflateRawSync(Buffer.from('BT /F1 12 Tf 20 100 Td (Hello bomb) Tj ET\n'), flush);
  const spaces = deflateRawSync(Buffer.alloc(MB, 0x20), flush);
  const stream = Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    text,
    ...Array<Buffer>(megabytes).fill(spaces),
    deflateRawSync(Buffer.alloc(0)),
    Buffer.alloc(4),
  ]);
  // 1 catalog, 2 pages, 3 font, then a page and its content stream per page.
  const page = (index: number) => 4 + 2 * index;
  const objects: (string | Buffer)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${page(i)} 0 R`).join(' ')}] /Count ${pages} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  for (let i = 0; i < pages; i += 1) {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents ${page(i) + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      stream,
    );
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, index) => {
    offsets.push(length);
    const part =
      typeof body === 'string'
        ? Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`)
        : Buffer.concat([
            Buffer.from(
              `${index + 1} 0 obj\n<< /Length ${body.length} /Filter /FlateDecode >>\nstream\n`,
            ),
            body,
            Buffer.from('\nendstream\nendobj\n'),
          ]);
    parts.push(part);
    length += part.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(length),
    '%%EOF',
    '',
  ].join('\n');
  return Buffer.concat([...parts, Buffer.from(xref)]);
}

// --- Other fixtures ----------------------------------------------------------------------------

export async function twoPagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['Hello page one', 'Second page text']) {
    doc.addPage([300, 200]).drawText(text, { x: 20, y: 100, size: 12, font });
  }
  return doc.save();
}

/** "People" (header + 5 rows) then "Notes", as ExcelJS writes them. */
export async function peopleWorkbook(
  dir: string,
  fileName = `people-${Date.now()}.xlsx`,
): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const people = workbook.addWorksheet('People');
  people.addRow([' Name ', 'Age', 'City']);
  for (const [name, age, city] of [
    ['Ada', 36, 'London'],
    ['Bob', 41, 'Paris'],
    ['Cé', 29, 'Zürich'],
    ['Dan', 52, 'Oslo'],
    ['Eve', 23, 'Rome'],
  ]) {
    people.addRow([name, age, city]);
  }
  workbook.addWorksheet('Notes').addRow(['Only a note']);
  const filePath = path.join(dir, fileName);
  await workbook.xlsx.writeFile(filePath);
  return filePath;
}
export { workbookWritersPython, writeWithPython } from './python-workbooks';
