import type { Build, CuratedAnswer, Pipeline } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** What an agent compares its questions with: the owner's curated question and answer. */
export type CuratedRow = Pick<CuratedAnswer, 'id' | 'question' | 'answer' | 'updatedAt'>;

/** The rows an agent is loaded from. */
@Injectable()
export class AgentsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * The pipeline and build a published agent is loaded from (once per process and build), or
   * null when the agent is no longer published with that build.
   */
  async publishedBuild(target: {
    pipelineId: string;
    buildId: string;
  }): Promise<{ pipeline: Pipeline; build: Build } | null> {
    const found = await this.prisma.client.publication.findUnique({
      where: { pipelineId: target.pipelineId },
      include: { pipeline: true, build: true },
    });
    return found && found.buildId === target.buildId ? found : null;
  }

  /** The hosted index a worker recorded with a build (or null while there is none). */
  async hostedIndexOf(buildId: string): Promise<unknown> {
    const build = await this.prisma.client.build.findUnique({
      where: { id: buildId },
      select: { hostedIndex: true },
    });
    return build?.hostedIndex ?? null;
  }

  /** The owner's curated answers of an agent, read again whenever their version moves. */
  curatedOf(pipelineId: string): Promise<CuratedRow[]> {
    return this.prisma.client.curatedAnswer.findMany({
      where: { pipelineId },
      select: { id: true, question: true, answer: true, updatedAt: true },
      orderBy: { createdAt: 'asc' },
    });
  }
}
