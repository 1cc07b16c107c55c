import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** An answer of the agent worth a look, with the question before it (see listAnswers). */
export interface AnswerRow {
  id: string;
  conversationId: string;
  question: string | null;
  answer: string;
  createdAt: Date;
  curatedAnswerId: string | null;
  total: number;
}

/** The owner's insights, read from the agent's conversations (never written here). */
@Injectable()
export class InsightsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Questions asked per UTC day since `since`: only days that had one. */
  questionsPerDay(
    pipelineId: string,
    userId: string,
    since: Date,
  ): Promise<{ day: string; questions: number }[]> {
    return this.prisma.client.$queryRaw`
      SELECT to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
             count(*)::int AS questions
      FROM conversation_messages m
      JOIN conversations c ON c.id = m.conversation_id
      WHERE c.pipeline_id = ${pipelineId}::uuid AND c.user_id = ${userId}::uuid
        AND m.role = 'user' AND m.created_at >= ${since}
      GROUP BY 1`;
  }

  /**
   * The agent's answers since `since` that it gave without a source (`unanswered`) or that got a
   * thumbs down, newest first, at most `limit`: each with the conversation's question before it,
   * the curated answer written for it if any, and how many there are in all.
   */
  listAnswers(
    pipelineId: string,
    userId: string,
    since: Date,
    kind: 'unanswered' | 'thumbs_down',
    limit: number,
  ): Promise<AnswerRow[]> {
    const unanswered = kind === 'unanswered';
    return this.prisma.client.$queryRaw`
      SELECT m.id, m.conversation_id AS "conversationId", m.content AS answer,
             m.created_at AS "createdAt", q.content AS question,
             (SELECT ca.id FROM curated_answers ca
              WHERE ca.corrects_message_id = m.id AND ca.pipeline_id = c.pipeline_id
              ORDER BY ca.created_at DESC LIMIT 1) AS "curatedAnswerId",
             count(*) OVER ()::int AS total
      FROM conversation_messages m
      JOIN conversations c ON c.id = m.conversation_id
      LEFT JOIN LATERAL (
        SELECT u.content FROM conversation_messages u
        WHERE u.conversation_id = m.conversation_id AND u.role = 'user'
          AND u.created_at < m.created_at
        ORDER BY u.created_at DESC LIMIT 1
      ) q ON true
      WHERE c.pipeline_id = ${pipelineId}::uuid AND c.user_id = ${userId}::uuid
        AND m.role = 'assistant' AND m.created_at >= ${since}
        AND (CASE WHEN ${unanswered}::boolean THEN m.unanswered ELSE m.feedback = -1 END)
      ORDER BY m.created_at DESC
      LIMIT ${limit}::int`;
  }
}
