import { writeSegment, type CarriedChunk } from '@agentloom/agent-runtime';
import {
  KNOWLEDGE_FILE_TYPES,
  type TKnowledgeFileType,
  type TSegmentInfo,
} from '@agentloom/contracts';
import type { KnowledgeSource } from '@agentloom/db';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ArtifactStore } from '../builds/artifact-store';
import { sourceDocumentBatches } from '../builds/source-documents';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import {
  KnowledgeRepository,
  settingsOf,
  type ChainKey,
  type Segment,
} from './knowledge.repository';
import {
  carriedChunks,
  chainVectors,
  concat,
  diffUnits,
  flatten,
  liveOf,
  liveUnits,
  PartReader,
  type Locate,
  type UnitDiff,
} from './segment-chains';
import { keyedFileChunks, type WebReadOutcome } from './source-chunks';
import { SourceUnits } from './source-units';
import { asSourceError, describeChange, SourceError } from './source-errors';
import { chainKey, idPrefixOf, type IndexContext, type IndexedSource } from './index-context';

export { SourceError } from './source-errors';
export type { IndexContext, IndexedSource } from './index-context';

/** The most chunks one segment holds: a larger source is written as several base parts. */
export const SEGMENT_MAX_CHUNKS = 200_000;
/**
 * …and the most bytes of 8-bit vectors (a chunk's dimensions each) its search graph holds: the
 * worker holds a segment's graph whole while it grows (about 1.8 KB a chunk of 1536 numbers, so
 * ~100,000 chunks of those; 200,000 of smaller ones), which keeps a million rows under 1 GB.
 */
const SEGMENT_MAX_GRAPH_BYTES = 160_000_000;

/** The most chunks a segment of vectors of `dimensions` numbers (null: keywords only) holds. */
export function segmentMaxChunks(dimensions: number | null): number {
  if (dimensions === null) return SEGMENT_MAX_CHUNKS;
  return Math.min(SEGMENT_MAX_CHUNKS, Math.floor(SEGMENT_MAX_GRAPH_BYTES / dimensions));
}
/** A chain of a base and this many deltas is written whole again by the next change. */
const MAX_DELTAS = 12;
/** …and so is one whose deltas replaced more than this share of its base. */
const MAX_REPLACED_SHARE = 0.25;

/**
 * Makes (or finds) the segments a source's content lies in, embedding only chunks whose text
 * this model has not embedded before for the source: a prompt-only rebuild finds every chain
 * made and embeds nothing; a new file version reuses the vectors of its unchanged passages; a
 * table or site refresh writes only the rows or pages that changed (a delta on top of the
 * chain), and now and then writes the chain whole again from its vectors (docs/knowledge.md).
 */
@Injectable()
export class SourceIndexer {
  private readonly maxUncompressed: number;

  constructor(
    @Inject(WORKER_CONFIG) config: WorkerConfig,
    private readonly knowledge: KnowledgeRepository,
    private readonly artifacts: ArtifactStore,
    private readonly units: SourceUnits,
  ) {
    this.maxUncompressed = config.XLSX_MAX_UNCOMPRESSED_BYTES;
  }

  /** The chain a build answers from for this source's content `version`: found, or made now. */
  async chainFor(
    ctx: IndexContext,
    source: KnowledgeSource,
    version: number,
  ): Promise<IndexedSource> {
    const key = chainKey(ctx, source);
    const found = await this.knowledge.chain(key, version);
    if (found) return { chain: found, change: null, embedded: 0, chunks: liveOf(found) };
    return asSourceError(source, async () => {
      if (source.kind === 'file') return this.writeFile(ctx, source, key, version);
      const previous = await this.knowledge.chain(key);
      if (!previous) return this.writeWhole(ctx, source, key, version);
      // Another version was indexed with this model (the model changed back, or the source's
      // version moved on while another build ran): compare the source with it, as a refresh.
      const refreshed = await this.compare(ctx, source, key, previous, version);
      return refreshed ?? { ...reused(previous), change: null };
    });
  }

