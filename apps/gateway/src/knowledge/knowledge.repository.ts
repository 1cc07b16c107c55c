import type { TKnowledgeChange } from '@agentloom/contracts';
import {
  activeSources,
  buildSourceOf,
  ensurePrimarySource,
  latestBuiltBuild,
  Prisma,
  startKnowledgeBuild,
  type Build,
  type KnowledgeSource,
  type Pipeline,
} from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { readConfig } from '../pipelines/pipeline-view';
import { PrismaService } from '../prisma/prisma.service';

/** The gateway's rows of agents' knowledge: their sources and the builds their changes start. */
@Injectable()
export class KnowledgeRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The wizard's source as the agent's first knowledge source, made or brought up to date. */
  ensurePrimary(pipeline: Pipeline): Promise<KnowledgeSource | null> {
    return ensurePrimarySource(this.prisma.client, pipeline, readConfig(pipeline));
  }

  /** The agent's sources now, the wizard's first (made or brought up to date first). */
  async active(pipeline: Pipeline): Promise<KnowledgeSource[]> {
    await this.ensurePrimary(pipeline);
    return activeSources(this.prisma.client, pipeline.id);
  }

  /** What a build is made of: every source now, as its snapshot names them. */
  async forSnapshot(pipeline: Pipeline) {
    return (await this.active(pipeline)).map(buildSourceOf);
  }

  findActive(pipelineId: string, sourceId: string): Promise<KnowledgeSource | null> {
    return this.prisma.client.knowledgeSource.findFirst({
      where: { id: sourceId, pipelineId, status: { not: 'removed' } },
    });
  }

  create(data: Prisma.KnowledgeSourceUncheckedCreateInput): Promise<KnowledgeSource> {
    return this.prisma.client.knowledgeSource.create({ data });
  }

  update(id: string, data: Prisma.KnowledgeSourceUpdateInput): Promise<KnowledgeSource> {
    return this.prisma.client.knowledgeSource.update({ where: { id }, data });
  }

  /** The agent's newest Built build: what a knowledge change builds on. */
  latestBuilt(pipelineId: string): Promise<Build | null> {
    return latestBuiltBuild(this.prisma.client, pipelineId);
  }

  startKnowledgeBuild(
    pipeline: Pipeline,
    base: Build,
    changes: TKnowledgeChange[],
  ): Promise<Build | null> {
    return startKnowledgeBuild(this.prisma.client, pipeline, base, 'knowledge', changes);
  }

  /** The build of the agent that is running now, if any. */
  building(pipelineId: string): Promise<Build | null> {
    return this.prisma.client.build.findFirst({
      where: { pipelineId, status: 'Building' },
      orderBy: { createdAt: 'desc' },
    });
  }

  /** Undoes a knowledge build whose job could not be enqueued; its sources wait for the next. */
  async abandonBuild(build: Build, previousStatus: Pipeline['status']): Promise<void> {
    await this.prisma.client.$transaction([
      this.prisma.client.build.deleteMany({ where: { id: build.id } }),
      this.prisma.client.pipeline.updateMany({
        where: { id: build.pipelineId, status: 'Building' },
        data: { status: previousStatus },
      }),
    ]);
  }

  /** Bytes the user's added files take (the wizard's files are counted with their pipelines). */
  async addedFileBytes(userId: string): Promise<number> {
    const [row] = await this.prisma.client.$queryRaw<{ total: bigint | null }[]>`
      SELECT SUM((settings -> 'file' -> 'upload' ->> 'size_bytes')::bigint) AS total
      FROM knowledge_sources
      WHERE user_id = ${userId}::uuid AND kind = 'file' AND NOT "primary" AND status <> 'removed'`;
    return Number(row?.total ?? 0);
  }
}
