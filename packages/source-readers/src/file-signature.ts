import { open } from 'node:fs/promises';

export const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
export const ZIP_MAGIC = Buffer.from('PK\x03\x04', 'latin1');

/**
 * Leading bytes of binary formats people upload by mistake as text. A hand-picked list rather than
 * magic-bytes.js: its two-byte and textual signatures ("BM" for BMP, "{" for JSON, "<?xml") match
 * ordinary CSV and text files. Formats missing here still fail the NUL and UTF-8 checks.
 */
const BINARY_SIGNATURES: readonly Buffer[] = [
  PDF_MAGIC,
  ZIP_MAGIC,
  Buffer.from('PK\x05\x06', 'latin1'), // empty zip
  Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
  Buffer.from('\xff\xd8\xff', 'latin1'), // JPEG
  Buffer.from('GIF87a', 'latin1'),
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from('RIFF', 'latin1'), // WebP, WAV, AVI
  Buffer.from('\x1f\x8b', 'latin1'), // gzip
  Buffer.from('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1', 'latin1'), // legacy Office (.xls, .doc)
];

const HEAD_BYTES = Math.max(...BINARY_SIGNATURES.map((signature) => signature.length));

/** The first `length` bytes of the file (fewer if the file is shorter). */
async function readHead(filePath: string, length: number): Promise<Buffer> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export async function startsWith(filePath: string, signature: Buffer): Promise<boolean> {
  const head = await readHead(filePath, signature.length);
  return head.equals(signature);
}

export async function hasBinarySignature(filePath: string): Promise<boolean> {
  const head = await readHead(filePath, HEAD_BYTES);
  return BINARY_SIGNATURES.some((signature) =>
    head.subarray(0, signature.length).equals(signature),
  );
}
