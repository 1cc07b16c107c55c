import { ApiKey, LlmProvider } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** The only code that touches api_keys. Every query is scoped to the owner. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  listByOwner(userId: string): Promise<ApiKey[]> {
    return this.prisma.client.apiKey.findMany({
      where: { userId },
      orderBy: { createdAt: 'desc' },
    });
  }

  findOwned(id: string, userId: string): Promise<ApiKey | null> {
    return this.prisma.client.apiKey.findFirst({ where: { id, userId } });
  }

  create(data: {
    id: string;
    userId: string;
    provider: LlmProvider;
    name: string | null;
    encryptedKey: string;
  }): Promise<ApiKey> {
    return this.prisma.client.apiKey.create({ data });
  }

  /** The owner's agents set up with this key, oldest first, and whether each is published. */
  usedBy(id: string, userId: string) {
    return this.prisma.client.pipeline.findMany({
      where: { llmApiKeyId: id, userId },
      orderBy: { createdAt: 'asc' },
      select: { id: true, name: true, status: true, publication: { select: { pipelineId: true } } },
    });
  }

  async deleteOwned(id: string, userId: string): Promise<boolean> {
    const { count } = await this.prisma.client.apiKey.deleteMany({ where: { id, userId } });
    return count === 1;
  }
}
