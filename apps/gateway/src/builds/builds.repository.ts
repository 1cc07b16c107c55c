import type { TBuildInputs } from '@agentloom/contracts';
import { Build, curatedAnswersForBuild, Pipeline, PipelineStatus } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../prisma/prisma.service';

/** Rolls the transaction back (the pipeline is not marked Building) when over the quota. */
class OverQuota extends Error {}

/** The only gateway code that touches the builds table. Every query is scoped to the owner. */
@Injectable()
export class BuildsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Marks the pipeline Building and records a new build, in one transaction. Null when the
   * pipeline is already Building (a second click): the caller answers with the running build.
   * 'over-quota' when the user already has `maxRunning` pipelines Building; the user's row is
   * locked first, so concurrent requests of one user are counted one after the other. The
   * snapshot takes the agent's curated answers as they are in the same transaction.
   */
  startBuild(
    pipelineId: string,
    userId: string,
    inputs: Omit<TBuildInputs, 'curated_answers'>,
    maxRunning: number,
  ): Promise<Build | null | 'over-quota'> {
    return this.prisma.client
      .$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM users WHERE id = ${userId}::uuid FOR UPDATE`;
        const running = await tx.pipeline.count({
          where: { userId, status: 'Building', id: { not: pipelineId } },
        });
        const { count } = await tx.pipeline.updateMany({
          where: { id: pipelineId, userId, status: { not: 'Building' } },
          data: { status: 'Building' },
        });
        if (count !== 1) return null;
        if (running >= maxRunning) throw new OverQuota();
        const curated = await curatedAnswersForBuild(tx, pipelineId);
        const snapshot: TBuildInputs = { ...inputs, curated_answers: curated };
        return tx.build.create({
          data: { id: randomUUID(), pipelineId, userId, snapshot },
        });
      })
      .catch((error: unknown) => {
        if (error instanceof OverQuota) return 'over-quota' as const;
        throw error;
      });
  }

  /** Undoes startBuild when the job could not be enqueued: no half-made build is left behind. */
  async abandonBuild(build: Build, previousStatus: PipelineStatus): Promise<void> {
    await this.prisma.client.$transaction([
      this.prisma.client.build.deleteMany({ where: { id: build.id, userId: build.userId } }),
      this.prisma.client.pipeline.updateMany({
        where: { id: build.pipelineId, userId: build.userId },
        data: { status: previousStatus },
      }),
    ]);
  }

  findById(id: string): Promise<Build | null> {
    return this.prisma.client.build.findUnique({ where: { id } });
  }

  findByIdWithPipeline(id: string): Promise<(Build & { pipeline: Pipeline }) | null> {
    return this.prisma.client.build.findUnique({ where: { id }, include: { pipeline: true } });
  }

  latestOwned(pipelineId: string, userId: string): Promise<Build | null> {
    return this.prisma.client.build.findFirst({
      where: { pipelineId, userId },
      orderBy: { createdAt: 'desc' },
    });
  }

  /** Every build of the pipeline, oldest first (their numbers count up from 1). */
  listOwned(pipelineId: string, userId: string): Promise<Build[]> {
    return this.prisma.client.build.findMany({
      where: { pipelineId, userId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  /** The newest build that produced a zip. */
  /** The build the agent's visitors are served, when it is published. */
  async publishedBuildId(pipelineId: string): Promise<string | null> {
    const publication = await this.prisma.client.publication.findUnique({
      where: { pipelineId },
      select: { buildId: true },
    });
    return publication?.buildId ?? null;
  }

  latestBuiltOwned(pipelineId: string, userId: string): Promise<Build | null> {
    return this.prisma.client.build.findFirst({
      where: { pipelineId, userId, status: 'Built', artifact: { not: null } },
      orderBy: { createdAt: 'desc' },
    });
  }
}
