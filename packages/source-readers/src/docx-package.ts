import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { readableSize } from '@agentloom/contracts';
import { ZIP_MAGIC, startsWith } from './file-signature';
import { UnreadableUploadError, UnsupportedUploadError, reasonOf } from './upload-errors';

/*
 * A Word document's zip, opened so that a zip bomb is refused without being inflated.
 *
 * The central directory is read first and the file refused on what it declares: too many
 * entries, too large a declared total, too high a compression ratio, or no document part. Then
 * mammoth reads the parts it asks for through this object rather than through its own zip reader
 * (JSZip, which reads the whole archive into memory and believes its headers): each part is
 * inflated by yauzl, which fails as soon as a part yields more bytes than the directory declared,
 * and every byte inflated counts against one budget for the whole document, checked as the bytes
 * arrive. Images are never read (the text is what is indexed), so their size costs nothing.
 */

const MAX_ENTRIES = 10_000;
const MAX_RATIO = 200;
/** Small parts compress far better than 200:1 when they are repetitive XML, and cannot hurt. */
const RATIO_EXEMPT_BYTES = 1024 * 1024;

export const NOT_DOCX = 'The file is not a Word document (.docx).';
const LEGACY_WORD = Buffer.from('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1', 'latin1');
const REQUIRED_ENTRIES = ['[Content_Types].xml', 'word/document.xml'];

/** What mammoth needs of an opened .docx (its own `openZip` accepts such an object as `file`). */
export interface DocxPackage {
  exists(name: string): boolean;
  read(name: string, encoding?: string): Promise<string | Uint8Array>;
  close(): void;
}

export async function openDocxPackage(
  filePath: string,
  maxUncompressedBytes: number,
): Promise<DocxPackage> {
  if (!(await startsWith(filePath, ZIP_MAGIC))) {
    throw new UnsupportedUploadError(
      (await startsWith(filePath, LEGACY_WORD))
        ? `${NOT_DOCX} It is an older Word file (.doc): open it in Word or LibreOffice, save it as .docx, and upload that file.`
        : NOT_DOCX,
    );
  }
  let zip: ZipFile;
  try {
    // autoClose off: parts are read after the directory, as mammoth asks for them.
    zip = await yauzl.openPromise(filePath, { autoClose: false });
  } catch (error) {
    throw unreadable(error);
  }
  try {
    const entries = await readDirectory(zip, maxUncompressedBytes);
    return new GuardedPackage(zip, entries, maxUncompressedBytes);
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function readDirectory(zip: ZipFile, maxTotalBytes: number): Promise<Map<string, Entry>> {
  if (zip.entryCount > MAX_ENTRIES) {
    throw new UnsupportedUploadError(
      `The document has ${zip.entryCount} parts; at most ${MAX_ENTRIES} are accepted.`,
    );
  }
  const entries = new Map<string, Entry>();
  let totalBytes = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      totalBytes += entry.uncompressedSize;
      if (totalBytes > maxTotalBytes) throw tooLarge(maxTotalBytes);
      const ratio = entry.uncompressedSize / entry.compressedSize; // Infinity when nothing is stored
      if (entry.uncompressedSize >= RATIO_EXEMPT_BYTES && ratio > MAX_RATIO) {
        throw new UnsupportedUploadError(
          `The document part "${entry.fileName}" is compressed more than ${MAX_RATIO} times, beyond the limit for uploads.`,
        );
      }
      // The first of two entries with one name wins, as it would in mammoth's own reader.
      if (!entries.has(entry.fileName)) entries.set(entry.fileName, entry);
    }
  } catch (error) {
    throw error instanceof UnsupportedUploadError ? error : unreadable(error);
  }
  if (!REQUIRED_ENTRIES.every((name) => entries.has(name))) {
    throw new UnsupportedUploadError(NOT_DOCX);
  }
  return entries;
}

class GuardedPackage implements DocxPackage {
  private remaining: number;

  constructor(
    private readonly zip: ZipFile,
    private readonly entries: Map<string, Entry>,
    private readonly maxUncompressedBytes: number,
  ) {
    this.remaining = maxUncompressedBytes;
  }

  exists(name: string): boolean {
    return this.entries.has(name);
  }

  async read(name: string, encoding?: string): Promise<string | Uint8Array> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`the part ${name} is missing`);
    const chunks: Buffer[] = [];
    let stream;
    try {
      stream = await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw unreadable(error);
    }
    try {
      for await (const chunk of stream) {
        const buffer = chunk as Buffer;
        this.remaining -= buffer.length;
        if (this.remaining < 0) throw tooLarge(this.maxUncompressedBytes);
        chunks.push(buffer);
      }
    } catch (error) {
      stream.destroy();
      throw error instanceof UnsupportedUploadError ? error : unreadable(error);
    }
    const bytes = Buffer.concat(chunks);
    if (encoding === 'base64') return bytes.toString('base64');
    return encoding ? new TextDecoder(encoding).decode(bytes) : new Uint8Array(bytes);
  }

  close(): void {
    this.zip.close();
  }
}

function tooLarge(maxTotalBytes: number): UnsupportedUploadError {
  return new UnsupportedUploadError(
    `The document expands to more than ${readableSize(maxTotalBytes)} when unpacked, beyond the limit for uploads.`,
  );
}

function unreadable(error: unknown): UnreadableUploadError {
  return new UnreadableUploadError(`The Word document could not be read: ${reasonOf(error)}`);
}
