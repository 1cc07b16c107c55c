import {
  closestCurated,
  curatedAnswer,
  unitVector,
  type AgentEvent,
  type CuratedEntry,
  type Embedder,
} from '@agentloom/agent-runtime';
import { Injectable, Logger } from '@nestjs/common';
import { AgentsRepository } from './agents.repository';

/** Curated questions' vectors this process keeps, at most (each a few KB). */
const VECTORS_KEPT = 20_000;
/** Curated questions embedded at once when a process meets them first. */
const EMBED_PARALLEL = 4;

/** How an agent compares a question with its curated ones. */
export interface CuratedMatching {
  pipelineId: string;
  /** The agent's embedding model, once its index uses it; null: by shared words. */
  embedder: () => Embedder | null;
  /** The similarity from which a question counts as the curated one (CURATED_MATCH_THRESHOLDS). */
  threshold: number;
}

/**
 * The one place every hosted agent — preview, API, share page, widget, MCP, runtime replica —
 * answers a question from its owner's curated answers: read on each question (the owner may have
 * written one a second ago), each curated question embedded once per process and version with the
 * agent's model, the asked question once (shared with the passage search that follows when
 * nothing matches).
 */
@Injectable()
export class CuratedMatcher {
  private readonly logger = new Logger(CuratedMatcher.name);
  /** By model, answer id and version; insertion order is age. */
  private readonly vectors = new Map<string, Float32Array>();

  constructor(private readonly agents: AgentsRepository) {}

  /** The curated answer's events when the question matches one, else `otherwise()`'s. */
  async *answer(
    matching: CuratedMatching,
    question: string,
    signal: AbortSignal,
    otherwise: () => AsyncGenerator<AgentEvent>,
  ): AsyncGenerator<AgentEvent> {
    const match = await this.match(matching, question, signal).catch((error: unknown) => {
      // The answer goes on without: a failing embedding model fails the search next, in words.
      this.logger.warn(`Comparing with curated answers: ${(error as Error).message}`);
      return null;
    });
    if (match) yield* curatedAnswer(match);
    else yield* otherwise();
  }

  async match(matching: CuratedMatching, question: string, signal?: AbortSignal) {
    const rows = await this.agents.curatedOf(matching.pipelineId);
    if (rows.length === 0) return null;
    const embedder = matching.embedder();
    if (!embedder) return closestCurated(question, null, rows, matching.threshold);
    const asked = unitVector(await embedder.embedQuery(question, signal));
    const entries = await this.withVectors(rows, embedder, signal);
    return closestCurated(question, asked, entries, matching.threshold);
  }

  private async withVectors(
    rows: { id: string; question: string; answer: string; updatedAt: Date }[],
    embedder: Embedder,
    signal?: AbortSignal,
  ): Promise<CuratedEntry[]> {
    const keyOf = (row: (typeof rows)[number]) =>
      `${embedder.model}:${row.id}:${row.updatedAt.getTime()}`;
    const missing = rows.filter((row) => !this.vectors.has(keyOf(row)));
    for (let start = 0; start < missing.length; start += EMBED_PARALLEL) {
      const batch = missing.slice(start, start + EMBED_PARALLEL);
      const vectors = await Promise.all(
        batch.map((row) => embedder.embedQuery(row.question, signal)),
      );
      batch.forEach((row, i) => this.vectors.set(keyOf(row), unitVector(vectors[i]!)));
    }
    while (this.vectors.size > VECTORS_KEPT) this.vectors.delete(this.vectors.keys().next().value!);
    return rows.map((row) => ({ ...row, vector: this.vectors.get(keyOf(row)) }));
  }
}
