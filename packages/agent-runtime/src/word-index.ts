import MiniSearch from 'minisearch';
import type { Chunk } from './chunks';
import type { Hit } from './retrieval';
import { tokenize } from './retrieval';

/**
 * The words of a small segment's passages, indexed in memory beside their vectors: MiniSearch's
 * BM25 over the same tokens the rest of retrieval uses (letters and digits in any script,
 * lower-cased), so a code such as "SKU-4471-B" or a name matches as written. Large segments use
 * LanceDB's full-text index instead (segments.ts).
 */
export class WordIndex {
  private readonly index: MiniSearch<{ id: number; text: string }>;
  private readonly bytes: number;

  constructor(private readonly chunks: Chunk[]) {
    this.index = new MiniSearch({
      fields: ['text'],
      storeFields: [],
      tokenize: (text) => tokenize(text),
      processTerm: (term) => term,
    });
    this.index.addAll(chunks.map((chunk, id) => ({ id, text: chunk.text })));
    // The inverted index holds about a posting per distinct word of each passage.
    this.bytes = chunks.reduce((sum, chunk) => sum + chunk.text.length, 0) * 2;
  }

  /** The k passages whose words best match the question's, best first (any word may match). */
  search(question: string, k: number): Hit[] {
    if (k <= 0 || tokenize(question).length === 0) return [];
    return this.index
      .search(question, { combineWith: 'OR', prefix: false, fuzzy: false })
      .slice(0, k)
      .map((result) => ({ chunk: this.chunks[result.id as number]!, score: result.score }));
  }

  memoryBytes(): number {
    return this.bytes;
  }
}
