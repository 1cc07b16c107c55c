import type { CuratedAnswer } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** The only code that writes curated answers (the agents read them, AgentsRepository.curatedOf). */
@Injectable()
export class CuratedAnswersRepository {
  constructor(private readonly prisma: PrismaService) {}

  listOwned(pipelineId: string, userId: string): Promise<CuratedAnswer[]> {
    return this.prisma.client.curatedAnswer.findMany({
      where: { pipelineId, userId },
      orderBy: { createdAt: 'asc' },
    });
  }

  countOf(pipelineId: string): Promise<number> {
    return this.prisma.client.curatedAnswer.count({ where: { pipelineId } });
  }

  create(data: {
    pipelineId: string;
    userId: string;
    question: string;
    answer: string;
    correctsMessageId: string | null;
  }): Promise<CuratedAnswer> {
    return this.prisma.client.curatedAnswer.create({ data });
  }

  /** The updated answer, or null when it is not one of this owner's agent's. */
  async updateOwned(
    id: string,
    pipelineId: string,
    userId: string,
    data: { question?: string; answer?: string },
  ): Promise<CuratedAnswer | null> {
    const { count } = await this.prisma.client.curatedAnswer.updateMany({
      where: { id, pipelineId, userId },
      data,
    });
    if (count === 0) return null;
    return this.prisma.client.curatedAnswer.findUnique({ where: { id } });
  }

  async removeOwned(id: string, pipelineId: string, userId: string): Promise<boolean> {
    const { count } = await this.prisma.client.curatedAnswer.deleteMany({
      where: { id, pipelineId, userId },
    });
    return count === 1;
  }

  /**
   * The question a published answer of this owner's agent was given to: the conversation's last
   * question before it. Null when the message is not an answer of one of the agent's conversations.
   */
  async questionOfAnswer(
    messageId: string,
    pipelineId: string,
    userId: string,
  ): Promise<string | null> {
    const answer = await this.prisma.client.conversationMessage.findFirst({
      where: { id: messageId, role: 'assistant', conversation: { pipelineId, userId } },
      select: { conversationId: true, createdAt: true },
    });
    if (!answer) return null;
    const question = await this.prisma.client.conversationMessage.findFirst({
      where: {
        conversationId: answer.conversationId,
        role: 'user',
        createdAt: { lt: answer.createdAt },
      },
      orderBy: { createdAt: 'desc' },
      select: { content: true },
    });
    return question?.content ?? null;
  }
}
