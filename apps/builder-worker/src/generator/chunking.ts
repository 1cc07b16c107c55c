import type { SourceChunk, SourceDocument } from './types';

/**
 * The chunking rules of generated RAG agents (agent/chunking.py), in TypeScript, so the
 * worker and the live preview can produce the same chunks the Python agent would. Lengths
 * count Unicode code points, as Python's do. The specs check both implementations agree.
 */

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f', '\v']);
const SEPARATORS: readonly string[][] = [['\n', '\n'], ['\n'], ['.', ' '], [' ']];

export function chunkText(text: string, size: number, overlap: number): string[] {
  if (!Number.isInteger(size) || size <= 0) throw new RangeError('size must be positive');
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new RangeError('overlap must be at least 0 and smaller than size');
  }
  // Most CSV rows and many pages fit one chunk: then the loop below would return the stripped
  // text whole. A string's UTF-16 length is never less than its code-point count.
  if (text.length <= size) {
    const piece = stripText(text);
    return piece ? [piece] : [];
  }
  const chars = strip(Array.from(text));
  const length = chars.length;
  const pieces: string[] = [];
  let start = 0;
  while (start < length) {
    let end = Math.min(start + size, length);
    if (end < length) end = breakPoint(chars, start + Math.floor(size / 2), end);
    const piece = strip(chars.slice(start, end)).join('');
    if (piece) pieces.push(piece);
    if (end >= length) break;
    let next = Math.max(end - overlap, start + 1);
    // Start the overlap on a word boundary when there is one before `end`.
    if (overlap > 0) {
      for (let at = next; at < end; at += 1) {
        if (chars[at] === ' ') {
          next = at + 1;
          break;
        }
      }
    }
    start = next;
    while (start < length && WHITESPACE.has(chars[start]!)) start += 1;
  }
  return pieces;
}

function stripText(text: string): string {
  let from = 0;
  let to = text.length;
  while (from < to && WHITESPACE.has(text[from]!)) from += 1;
  while (to > from && WHITESPACE.has(text[to - 1]!)) to -= 1;
  return text.slice(from, to);
}

function strip(chars: string[]): string[] {
  let from = 0;
  let to = chars.length;
  while (from < to && WHITESPACE.has(chars[from]!)) from += 1;
  while (to > from && WHITESPACE.has(chars[to - 1]!)) to -= 1;
  return chars.slice(from, to);
}

/** The end of the last separator lying wholly within [floor, end), best separator first. */
function breakPoint(chars: string[], floor: number, end: number): number {
  for (const separator of SEPARATORS) {
    for (let at = end - separator.length; at >= floor; at -= 1) {
      if (separator.every((char, offset) => chars[at + offset] === char)) {
        return at + separator.length;
      }
    }
  }
  return end;
}

/**
 * agent/chunking.py's chunk_documents, a batch of documents at a time: every document split by
 * `chunkText`, each piece cited like its document (`writeChunksJsonl` numbers them). Batches,
 * not single chunks, pass between the steps of a build, so a source of a million rows costs
 * thousands of awaits rather than millions.
 */
export async function* chunkDocumentBatches(
  batches: AsyncIterable<readonly SourceDocument[]> | Iterable<readonly SourceDocument[]>,
  size: number,
  overlap: number,
): AsyncGenerator<SourceChunk[]> {
  for await (const documents of batches) {
    const chunks: SourceChunk[] = [];
    for (const { text, source, page, row, ref } of documents) {
      for (const piece of chunkText(text, size, overlap)) {
        chunks.push({ text: piece, source, page, row, ref });
      }
    }
    if (chunks.length > 0) yield chunks;
  }
}
