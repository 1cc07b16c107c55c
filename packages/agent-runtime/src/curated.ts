import type { TEmbeddingModel } from '@agentloom/contracts';
import type { AgentEvent } from './agent-events';
import type { Embedder } from './embedders';
import { contentWords } from './rag-agent';

/**
 * Curated answers: the owner's own answer to a question. A question close in meaning to a curated
 * one is answered with its text, word for word, with no passage search and no model call. Shared
 * by the hosted agents (previews, published channels) and the build's evaluation.
 */
export interface CuratedEntry {
  id: string;
  question: string;
  answer: string;
  /** The question's unit vector with the agent's embedding model; absent for full-text agents. */
  vector?: Float32Array;
}

/**
 * The cosine similarity from which an asked question counts as the curated one, by embedding
 * model: stricter than a passage's relevance (RELEVANCE_THRESHOLDS), since the reply is given
 * word for word. Models that rate unrelated texts high (ada-002, E5, T5) need a higher bar.
 */
export const CURATED_MATCH_THRESHOLDS: Record<TEmbeddingModel, number> = {
  'text-embedding-ada-002': 0.93,
  'text-embedding-3-small': 0.75,
  'text-embedding-3-large': 0.75,
  'all-MiniLM-L6-v2': 0.75,
  'all-MiniLM-L12-v2': 0.75,
  'sentence-t5-base': 0.9,
  'bge-small-en': 0.88,
  'e5-small-v2': 0.93,
};

/** Without vectors: the share of the two questions' content words they have in common. */
export const CURATED_WORDS_OVERLAP = 0.6;

/**
 * The curated entry the question asks, or null. With a question vector, the nearest entry with a
 * vector whose similarity reaches `threshold`; without (a full-text agent), the entry sharing the
 * most content words, at least CURATED_WORDS_OVERLAP of the larger set of the two.
 */
export function closestCurated(
  question: string,
  questionVector: Float32Array | null,
  entries: readonly CuratedEntry[],
  threshold: number,
): { entry: CuratedEntry; similarity: number } | null {
  let best: { entry: CuratedEntry; similarity: number } | null = null;
  for (const entry of entries) {
    const similarity =
      questionVector && entry.vector
        ? dot(questionVector, entry.vector)
        : wordsOverlap(question, entry.question);
    const bar = questionVector && entry.vector ? threshold : CURATED_WORDS_OVERLAP;
    if (similarity >= bar && (!best || similarity > best.similarity)) best = { entry, similarity };
  }
  return best;
}

function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

function wordsOverlap(a: string, b: string): number {
  const left = new Set(contentWords(a));
  const right = new Set(contentWords(b));
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / Math.max(left.size, right.size);
}

/** A curated answer as an agent gives it: said to be curated, its text word for word, done. */
export function curatedAnswer(match: { entry: CuratedEntry; similarity: number }): AgentEvent[] {
  const { entry, similarity } = match;
  return [
    { type: 'curated', id: entry.id, question: entry.question, similarity },
    { type: 'token', text: entry.answer },
    { type: 'done' },
  ];
}

/**
 * The embedder with its last `size` query vectors remembered: a question is embedded once for
 * the curated answers and for the passage search that follows when none matches. A failed
 * embedding is not remembered.
 */
export function rememberingQueries(embedder: Embedder, size = 64): Embedder {
  const remembered = new Map<string, Promise<Float32Array>>();
  return {
    model: embedder.model,
    dimensions: embedder.dimensions,
    embedPassages: (texts, signal, onBatch) => embedder.embedPassages(texts, signal, onBatch),
    embedQuery(text, signal) {
      const known = remembered.get(text);
      if (known) return known;
      const vector = embedder.embedQuery(text, signal);
      remembered.set(text, vector);
      vector.catch(() => remembered.delete(text));
      if (remembered.size > size) remembered.delete(remembered.keys().next().value!);
      return vector;
    },
  };
}
