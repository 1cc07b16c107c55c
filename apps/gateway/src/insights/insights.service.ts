import {
  INSIGHTS_DAYS,
  INSIGHTS_LIST_MAX,
  type TAgentInsights,
  type TInsightAnswers,
} from '@agentloom/contracts';
import { Injectable } from '@nestjs/common';
import { PipelinesService } from '../pipelines/pipelines.service';
import { InsightsRepository, type AnswerRow } from './insights.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What the owner learns from an agent's published conversations over the last INSIGHTS_DAYS
 * days: questions per day, and the answers given without a source or with a thumbs down, each
 * with its question (for "write the right answer"). Owner only: another owner's agent is 404.
 */
@Injectable()
export class InsightsService {
  constructor(
    private readonly pipelines: PipelinesService,
    private readonly insights: InsightsRepository,
  ) {}

  async of(userId: string, agentId: string, now = new Date()): Promise<TAgentInsights> {
    const pipeline = await this.pipelines.findOwned(userId, agentId);
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const since = new Date(today - (INSIGHTS_DAYS - 1) * DAY_MS);
    const [perDay, unanswered, thumbsDown] = await Promise.all([
      this.insights.questionsPerDay(pipeline.id, userId, since),
      this.answers(pipeline.id, userId, since, 'unanswered'),
      this.answers(pipeline.id, userId, since, 'thumbs_down'),
    ]);
    const counted = new Map(perDay.map((row) => [row.day, row.questions]));
    const days = Array.from({ length: INSIGHTS_DAYS }, (_, i) => {
      const date = new Date(since.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      return { date, questions: counted.get(date) ?? 0 };
    });
    return {
      days,
      questions: days.reduce((sum, day) => sum + day.questions, 0),
      unanswered,
      thumbs_down: thumbsDown,
    };
  }

  private async answers(
    pipelineId: string,
    userId: string,
    since: Date,
    kind: 'unanswered' | 'thumbs_down',
  ): Promise<TInsightAnswers> {
    const rows = await this.insights.listAnswers(
      pipelineId,
      userId,
      since,
      kind,
      INSIGHTS_LIST_MAX,
    );
    return { total: rows[0]?.total ?? 0, answers: rows.map(answerOf) };
  }
}

function answerOf(row: AnswerRow) {
  return {
    message_id: row.id,
    conversation_id: row.conversationId,
    question: row.question ?? '',
    answer: row.answer,
    answered_at: row.createdAt.toISOString(),
    curated_answer_id: row.curatedAnswerId,
  };
}
