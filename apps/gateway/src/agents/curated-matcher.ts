import {
  closestCurated,
  curatedAnswer,
  unitVector,
  type AgentEvent,
  type CuratedEntry,
  type Embedder,
} from '@agentloom/agent-runtime';
import { Injectable, Logger } from '@nestjs/common';
import { AgentsRepository, type CuratedRow } from './agents.repository';
import { CuratedVersions } from './curated-versions';

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
  /**
   * The agent's curated answers as this loaded agent last read them, and the version they were
   * read at (CuratedVersions); kept here, so they go when the agent is unloaded.
   */
  held?: { version: string; rows: Promise<CuratedRow[]> };
}

/**
 * The one place every hosted agent — preview, API, share page, widget, MCP, runtime replica —
 * answers a question from its owner's curated answers: kept with the loaded agent and read again
 * when their version in Redis has moved (the owner may have written one a second ago, on another
 * replica), each curated question embedded once per process and version with the agent's model,
 * the asked question once (shared with the passage search that follows when nothing matches).
 */
@Injectable()
export class CuratedMatcher {
  private readonly logger = new Logger(CuratedMatcher.name);
  /** By model, answer id and version; insertion order is age. */
  private readonly vectors = new Map<string, Float32Array>();

  constructor(
    private readonly agents: AgentsRepository,
    private readonly versions: CuratedVersions,
  ) {}

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
    const rows = await this.rowsOf(matching);
    if (rows.length === 0) return null;
    const embedder = matching.embedder();
    if (!embedder) return closestCurated(question, null, rows, matching.threshold);
    const asked = unitVector(await embedder.embedQuery(question, signal));
    const entries = await this.withVectors(rows, embedder, signal);
    return closestCurated(question, asked, entries, matching.threshold);
  }

  /**
   * The agent's curated answers: those it holds while their version has not moved, else read from
   * Postgres (once for the questions asking meanwhile). A Postgres read per question cost more
   * CPU than the rest of a hosted answer's own work (npm run bench:hosted).
   */
  private async rowsOf(matching: CuratedMatching): Promise<CuratedRow[]> {
    // Read before the rows: a change committed meanwhile moves it on, and the rows read again.
    const version = await this.versions.current(matching.pipelineId);
    if (version !== null && matching.held?.version === version) return matching.held.rows;
    const rows = this.agents.curatedOf(matching.pipelineId);
    // Without Redis nothing is kept: a change made meanwhile could not be told.
    matching.held = version === null ? undefined : { version, rows };
    rows.catch(() => {
      if (matching.held?.rows === rows) matching.held = undefined;
    });
    return rows;
  }

  private async withVectors(
    rows: CuratedRow[],
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
