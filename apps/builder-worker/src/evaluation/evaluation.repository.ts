import { ZAnswerSource } from '@agentloom/contracts';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** Rated answers replayed per build: the newest, so a busy agent's evaluation stays small. */
export const RATED_ANSWERS_CHECKED = 50;

/** A rated answer of the agent's published conversations, with the question it answered. */
export interface RatedAnswer {
  id: string;
  question: string;
  /** The passages it cited ("sales.csv, row 3"), curated replies aside. */
  citations: string[];
}

export interface CuratedRow {
  id: string;
  question: string;
  answer: string;
  correctsMessageId: string | null;
}

/** What a build's evaluation reads of the agent: its rated answers and curated answers. */
@Injectable()
export class EvaluationRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** The newest answers with a thumbs up (1) or down (-1), each with the question before it. */
  async ratedAnswers(pipelineId: string, feedback: 1 | -1): Promise<RatedAnswer[]> {
    const rows = await this.prisma.client.$queryRaw<
      { id: string; question: string; sources: unknown }[]
    >`
      SELECT a.id, a.sources, q.content AS question
      FROM conversation_messages a
      JOIN conversations c ON c.id = a.conversation_id
      CROSS JOIN LATERAL (
        SELECT u.content FROM conversation_messages u
        WHERE u.conversation_id = a.conversation_id AND u.role = 'user'
          AND u.created_at < a.created_at
        ORDER BY u.created_at DESC LIMIT 1
      ) q
      WHERE c.pipeline_id = ${pipelineId}::uuid AND a.role = 'assistant'
        AND a.feedback = ${feedback}
      ORDER BY a.created_at DESC
      LIMIT ${RATED_ANSWERS_CHECKED}`;
    return rows.map((row) => ({ id: row.id, question: row.question, citations: citations(row) }));
  }

  curatedAnswers(pipelineId: string): Promise<CuratedRow[]> {
    return this.prisma.client.curatedAnswer.findMany({
      where: { pipelineId },
      select: { id: true, question: true, answer: true, correctsMessageId: true },
      orderBy: { createdAt: 'asc' },
    });
  }
}

function citations(row: { sources: unknown }): string[] {
  const sources = Array.isArray(row.sources) ? row.sources : [];
  const cited = sources.flatMap((source) => {
    const parsed = ZAnswerSource.safeParse(source);
    return parsed.success && !parsed.data.curated && parsed.data.citation
      ? [parsed.data.citation]
      : [];
  });
  return [...new Set(cited)];
}
