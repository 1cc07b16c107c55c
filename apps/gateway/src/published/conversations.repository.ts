import type { Conversation, ConversationChannel, ConversationMessage, Prisma } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

export type ConversationWithMessages = Conversation & { messages: ConversationMessage[] };

/** The only code that touches conversations and their messages. */
@Injectable()
export class ConversationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  create(data: {
    pipelineId: string;
    userId: string;
    channel: ConversationChannel;
    accessKeyId?: string | null;
    visitorHash?: string | null;
  }): Promise<Conversation> {
    return this.prisma.client.conversation.create({ data });
  }

  /**
   * A conversation of this agent started on this channel by this caller: the same access key, or
   * the same visitor session (null matches only null, so neither can take the other's).
   */
  findOfCaller(
    id: string,
    pipelineId: string,
    caller: {
      channel: ConversationChannel;
      accessKeyId?: string | null;
      visitorHash?: string | null;
    },
  ): Promise<Conversation | null> {
    return this.prisma.client.conversation.findFirst({
      where: {
        id,
        pipelineId,
        channel: caller.channel,
        accessKeyId: caller.accessKeyId ?? null,
        visitorHash: caller.visitorHash ?? null,
      },
    });
  }

  /** The last `turns` messages, oldest first: what the model remembers. */
  async lastMessages(conversationId: string, turns: number): Promise<ConversationMessage[]> {
    const newest = await this.prisma.client.conversationMessage.findMany({
      where: { conversationId },
      orderBy: [{ createdAt: 'desc' }, { role: 'desc' }],
      take: turns,
    });
    return newest.reverse();
  }

  /**
   * The question and its answer, stored together once the answer is complete: one INSERT of both
   * rows (atomic without a transaction, so a burst of answers never waits on pooled transactions).
   */
  async addExchange(
    conversationId: string,
    question: string,
    answer: string,
    sources: Prisma.InputJsonValue,
  ): Promise<Pick<ConversationMessage, 'id'>> {
    // The answer is stamped a millisecond later so the order survives equal clocks. One SQL
    // statement: both rows and the conversation's time, with no transaction to wait for and
    // without Prisma's query compiler on every answer's path (npm run bench:hosted).
    const rows = await this.prisma.client.$queryRaw<{ id: string }[]>`
      WITH asked AS (SELECT clock_timestamp() AS at),
      stored AS (
        INSERT INTO conversation_messages (id, conversation_id, role, content, sources, created_at)
        SELECT gen_random_uuid(), ${conversationId}::uuid, 'user'::"MessageRole", ${question},
               '[]'::jsonb, asked.at
        FROM asked
        UNION ALL
        SELECT gen_random_uuid(), ${conversationId}::uuid, 'assistant'::"MessageRole", ${answer},
               ${JSON.stringify(sources)}::jsonb, asked.at + interval '1 millisecond'
        FROM asked
        RETURNING id, role, created_at
      ),
      touched AS (
        UPDATE conversations SET updated_at = (SELECT max(created_at) FROM stored)
        WHERE id = ${conversationId}::uuid
      )
      SELECT id FROM stored WHERE role = 'assistant'`;
    const reply = rows[0];
    if (!reply) throw new Error('The answer was not stored.');
    return reply;
  }

  async setFeedback(messageId: string, conversationId: string, feedback: number): Promise<boolean> {
    const { count } = await this.prisma.client.conversationMessage.updateMany({
      where: { id: messageId, conversationId, role: 'assistant' },
      data: { feedback },
    });
    return count === 1;
  }

  listOwned(pipelineId: string, userId: string, take: number): Promise<ConversationWithMessages[]> {
    return this.prisma.client.conversation.findMany({
      where: { pipelineId, userId },
      orderBy: { updatedAt: 'desc' },
      take,
      include: { messages: { orderBy: { createdAt: 'asc' } } },
    });
  }

  findOwned(id: string, pipelineId: string, userId: string) {
    return this.prisma.client.conversation.findFirst({
      where: { id, pipelineId, userId },
      include: { messages: { orderBy: { createdAt: 'asc' } } },
    });
  }

  async removeOwned(id: string, pipelineId: string, userId: string): Promise<boolean> {
    const { count } = await this.prisma.client.conversation.deleteMany({
      where: { id, pipelineId, userId },
    });
    return count === 1;
  }
}