  /**
   * Reads a table or web source again and compares it with the newest chain of this model: null
   * when nothing changed (nothing is written or embedded), else the new chain under the next
   * content version.
   */
  async refresh(ctx: IndexContext, source: KnowledgeSource): Promise<IndexedSource | null> {
    if (source.kind === 'file') throw new SourceError('A file is replaced, not refreshed.');
    const key = chainKey(ctx, source);
    return asSourceError(source, async () => {
      const previous = await this.knowledge.chain(key);
      if (!previous) return this.writeWhole(ctx, source, key, source.contentVersion + 1);
      return this.compare(ctx, source, key, previous, source.contentVersion + 1);
    });
  }

  // ---- files ----------------------------------------------------------------------------------

  private async writeFile(
    ctx: IndexContext,
    source: KnowledgeSource,
    key: ChainKey,
    version: number,
  ): Promise<IndexedSource> {
    const file = settingsOf(source).file;
    if (!file) throw new SourceError('The source has no file; upload it again.');
    const kind = source.sourceType;
    if (!(kind in KNOWLEDGE_FILE_TYPES)) {
      throw new SourceError(`${source.name}: files of this kind cannot be read here.`);
    }
    const local = await this.artifacts.sourceFile(ctx.pipeline.id, file.stored_name);
    if (!local) {
      throw new SourceError(
        source.primary
          ? 'The uploaded source file is missing; upload it again.'
          : `${source.name}: the uploaded file is missing; upload it again.`,
      );
    }
    // The vectors of this source's passages this model made before: a new version of a file
    // embeds only the passages that changed.
    const previous = await this.knowledge.chain(key);
    const reuse =
      previous && 'embedPassages' in ctx.embedder
        ? await chainVectors(previous, this.locate(ctx))
        : new Map<string, Float32Array>();
    const documents = sourceDocumentBatches(kind as TKnowledgeFileType, local, source.name, {
      maxUncompressedBytes: this.maxUncompressed,
      sheet: file.sheet,
    });
    const written = await this.writeBase(
      ctx,
      key,
      version,
      keyedFileChunks(documents, ctx.chunking, idPrefixOf(source)),
      source.name,
      (hash) => reuse.get(hash),
    );
    if (written.chunks === 0) {
      throw new SourceError(`${source.name} contains no text to answer from; upload another file.`);
    }
    return { ...written, change: version > 1 ? 'new version' : 'added' };
  }

  // ---- tables and web pages: units of change ---------------------------------------------------

  /** The source read whole into a new base (its first read with this model and cut). */
  private async writeWhole(
    ctx: IndexContext,
    source: KnowledgeSource,
    key: ChainKey,
    version: number,
  ): Promise<IndexedSource> {
    const outcome: WebReadOutcome = { pages: 0 };
    const units = this.units.of(ctx, source, outcome);
    const written = await this.writeBase(ctx, key, version, flatten(units), null);
    return { ...written, change: version > 1 ? 'read again' : 'added', pages: outcome.pages };
  }

  /**
   * The source read again and compared, unit by unit (a row by its key, a page by its address),
   * with the chain's live chunks: unchanged units cost nothing; changed and new ones are embedded
   * into a delta that also names the removed and replaced keys; a chain grown long (or mostly
   * replaced) is written whole again instead, carrying its vectors over. Null: nothing changed.
   */
  private async compare(
    ctx: IndexContext,
    source: KnowledgeSource,
    key: ChainKey,
    previous: Segment[],
    version: number,
  ): Promise<IndexedSource | null> {
    const live = await liveUnits(previous, this.locate(ctx));
    const outcome: WebReadOutcome = { pages: 0 };
    const diff = await diffUnits(this.units.of(ctx, source, outcome), live);
    if (diff.changedUnits + diff.addedUnits + diff.removedUnits.length === 0) return null;
    const change = describeChange(source, diff);
    const base = previous.filter((segment) => segment.segment.role === 'base');
    const replacedBefore = previous.reduce((sum, segment) => sum + segment.segment.removed, 0);
    const baseChunks = base.reduce((sum, segment) => sum + segment.segment.chunks, 0);
    const compact =
      previous.length - base.length + 1 > MAX_DELTAS ||
      replacedBefore + diff.removed.size > MAX_REPLACED_SHARE * Math.max(baseChunks, 1);
    if (!compact) {
      const written = await this.writeDelta(ctx, source, key, previous, version, diff, live);
      return { ...written, change, pages: outcome.pages };
    }
    const carried = carriedChunks(
      previous,
      diff.removed,
      this.locate(ctx),
      'embedPassages' in ctx.embedder,
    );
    const written = await this.writeBase(
      ctx,
      key,
      version,
      concat(carried, [diff.changed]),
      source.name,
    );
    return { ...written, change, pages: outcome.pages };
  }

