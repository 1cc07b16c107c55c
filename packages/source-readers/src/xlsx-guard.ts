import { posix } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { readableSize } from '@agentloom/contracts';
import { ZIP_MAGIC, startsWith } from './file-signature';
import { UnreadableUploadError, UnsupportedUploadError, reasonOf } from './upload-errors';

/*
 * Zip-bomb guard for .xlsx uploads.
 *
 * Step 1 reads only the central directory and refuses the file on what it declares: too many
 * entries, too large a declared total, too high a compression ratio, or no workbook parts.
 *
 * Step 2 exists because those headers can lie, and because ExcelJS' streaming reader (through
 * unzipper) does not read the central directory at all: it walks the local headers from the start
 * of the file and, for entries with a data descriptor, inflates until it finds a signature. Entries
 * the central directory never listed, or sizes that differ from it, would reach the parser
 * unchecked. So ExcelJS never sees the uploaded file. Each part it needs is inflated through yauzl,
 * which fails as soon as an entry yields more bytes than the central directory declared
 * (validateEntrySizes): first into a discarding sink, to prove every part honest, then again into
 * a freshly written zip stream of stored (uncompressed) entries that is handed to ExcelJS. ExcelJS
 * therefore reads exactly the bytes step 1 counted, and inflates nothing itself.
 *
 * The proving pass costs a second inflate (bounded by the declared total) but keeps failures out
 * of the stream ExcelJS reads: ExcelJS pipes its input without forwarding errors, so a stream that
 * failed half-way would leave it waiting forever.
 */

const MAX_ENTRIES = 10_000;
const MAX_RATIO = 200;
/** Small parts compress far better than 200:1 when they are repetitive XML, and cannot hurt. */
const RATIO_EXEMPT_BYTES = 1024 * 1024;
/** Local headers carry 32-bit sizes, and the stored zip written here has no zip64 records. */
const MAX_STORED_BYTES = 0xffffffff;

const NOT_XLSX = 'The file is not an Excel workbook (.xlsx).';
const REQUIRED_ENTRIES = ['[Content_Types].xml', 'xl/workbook.xml'];
const WORKBOOK_RELATIONSHIPS = 'xl/_rels/workbook.xml.rels';
const NO_RELATIONSHIPS =
  'The workbook is damaged: it does not say which sheet is which tab. Open it in Excel or LibreOffice, save it as .xlsx again, and upload that file.';

const WORKBOOK = 'xl/workbook.xml';
/** The relationships part is read whole to follow its targets: it lists a few parts a sheet. */
const MAX_RELATIONSHIPS_BYTES = 1024 * 1024;
const RELATIONSHIP_TYPES = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/**
 * Checks that the file is a zip that is safe to expand and returns the workbook parts as a stored
 * zip stream for ExcelJS. The caller must consume or destroy the stream: it holds the file open.
 */
export async function openGuardedWorkbook(
  filePath: string,
  maxUncompressedBytes: number,
): Promise<Readable> {
  if (maxUncompressedBytes > MAX_STORED_BYTES) {
    throw new RangeError('xlsxMaxUncompressedBytes must stay below 4 GiB.');
  }
  if (!(await startsWith(filePath, ZIP_MAGIC))) throw new UnsupportedUploadError(NOT_XLSX);
  const zip = await openZip(filePath);
  try {
    const entries = await readCentralDirectory(zip, maxUncompressedBytes);
    const parts = await partsForExcelJs(zip, entries);
    await verifyDeclaredSizes(
      zip,
      parts.flatMap((part) => ('entry' in part ? [part.entry] : [])),
    );
    const stream = Readable.from(storedZip(zip, parts), { objectMode: false });
    // On 'close' rather than in the generator: a stream destroyed before its first read never runs
    // the generator's cleanup.
    stream.once('close', () => zip.close());
    return stream;
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function openZip(filePath: string): Promise<ZipFile> {
  try {
    // autoClose off: the file is read again after the directory, so yauzl must not close it early.
    return await yauzl.openPromise(filePath, { autoClose: false });
  } catch (error) {
    throw unreadable(error);
  }
}

async function readCentralDirectory(zip: ZipFile, maxTotalBytes: number): Promise<Entry[]> {
  // entryCount comes from the end-of-directory record, so a huge directory is refused unread.
  if (zip.entryCount > MAX_ENTRIES) {
    throw new UnsupportedUploadError(
      `The workbook has ${zip.entryCount} parts; at most ${MAX_ENTRIES} are accepted.`,
    );
  }
  const entries: Entry[] = [];
  let totalBytes = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      totalBytes += entry.uncompressedSize;
      assertExpansionAllowed(entry, totalBytes, maxTotalBytes);
      entries.push(entry);
    }
  } catch (error) {
    throw error instanceof UnsupportedUploadError ? error : unreadable(error);
  }
  const names = new Set(entries.map((entry) => entry.fileName));
  if (!REQUIRED_ENTRIES.every((name) => names.has(name))) {
    throw new UnsupportedUploadError(NOT_XLSX);
  }
  // Without it no sheet can be matched to its tab, and ExcelJS takes its temporary-file path
  // (see EMPTY_SHARED_STRINGS); Excel itself refuses such a file.
  if (!names.has(WORKBOOK_RELATIONSHIPS)) throw new UnsupportedUploadError(NO_RELATIONSHIPS);
  return entries;
}

