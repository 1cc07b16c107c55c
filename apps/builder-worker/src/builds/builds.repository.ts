import { TBuildStage, type THostedIndex } from '@agentloom/contracts';
import {
  curatedAnswersForBuild,
  Prisma,
  type ApiKey,
  type Build,
  type Pipeline,
} from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';
import type { BuildOutput } from './build-output';

/**
 * The only worker code that touches the database: builds, their pipelines and the vault keys a
 * build uses. Status lives here, not in Redis.
 */
@Injectable()
export class BuildsRepository {
  constructor(private readonly prisma: PrismaService) {}

  findWithPipeline(buildId: string): Promise<(Build & { pipeline: Pipeline }) | null> {
    return this.prisma.client.build.findUnique({
      where: { id: buildId },
      include: { pipeline: true },
    });
  }

  /** The agent's curated answers now: for a build whose snapshot did not capture them. */
  curatedAnswersOf(pipelineId: string) {
    return curatedAnswersForBuild(this.prisma.client, pipelineId);
  }

  /** A vault key, only if it belongs to the pipeline's owner. */
  findOwnedApiKey(userId: string, keyId: string): Promise<ApiKey | null> {
    return this.prisma.client.apiKey.findFirst({ where: { id: keyId, userId } });
  }

  /** A (re)started attempt begins with no stages: a rerun reports them afresh. */
  markStarted(buildId: string): Promise<Build> {
    return this.prisma.client.build.update({
      where: { id: buildId },
      data: {
        status: 'Building',
        stages: [],
        error: null,
        startedAt: new Date(),
        attempts: { increment: 1 },
      },
    });
  }

  /**
   * Called twice per stage, so it is the worker's most frequent query: one plain UPDATE, where
   * the client's `update` compiles the query and reads the row back (about 3x the time).
   */
  async saveStages(buildId: string, stages: TBuildStage[]): Promise<void> {
    await this.prisma.client.$executeRaw`
      UPDATE builds SET stages = ${JSON.stringify(stages)}::jsonb WHERE id = ${buildId}::uuid`;
  }

  /** The build's zip, (RAG) its hosted index, knowledge changes and evaluation, with Built. */
  async markBuilt(
    build: Build,
    artifact: { name: string; bytes: number },
    { hostedIndex, knowledgeChanges, evaluation }: BuildOutput,
  ): Promise<void> {
    const finishedAt = new Date();
    await this.prisma.client.$transaction([
      this.prisma.client.build.update({
        where: { id: build.id },
        data: {
          status: 'Built',
          artifact: artifact.name,
          artifactBytes: artifact.bytes,
          hostedIndex: hostedIndex ?? Prisma.DbNull,
          knowledgeChanges,
          evaluation: evaluation ?? Prisma.DbNull,
          finishedAt,
          error: null,
        },
      }),
      this.prisma.client.pipeline.update({
        where: { id: build.pipelineId },
        data: { status: 'Built' },
      }),
    ]);
  }

  /** The hosted index of a Built build made before builds indexed themselves. */
  async recordHostedIndex(buildId: string, hostedIndex: THostedIndex): Promise<void> {
    await this.prisma.client.build.update({ where: { id: buildId }, data: { hostedIndex } });
  }

  /**
   * Only a build still Building can fail: an attempt that lost its lock (its worker stalled and
   * another one ran the build again) may fail late, after the build was already Built.
   */
  async markFailed(build: Build, error: string): Promise<void> {
    await this.prisma.client.$transaction(async (tx) => {
      const { count } = await tx.build.updateMany({
        where: { id: build.id, status: 'Building' },
        data: { status: 'Failed', error, finishedAt: new Date() },
      });
      if (count === 0) return;
      await tx.pipeline.update({ where: { id: build.pipelineId }, data: { status: 'Failed' } });
    });
  }
}
