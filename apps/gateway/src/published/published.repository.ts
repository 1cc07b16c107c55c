import type { AgentAccessKey, Build, Pipeline, Publication } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** A publication as answers need it: only its own row (a question reads nothing more). */
export type LivePublication = Publication;
/** What the share page and the widget show: the agent's name and kind too. */
export type NamedPublication = Publication & { pipeline: Pick<Pipeline, 'name' | 'agentType'> };

/** The only code that touches publications and access keys. Owner queries filter by user id. */
@Injectable()
export class PublishedRepository {
  constructor(private readonly prisma: PrismaService) {}

  findOwned(pipelineId: string, userId: string): Promise<Publication | null> {
    return this.prisma.client.publication.findFirst({ where: { pipelineId, userId } });
  }

  /** The publication of an agent for whoever calls it (the callers check their own access). */
  findLive(pipelineId: string): Promise<LivePublication | null> {
    return this.prisma.client.publication.findUnique({ where: { pipelineId } });
  }

  findNamed(pipelineId: string): Promise<NamedPublication | null> {
    return this.prisma.client.publication.findUnique({
      where: { pipelineId },
      include: { pipeline: { select: { name: true, agentType: true } } },
    });
  }

  /** The pipeline and build a published agent is loaded from (once per process and build). */
  async agentOf(
    live: Pick<LivePublication, 'pipelineId' | 'buildId'>,
  ): Promise<{ pipeline: Pipeline; build: Build } | null> {
    const found = await this.prisma.client.publication.findUnique({
      where: { pipelineId: live.pipelineId },
      include: { pipeline: true, build: true },
    });
    return found && found.buildId === live.buildId ? found : null;
  }

  upsert(pipelineId: string, userId: string, buildId: string): Promise<Publication> {
    return this.prisma.client.publication.upsert({
      where: { pipelineId },
      create: { pipelineId, userId, buildId },
      update: { buildId, publishedAt: new Date() },
    });
  }

  async remove(pipelineId: string, userId: string): Promise<boolean> {
    const { count } = await this.prisma.client.publication.deleteMany({
      where: { pipelineId, userId },
    });
    return count === 1;
  }

  async updateSettings(
    pipelineId: string,
    userId: string,
    data: { shareEnabled?: boolean; allowedOrigins?: string[] },
  ): Promise<boolean> {
    const { count } = await this.prisma.client.publication.updateMany({
      where: { pipelineId, userId },
      data,
    });
    return count === 1;
  }

  createKey(data: {
    pipelineId: string;
    userId: string;
    name: string | null;
    keyHash: string;
    lastFour: string;
    rateLimitPerMinute: number;
  }): Promise<AgentAccessKey> {
    return this.prisma.client.agentAccessKey.create({ data });
  }

  listKeys(pipelineId: string, userId: string): Promise<AgentAccessKey[]> {
    return this.prisma.client.agentAccessKey.findMany({
      where: { pipelineId, userId },
      orderBy: { createdAt: 'desc' },
    });
  }

  async revokeKey(id: string, pipelineId: string, userId: string): Promise<AgentAccessKey | null> {
    const { count } = await this.prisma.client.agentAccessKey.updateMany({
      where: { id, pipelineId, userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count !== 1) return null;
    return this.prisma.client.agentAccessKey.findUnique({ where: { id } });
  }

  /** Revokes every key of the agent still in use (unpublishing ends them: publications.service). */
  async revokeAllKeys(pipelineId: string, userId: string): Promise<number> {
    const { count } = await this.prisma.client.agentAccessKey.updateMany({
      where: { pipelineId, userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return count;
  }

  findKeyByHash(keyHash: string): Promise<AgentAccessKey | null> {
    return this.prisma.client.agentAccessKey.findUnique({ where: { keyHash } });
  }

  /** Counts a request the key made (after the rate limit let it through). */
  async countUse(id: string): Promise<void> {
    await this.prisma.client.agentAccessKey.update({
      where: { id },
      data: { requestCount: { increment: 1 }, lastUsedAt: new Date() },
    });
  }
}
