import {
  readBuildInputs,
  type TPipelineConfig,
  ZKnowledgeChanges,
  ZKnowledgeSourceSettings,
  type TKnowledgeChange,
  type TKnowledgeSourceSettings,
  type TSegmentInfo,
} from '@agentloom/contracts';
import {
  activeSources,
  ensurePrimarySource,
  latestBuiltBuild,
  Prisma,
  startKnowledgeBuild,
  type Build,
  type IndexSegment,
  type KnowledgeSource,
  type Pipeline,
} from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { PrismaService } from '../prisma/prisma.service';

/** What a segment chain is looked up by: one source's content, cut and embedded one way. */
export interface ChainKey {
  sourceId: string;
  /** The embedding model, or `keyword` for full-text-only segments. */
  model: string;
  chunking: string;
}

/** A segment row with its record parsed. */
export type Segment = IndexSegment & { segment: TSegmentInfo };

/**
 * The worker's rows of an agent's knowledge: its sources, the segments their chunks lie in, and
 * the builds that knowledge changes make. The only knowledge code that touches the database.
 */
@Injectable()
export class KnowledgeRepository {
  constructor(private readonly prisma: PrismaService) {}

  sources(ids: string[]): Promise<KnowledgeSource[]> {
    return this.prisma.client.knowledgeSource.findMany({
      where: { id: { in: ids } },
      orderBy: { createdAt: 'asc' },
    });
  }

  /** The agent's sources now (not removed): the wizard's first. */
  activeSources(pipelineId: string): Promise<KnowledgeSource[]> {
    return activeSources(this.prisma.client, pipelineId);
  }

  findSource(id: string): Promise<(KnowledgeSource & { pipeline: Pipeline }) | null> {
    return this.prisma.client.knowledgeSource.findUnique({
      where: { id },
      include: { pipeline: true },
    });
  }

  updateSource(id: string, data: Prisma.KnowledgeSourceUpdateInput): Promise<KnowledgeSource> {
    return this.prisma.client.knowledgeSource.update({ where: { id }, data });
  }

  /**
   * The newest chain of segments (base parts first, then deltas, in order) of a source's content
   * version for this model and cut, or null when none was written. Without `version`: the newest
   * chain of any version (a refresh compares with it; a failed change falls back to it).
   */
  async chain(key: ChainKey, version?: number): Promise<Segment[] | null> {
    const head = await this.prisma.client.indexSegment.findFirst({
      where: {
        sourceId: key.sourceId,
        embeddingModel: key.model,
        chunking: key.chunking,
        ...(version !== undefined && { contentVersion: version }),
      },
      orderBy: [{ contentVersion: 'desc' }, { createdAt: 'desc' }],
    });
    if (!head) return null;
    const chain: Segment[] = [];
    let at: IndexSegment | null = head;
    while (at) {
      chain.unshift(parsed(at));
      at = at.parentId
        ? await this.prisma.client.indexSegment.findUnique({ where: { id: at.parentId } })
        : null;
    }
    return chain;
  }

  recordSegment(data: {
    id: string;
    pipelineId: string;
    key: ChainKey;
    contentVersion: number;
    parentId: string | null;
    info: TSegmentInfo;
  }): Promise<Segment> {
    return this.prisma.client.indexSegment
      .create({
        data: {
          id: data.id,
          pipelineId: data.pipelineId,
          sourceId: data.key.sourceId,
          embeddingModel: data.key.model,
          chunking: data.key.chunking,
          contentVersion: data.contentVersion,
          parentId: data.parentId,
          info: data.info,
        },
      })
      .then(parsed);
  }

  /** What a build changed in the agent's knowledge, as the history shows it. */
  async recordKnowledgeChanges(buildId: string, changes: TKnowledgeChange[]): Promise<void> {
    await this.prisma.client.build.update({
      where: { id: buildId },
      data: { knowledgeChanges: ZKnowledgeChanges.parse(changes) },
    });
  }

  /** The newest Built build of an agent: what a knowledge change builds on. */
  latestBuilt(pipelineId: string): Promise<Build | null> {
    return latestBuiltBuild(this.prisma.client, pipelineId);
  }

  /** A build of the agent's sources as they are now on top of `base`; null while one runs. */
  startKnowledgeBuild(
    pipeline: Pipeline,
    base: Build,
    trigger: 'knowledge' | 'refresh',
    changes: TKnowledgeChange[],
  ): Promise<Build | null> {
    return startKnowledgeBuild(this.prisma.client, pipeline, base, trigger, changes);
  }

  /**
   * Serves a knowledge-only build to the agent's visitors at once: when the owner left "follow
   * knowledge changes" on and the build's configuration is the published build's (only its
   * sources differ), the publication moves to it in one statement, only from the build it was
   * serving, so a publish or rollback made meanwhile is never overwritten. Its curated answers
   * may differ too (the owner's, as they were when each build started).
   */
  async followKnowledge(build: Build, pipeline: Pipeline): Promise<boolean> {
    const publication = await this.prisma.client.publication.findUnique({
      where: { pipelineId: pipeline.id },
      include: { build: true },
    });
    if (!publication?.followKnowledge || publication.buildId === build.id) return false;
    const served = readBuildInputs(publication.build.snapshot, pipeline.agentType);
    const built = readBuildInputs(build.snapshot, pipeline.agentType);
    if (!served || !built) return false;
    // Curated answers are served live whatever the build: they only change the downloaded zip.
    const withoutSources = ({
      sources: _sources,
      curated_answers: _curated,
      ...rest
    }: typeof built) => rest;
    if (!isDeepStrictEqual(withoutSources(served), withoutSources(built))) return false;
    const { count } = await this.prisma.client.publication.updateMany({
      where: { pipelineId: pipeline.id, buildId: publication.buildId },
      data: { buildId: build.id },
    });
    return count === 1;
  }

  /** The wizard's source as the agent's first knowledge source, made or brought up to date. */
  ensurePrimary(pipeline: Pipeline, config: TPipelineConfig): Promise<KnowledgeSource | null> {
    return ensurePrimarySource(this.prisma.client, pipeline, config);
  }

  /**
   * Claims a source for one reader (a refresh): false while another reads it. A claim older than
   * half an hour is taken over (its worker died).
   */
  async claim(id: string): Promise<boolean> {
    const { count } = await this.prisma.client.knowledgeSource.updateMany({
      where: {
        id,
        OR: [
          { status: { not: 'indexing' } },
          { updatedAt: { lt: new Date(Date.now() - 30 * 60_000) } },
        ],
      },
      data: { status: 'indexing', progress: Prisma.DbNull },
    });
    return count === 1;
  }

  /** A web source's page count, as its last read found it. */
  async recordPages(source: KnowledgeSource, pages: number | undefined): Promise<void> {
    const settings = settingsOf(source);
    if (source.kind !== 'web' || !settings.web || pages === undefined) return;
    await this.updateSource(source.id, {
      settings: { ...settings, web: { ...settings.web, pages } },
    });
  }

  /** The sources whose changes wait for the next build (added or changed while one ran). */
  waitingSources(pipelineId: string): Promise<KnowledgeSource[]> {
    return this.prisma.client.knowledgeSource.findMany({
      where: { pipelineId, status: 'waiting' },
    });
  }
}

function parsed(row: IndexSegment): Segment {
  return { ...row, segment: row.info as TSegmentInfo };
}

/** A source's settings, checked. */
export function settingsOf(source: KnowledgeSource): TKnowledgeSourceSettings {
  return ZKnowledgeSourceSettings.parse(source.settings);
}
