import { filetypeinfo } from 'magic-bytes.js';
import { open } from 'node:fs/promises';

const SNIFF_BYTES = 4_100;

/** MIME types the file's leading bytes match (by signature, never by name or header). */
export async function sniffMimeTypes(filePath: string): Promise<string[]> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return filetypeinfo(buffer.subarray(0, bytesRead)).flatMap((guess) =>
      guess.mime ? [guess.mime] : [],
    );
  } finally {
    await handle.close();
  }
}
