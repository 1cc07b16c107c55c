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
 * agent/chunking.py's chunk_documents: every document split by `chunkText`, the pieces numbered
 * `chunk-000000`, `chunk-000001`, … across the whole source and cited like their document.
 */
export async function* chunkDocuments(
  documents: AsyncIterable<SourceDocument> | Iterable<SourceDocument>,
  size: number,
  overlap: number,
): AsyncGenerator<SourceChunk> {
  let count = 0;
  for await (const document of documents) {
    for (const text of chunkText(document.text, size, overlap)) {
      const { source, page, row, ref } = document;
      yield { id: `chunk-${String(count).padStart(6, '0')}`, text, source, page, row, ref };
      count += 1;
    }
  }
}
