import type { ChatTurn } from '@agentloom/agent-runtime';
import type { Conversation, ConversationChannel, ConversationMessage, Prisma } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

export type ConversationWithMessages = Conversation & { messages: ConversationMessage[] };

/** Who asks: a conversation answers only the channel and caller that started it. */
export interface Caller {
  channel: ConversationChannel;
  accessKeyId?: string | null;
  visitorHash?: string | null;
}

/** A conversation's owner side and caller, stored when it begins. */
export interface ConversationStart extends Caller {
  pipelineId: string;
  userId: string;
}

/** $1 conversation, $2 agent, $3–$5 the caller, $6 how many messages (newest first). */
const CONVERSATION_WITH_MEMORY = {
  name: 'conversation-with-memory',
  text: `
    SELECT m.role, m.content
    FROM conversations c
    LEFT JOIN LATERAL (
      SELECT role, content, created_at FROM conversation_messages
      WHERE conversation_id = c.id
      ORDER BY created_at DESC, role DESC
      LIMIT $6
    ) m ON true
    WHERE c.id = $1::uuid AND c.pipeline_id = $2::uuid AND c.channel = $3::"ConversationChannel"
      AND c.access_key_id IS NOT DISTINCT FROM $4::uuid
      AND c.visitor_hash IS NOT DISTINCT FROM $5::text
    ORDER BY m.created_at DESC, m.role DESC`,
};

/**
 * $1 conversation, $2 question, $3 answer, $4 sources (JSON); $5–$9 the conversation's start
 * (agent, owner, channel, key, visitor) when this exchange begins it, else nulls; $10 whether
 * the agent answered without a source (it said it did not know). The answer is
 * stamped a millisecond after the question so the order survives equal clocks.
 */
const STORE_EXCHANGE = {
  name: 'store-exchange',
  text: `
    WITH asked AS (SELECT clock_timestamp() AS at),
    started AS (
      INSERT INTO conversations
        (id, pipeline_id, user_id, channel, access_key_id, visitor_hash, created_at, updated_at)
      SELECT $1::uuid, $5::uuid, $6::uuid, $7::"ConversationChannel", $8::uuid, $9::text,
             asked.at, asked.at + interval '1 millisecond'
      FROM asked WHERE $5::uuid IS NOT NULL
    ),
    stored AS (
      INSERT INTO conversation_messages
        (id, conversation_id, role, content, sources, unanswered, created_at)
      SELECT gen_random_uuid(), $1::uuid, 'user'::"MessageRole", $2::text, '[]'::jsonb, false,
             asked.at
      FROM asked
      UNION ALL
      SELECT gen_random_uuid(), $1::uuid, 'assistant'::"MessageRole", $3::text, $4::jsonb,
             $10::boolean, asked.at + interval '1 millisecond'
      FROM asked
      RETURNING id, role
    ),
    touched AS (
      -- An existing conversation; one started above already has its time.
      UPDATE conversations SET updated_at = (SELECT at FROM asked) + interval '1 millisecond'
      WHERE id = $1::uuid
    )
    SELECT id FROM stored WHERE role = 'assistant'`,
};

/** The only code that touches conversations and their messages. */
@Injectable()
export class ConversationsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** An empty conversation under a given id (one whose first answer failed keeps its id). */
  create(data: { id: string } & ConversationStart): Promise<Conversation> {
    return this.prisma.client.conversation.create({ data });
  }

  /**
   * A conversation of this agent started on this channel by this caller: the same access key, or
   * the same visitor session (null matches only null, so neither can take the other's).
   */
  findOfCaller(id: string, pipelineId: string, caller: Caller): Promise<Conversation | null> {
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

  /**
   * The caller's conversation (as findOfCaller) with its last `limit` messages, oldest first:
   * what the model remembers. One statement on every continued question's path, in SQL for speed
   * (PrismaService).
   */
  async findOfCallerWithMemory(
    id: string,
    pipelineId: string,
    caller: Caller,
    limit: number,
  ): Promise<{ id: string; messages: ChatTurn[] } | null> {
    const rows = await this.prisma.sql.query<{ role: ChatTurn['role'] | null; content: string }>(
      CONVERSATION_WITH_MEMORY,
      [
        id,
        pipelineId,
        caller.channel,
        caller.accessKeyId ?? null,
        caller.visitorHash ?? null,
        limit,
      ],
    );
    if (rows.length === 0) return null;
    const messages = rows
      .filter((row) => row.role !== null)
      .map((row) => ({ role: row.role!, content: row.content }))
      .reverse();
    return { id, messages };
  }

  /**
   * The question and its answer, stored together once the answer is complete, with the
   * conversation itself when this exchange starts it: one statement, atomic without a
   * transaction, so a burst of answers never waits on pooled transactions.
   */
  async addExchange(
    conversation: { id: string; start?: ConversationStart },
    question: string,
    answer: string,
    sources: Prisma.InputJsonValue,
    unanswered = false,
  ): Promise<Pick<ConversationMessage, 'id'>> {
    const { start } = conversation;
    const rows = await this.prisma.sql.query<{ id: string }>(STORE_EXCHANGE, [
      conversation.id,
      question,
      answer,
      JSON.stringify(sources),
      start?.pipelineId ?? null,
      start?.userId ?? null,
      start?.channel ?? null,
      start?.accessKeyId ?? null,
      start?.visitorHash ?? null,
      unanswered,
    ]);
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
