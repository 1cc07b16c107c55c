import { createReadStream } from 'node:fs';
import { TextDecoder } from 'node:util';
import { hasBinarySignature } from './file-signature';
import { UnsupportedUploadError } from './upload-errors';

export interface TextStats {
  /** Lines as an editor shows them: a final line without a newline counts, a trailing newline adds none. */
  lines: number;
  /** Unicode code points (what a reader counts as characters), the BOM excluded. */
  characters: number;
}

const NOT_TEXT = 'The file is not UTF-8 text.';

/**
 * Reads the file once, in chunks, and refuses it unless it is UTF-8 text: no binary signature, valid
 * UTF-8 throughout (a leading BOM is allowed and not counted), no NUL byte. Counts as it goes, so
 * the file is never held in memory as one string.
 */
export async function scanUtf8Text(filePath: string): Promise<TextStats> {
  if (await hasBinarySignature(filePath)) {
    throw new UnsupportedUploadError(`${NOT_TEXT} It looks like a binary file.`);
  }
  // fatal: throw on invalid bytes instead of inserting U+FFFD; the default ignoreBOM: false strips
  // a leading BOM.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const stats = new TextCounter();
  for await (const chunk of createReadStream(filePath)) {
    stats.add(decodeChunk(decoder, chunk as Buffer));
  }
  stats.add(decodeChunk(decoder)); // an incomplete sequence at the end of the file throws here
  return stats.result();
}

/** Decodes one chunk, keeping an incomplete trailing sequence for the next; no chunk flushes. */
function decodeChunk(decoder: TextDecoder, chunk?: Buffer): string {
  let text: string;
  try {
    text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
  } catch {
    throw new UnsupportedUploadError(`${NOT_TEXT} It contains bytes that are not valid UTF-8.`);
  }
  if (text.includes('\0')) {
    throw new UnsupportedUploadError(`${NOT_TEXT} It contains NUL bytes.`);
  }
  return text;
}

class TextCounter {
  private characters = 0;
  private newlines = 0;
  private lastChar = '';

  add(text: string): void {
    if (text === '') return;
    // Counting chunk by chunk is exact: the decoder never splits a surrogate pair across chunks.
    this.characters += countCodePoints(text);
    this.newlines += countNewlines(text);
    this.lastChar = text.charAt(text.length - 1);
  }

  result(): TextStats {
    const unterminated = this.characters > 0 && this.lastChar !== '\n' ? 1 : 0;
    return { lines: this.newlines + unterminated, characters: this.characters };
  }
}

/** Code points rather than UTF-16 units, so "é" and "😀" each count as one character. */
export function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A low surrogate is the second half of a pair whose first half was already counted.
    if (code < 0xdc00 || code > 0xdfff) count++;
  }
  return count;
}

/** Lines end at LF; a CRLF ending counts once because only its LF is counted. */
function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
