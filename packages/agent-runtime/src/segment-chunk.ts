import { createHash } from 'node:crypto';
import type { Chunk } from './chunks';

/**
 * A chunk as a segment stores it: with its key within its source (a table row's key, a file
 * chunk's position, a page's address and position) and the digest of its text, so a later change
 * finds what is new, what changed and what is gone, and reuses the vector of every text it has
 * embedded before with the same model.
 */
export interface SegmentChunk extends Chunk {
  key: string;
  hash: string;
}

/** The digest of a chunk's text a vector is kept under (128 bits of SHA-256, hex). */
export function chunkHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}