function assertExpansionAllowed(entry: Entry, totalBytes: number, maxTotalBytes: number): void {
  if (totalBytes > maxTotalBytes) {
    throw new UnsupportedUploadError(
      `The workbook expands to more than ${readableSize(maxTotalBytes)} when unpacked, beyond the limit for uploads.`,
    );
  }
  const ratio = entry.uncompressedSize / entry.compressedSize; // Infinity when nothing is stored
  if (entry.uncompressedSize >= RATIO_EXEMPT_BYTES && ratio > MAX_RATIO) {
    throw new UnsupportedUploadError(
      `The workbook part "${entry.fileName}" is compressed more than ${MAX_RATIO} times, beyond the limit for uploads.`,
    );
  }
}

/** A part of the stored zip ExcelJS reads: an entry of the upload under a name, or bytes. */
type Part = { name: string; entry: Entry } | { name: string; content: Buffer };

/**
 * The parts ExcelJS reads, in the order that lets it stream sheets directly: the workbook's
 * relationships, the workbook, the shared strings, then each worksheet.
 *
 * ExcelJS finds a sheet's tab only when its relationship's target is `worksheets/sheet<N>.xml`
 * and the part is named `xl/worksheets/sheet<N>.xml`, and finds the shared strings only as
 * `xl/sharedStrings.xml`. The Open Packaging Conventions let a writer choose: openpyxl (and pandas
 * through it) writes absolute targets (`/xl/worksheets/sheet1.xml`), others name parts their own
 * way. So the targets are resolved here and the parts given the names ExcelJS expects, with a
 * relationships part that says the same.
 */
async function partsForExcelJs(zip: ZipFile, entries: Entry[]): Promise<Part[]> {
  const byName = new Map(entries.map((entry) => [entry.fileName, entry]));
  const relationships = parseRelationships(
    await readSmallPart(zip, byName.get(WORKBOOK_RELATIONSHIPS)),
  );
  const worksheets: Part[] = [];
  const kept: string[] = [];
  let sharedStrings: Entry | undefined;
  for (const relationship of relationships) {
    const entry = byName.get(resolveTarget(relationship.target) ?? '');
    if (!entry) continue;
    if (relationship.type === `${RELATIONSHIP_TYPES}/worksheet`) {
      const number = worksheets.length + 1;
      worksheets.push({ name: `xl/worksheets/sheet${number}.xml`, entry });
      kept.push(
        relationshipXml(relationship.id, relationship.type, `worksheets/sheet${number}.xml`),
      );
    } else if (relationship.type === `${RELATIONSHIP_TYPES}/sharedStrings`) {
      sharedStrings = entry;
    }
  }
  sharedStrings ??= byName.get(SHARED_STRINGS);
  const rels = Buffer.from(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${kept.join('')}</Relationships>`,
  );
  return [
    { name: WORKBOOK_RELATIONSHIPS, content: rels },
    { name: WORKBOOK, entry: byName.get(WORKBOOK)! }, // required by readCentralDirectory
    ...(sharedStrings ? [{ name: SHARED_STRINGS, entry: sharedStrings }] : []),
    ...worksheets,
  ];
}

/** A small part inflated whole (through yauzl's size check), or refused as damaged. */
async function readSmallPart(zip: ZipFile, entry: Entry | undefined): Promise<string> {
  if (!entry || entry.uncompressedSize > MAX_RELATIONSHIPS_BYTES) {
    throw new UnsupportedUploadError(NO_RELATIONSHIPS);
  }
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  } catch (error) {
    throw unreadable(error);
  }
}

interface Relationship {
  id: string;
  type: string;
  target: string;
}

/** The relationships of a .rels part (attributes in any order and quotes; external ones left out). */
function parseRelationships(xml: string): Relationship[] {
  const found: Relationship[] = [];
  for (const [, attributes = ''] of xml.matchAll(/<(?:[\w.-]+:)?Relationship\b([^>]*)>/g)) {
    const value: Record<string, string> = {};
    for (const [, name = '', , doubleQuoted, singleQuoted] of attributes.matchAll(
      /([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g,
    )) {
      value[name] = decodeXmlText(doubleQuoted ?? singleQuoted ?? '');
    }
    if (value.TargetMode === 'External' || !value.Id || !value.Type || !value.Target) continue;
    found.push({ id: value.Id, type: value.Type, target: value.Target });
  }
  return found;
}

/** The part name a target of xl/workbook.xml's relationships names, or null outside the zip. */
function resolveTarget(target: string): string | null {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // not percent-encoded: the name as written
  }
  const name = decoded.startsWith('/')
    ? posix.normalize(decoded.slice(1))
    : posix.normalize(posix.join('xl', decoded));
  return name.startsWith('../') || name === '..' ? null : name;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) {
      return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    }
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return XML_ENTITIES[name] ?? entity;
  });
}

function relationshipXml(id: string, type: string, target: string): string {
  const attribute = (text: string) =>
    text.replace(
      /[&<>"]/g,
      (char) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[char]};`,
    );
  return `<Relationship Id="${attribute(id)}" Type="${attribute(type)}" Target="${target}"/>`;
}

