import { AgentType, Pipeline, Prisma } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** Columns a wizard step may change; owner, id, type, status and timestamps are not among them. */
export type PipelineChanges = Partial<
  Pick<
    Pipeline,
    | 'sourceFile'
    | 'sourceUriEncrypted'
    | 'llmApiKeyEncrypted'
    | 'vectorDbApiKeyEncrypted'
    | 'llmApiKeyId'
  >
> & { config?: Prisma.InputJsonValue };

/** The only code that touches the pipelines table. Every query is scoped to the owner. */
@Injectable()
export class PipelinesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Creates the pipeline unless the user already keeps `maxPipelines` (then null). The user's row
   * is locked first, so concurrent creates of one user are counted one after the other.
   */
  create(
    data: {
      id: string;
      userId: string;
      name: string;
      nameKey: string;
      agentType: AgentType;
      config: Prisma.InputJsonObject;
    },
    maxPipelines: number,
  ): Promise<Pipeline | null> {
    return this.prisma.client.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT 1 FROM users WHERE id = ${data.userId}::uuid FOR UPDATE`;
      const kept = await tx.pipeline.count({ where: { userId: data.userId } });
      if (kept >= maxPipelines) return null;
      return tx.pipeline.create({ data });
    });
  }

  listByOwner(userId: string): Promise<Pipeline[]> {
    return this.prisma.client.pipeline.findMany({
      where: { userId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  findOwned(id: string, userId: string): Promise<Pipeline | null> {
    return this.prisma.client.pipeline.findFirst({ where: { id, userId } });
  }

  /** Applies the changes if the pipeline is still the caller's; null when it is gone. */
  async updateOwned(
    id: string,
    userId: string,
    changes: PipelineChanges,
  ): Promise<Pipeline | null> {
    const { count } = await this.prisma.client.pipeline.updateMany({
      where: { id, userId },
      data: changes,
    });
    return count === 1 ? this.findOwned(id, userId) : null;
  }

  /** Bytes of the uploads the user's agents keep, leaving out one agent (whose file is replaced). */
  async storedUploadBytes(userId: string, exceptPipelineId: string): Promise<number> {
    const [row] = await this.prisma.client.$queryRaw<{ total: bigint | null }[]>`
      SELECT SUM((config -> 'file' ->> 'size_bytes')::bigint) AS total
      FROM pipelines
      WHERE user_id = ${userId}::uuid AND id <> ${exceptPipelineId}::uuid AND source_file IS NOT NULL`;
    return Number(row?.total ?? 0);
  }

  /** Renames the caller's pipeline; false when it is not theirs (or does not exist). */
  async renameOwned(id: string, userId: string, name: string): Promise<boolean> {
    const { count } = await this.prisma.client.pipeline.updateMany({
      where: { id, userId },
      data: { name, nameKey: name.toLowerCase() },
    });
    return count === 1;
  }

  async deleteOwned(id: string, userId: string): Promise<boolean> {
    const { count } = await this.prisma.client.pipeline.deleteMany({ where: { id, userId } });
    return count === 1;
  }
}
