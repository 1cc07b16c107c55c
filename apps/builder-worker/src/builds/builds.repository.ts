import { TBuildStage } from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** The only worker code that touches builds and pipelines. Status lives here, not in Redis. */
@Injectable()
export class BuildsRepository {
  constructor(private readonly prisma: PrismaService) {}

  findWithPipeline(buildId: string): Promise<(Build & { pipeline: Pipeline }) | null> {
    return this.prisma.client.build.findUnique({
      where: { id: buildId },
      include: { pipeline: true },
    });
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

  async saveStages(buildId: string, stages: TBuildStage[]): Promise<void> {
    await this.prisma.client.build.update({ where: { id: buildId }, data: { stages } });
  }

  async markBuilt(build: Build, artifact: string, artifactBytes: number): Promise<void> {
    const finishedAt = new Date();
    await this.prisma.client.$transaction([
      this.prisma.client.build.update({
        where: { id: build.id },
        data: { status: 'Built', artifact, artifactBytes, finishedAt, error: null },
      }),
      this.prisma.client.pipeline.update({
        where: { id: build.pipelineId },
        data: { status: 'Built' },
      }),
    ]);
  }

  async markFailed(build: Build, error: string): Promise<void> {
    await this.prisma.client.$transaction([
      this.prisma.client.build.update({
        where: { id: build.id },
        data: { status: 'Failed', error, finishedAt: new Date() },
      }),
      this.prisma.client.pipeline.update({
        where: { id: build.pipelineId },
        data: { status: 'Failed' },
      }),
    ]);
  }
}