/** Inflates every part once, discarding the bytes; yauzl fails if one exceeds its declared size. */
async function verifyDeclaredSizes(zip: ZipFile, parts: Entry[]): Promise<void> {
  for (const entry of parts) {
    const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
    try {
      await pipeline(await zip.openReadStreamPromise(entry), discard);
    } catch (error) {
      throw unreadable(error);
    }
  }
}

/**
 * A zip stream of stored entries whose header sizes are the verified ones, with an empty
 * shared-strings part before the worksheets when the workbook has none.
 */
async function* storedZip(zip: ZipFile, parts: Part[]): AsyncGenerator<Buffer> {
  let sharedStrings = parts.some((part) => part.name === SHARED_STRINGS);
  for (const part of parts) {
    if (!sharedStrings && part.name.startsWith('xl/worksheets/')) {
      yield localFileHeader(
        SHARED_STRINGS,
        crc32(EMPTY_SHARED_STRINGS),
        EMPTY_SHARED_STRINGS.length,
      );
      yield EMPTY_SHARED_STRINGS;
      sharedStrings = true;
    }
    if ('content' in part) {
      yield localFileHeader(part.name, crc32(part.content), part.content.length);
      yield part.content;
      continue;
    }
    yield localFileHeader(part.name, part.entry.crc32, part.entry.uncompressedSize);
    for await (const chunk of await zip.openReadStreamPromise(part.entry)) yield chunk as Buffer;
  }
  yield endOfCentralDirectory();
}

const SHARED_STRINGS = 'xl/sharedStrings.xml';

/**
 * For workbooks without shared strings (numbers-only sheets, some writers). Without that part
 * ExcelJS copies every worksheet to a temporary file and reads them after the zip, and that path
 * is broken: it deletes a skipped sheet's file while the sheet's read stream may still be opening
 * (an unhandled ENOENT that ends the process), and now and then it returned the first tab empty
 * (3 wrong reads, then that crash, in a loop over one two-tab workbook; 0 wrong in 300 with the
 * part). With the part, ExcelJS streams every sheet directly.
 */
const EMPTY_SHARED_STRINGS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
    '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>',
);

const UTF8_NAME_FLAG = 0x0800;
const STORED = 0;

function localFileHeader(fileName: string, crc: number, size: number): Buffer {
  const name = Buffer.from(fileName, 'utf8');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0); // local file header signature
  header.writeUInt16LE(20, 4); // version needed to extract
  header.writeUInt16LE(UTF8_NAME_FLAG, 6);
  header.writeUInt16LE(STORED, 8);
  header.writeUInt32LE(crc, 14);
  header.writeUInt32LE(size, 18); // stored: compressed size = size
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, name]);
}

/** Tells unzipper the archive is over; it needs no central directory to stream entries. */
function endOfCentralDirectory(): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(0x06054b50, 0);
  return record;
}

function unreadable(error: unknown): UnreadableUploadError {
  return new UnreadableUploadError(`The workbook could not be read: ${reasonOf(error)}`);
}