  /** The changed units as a delta on top of the chain, naming the keys it replaces or removes. */
  private async writeDelta(
    ctx: IndexContext,
    source: KnowledgeSource,
    key: ChainKey,
    previous: Segment[],
    version: number,
    diff: UnitDiff,
    live: Map<string, string>,
  ): Promise<Omit<IndexedSource, 'change'>> {
    const segmentId = randomUUID();
    try {
      const delta = await writeSegment({
        location: this.artifacts.segmentLocation(ctx.pipeline.id, segmentId),
        model: ctx.model,
        embedder: ctx.embedder,
        role: 'delta',
        chunks: [diff.changed],
        removed: [...diff.removed],
        onProgress: (done) =>
          ctx.report({ done, of: diff.changed.length, unit: 'chunks', source: source.name }),
      });
      let removedChunks = 0;
      for (const unitKey of diff.removed) removedChunks += live.get(unitKey)!.split(',').length;
      const info: TSegmentInfo = {
        ...delta.info,
        live: liveOf(previous) - removedChunks + delta.info.chunks,
      };
      const recorded = await this.knowledge.recordSegment({
        id: segmentId,
        pipelineId: ctx.pipeline.id,
        key,
        contentVersion: version,
        parentId: previous.at(-1)!.id,
        info,
      });
      return { chain: [...previous, recorded], embedded: delta.embedded, chunks: info.live };
    } catch (error) {
      await this.artifacts.removeSegment(ctx.pipeline.id, segmentId).catch(() => undefined);
      throw error;
    }
  }

  private locate(ctx: IndexContext): Locate {
    return (segmentId) => this.artifacts.segmentLocation(ctx.pipeline.id, segmentId);
  }

  // ---- writing ---------------------------------------------------------------------------------

  /**
   * Writes chunks as a new base: one segment, or several parts chained in order when there are
   * more than `segmentMaxChunks` (each part's search graph is built and let go before the next,
   * so a million rows never hold one graph of a million vectors in memory).
   */
  private async writeBase(
    ctx: IndexContext,
    key: ChainKey,
    version: number,
    chunks: AsyncIterable<CarriedChunk[]>,
    name: string | null,
    reuse?: (hash: string) => Float32Array | undefined,
  ): Promise<Omit<IndexedSource, 'change'>> {
    const chain: Segment[] = [];
    let embedded = 0;
    let live = 0;
    const dimensions = 'embedPassages' in ctx.embedder ? ctx.embedder.dimensions : null;
    const stream = new PartReader(chunks, segmentMaxChunks(dimensions));
    const written: string[] = [];
    try {
      do {
        const segmentId = randomUUID();
        written.push(segmentId);
        const part = await writeSegment({
          location: this.artifacts.segmentLocation(ctx.pipeline.id, segmentId),
          model: ctx.model,
          embedder: ctx.embedder,
          role: 'base',
          chunks: stream.part(),
          reuse,
          // Tables and sites report the rows or pages read instead (their units' own count).
          onProgress: (done) =>
            name === null
              ? undefined
              : ctx.report({ done: live + done, of: 0, unit: 'chunks', source: name }),
        });
        if (part.info.chunks === 0 && chain.length > 0) break;
        embedded += part.embedded;
        live += part.info.chunks;
        chain.push(
          await this.knowledge.recordSegment({
            id: segmentId,
            pipelineId: ctx.pipeline.id,
            key,
            contentVersion: version,
            parentId: chain.at(-1)?.id ?? null,
            info: { ...part.info, live },
          }),
        );
      } while (!(await stream.ended()));
    } catch (error) {
      for (const id of written) {
        await this.artifacts.removeSegment(ctx.pipeline.id, id).catch(() => undefined);
      }
      throw error;
    }
    if (name !== null) await ctx.report({ done: live, of: live, unit: 'chunks', source: name });
    return { chain, embedded, chunks: live };
  }
}

function reused(chain: Segment[]): Omit<IndexedSource, 'change'> {
  return { chain, embedded: 0, chunks: liveOf(chain) };
}
