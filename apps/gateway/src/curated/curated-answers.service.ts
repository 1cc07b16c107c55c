import {
  CURATED_ANSWERS_MAX_PER_AGENT,
  CURATED_QUESTION_MAX,
  isUuid,
  type TCuratedAnswer,
  type TCuratedAnswerRequest,
  type TCuratedAnswerUpdate,
} from '@agentloom/contracts';
import type { CuratedAnswer } from '@agentloom/db';
import { Injectable, NotFoundException, UnprocessableEntityException } from '@nestjs/common';
import { CuratedVersions } from '../agents/curated-versions';
import { PipelinesService } from '../pipelines/pipelines.service';
import { CuratedAnswersRepository } from './curated-answers.repository';

export const CURATED_ANSWER_NOT_FOUND = 'Curated answer not found.';
export const CORRECTED_ANSWER_NOT_FOUND =
  'This answer is not in any of this agent’s conversations (it may have been deleted with its conversation).';
export const TOO_MANY_CURATED = `An agent can have at most ${CURATED_ANSWERS_MAX_PER_AGENT} curated answers. Delete some you no longer need first.`;

/**
 * The owner's curated answers of an agent (RAG and SQL alike): written, listed, changed and
 * deleted by its owner only — another owner's agent or answer is a 404. The loaded agents keep
 * them (CuratedMatcher); each change moves their version on, so the next question on any replica
 * reads them again: a change applies to the next question, with no build.
 */
@Injectable()
export class CuratedAnswersService {
  constructor(
    private readonly pipelines: PipelinesService,
    private readonly answers: CuratedAnswersRepository,
    private readonly versions: CuratedVersions,
  ) {}

  async list(userId: string, agentId: string): Promise<TCuratedAnswer[]> {
    const pipeline = await this.pipelines.findOwned(userId, agentId);
    return (await this.answers.listOwned(pipeline.id, userId)).map(viewOf);
  }

  /**
   * A new curated answer. Written from a conversation (`corrects_message_id`), its question is
   * the one that answer was given to unless the owner typed another.
   */
  async create(
    userId: string,
    agentId: string,
    request: TCuratedAnswerRequest,
  ): Promise<TCuratedAnswer> {
    const pipeline = await this.pipelines.findOwned(userId, agentId);
    let question = request.question;
    const corrects = request.corrects_message_id ?? null;
    if (corrects) {
      const asked = await this.answers.questionOfAnswer(corrects, pipeline.id, userId);
      if (asked === null) throw new UnprocessableEntityException(CORRECTED_ANSWER_NOT_FOUND);
      // A visitor's question can be longer than a curated one: its start is kept.
      question ??= asked.trim().slice(0, CURATED_QUESTION_MAX);
    }
    if ((await this.answers.countOf(pipeline.id)) >= CURATED_ANSWERS_MAX_PER_AGENT) {
      throw new UnprocessableEntityException(TOO_MANY_CURATED);
    }
    const created = await this.answers.create({
      pipelineId: pipeline.id,
      userId,
      question: question!,
      answer: request.answer,
      correctsMessageId: corrects,
    });
    await this.versions.changed(pipeline.id);
    return viewOf(created);
  }

  async update(
    userId: string,
    agentId: string,
    answerId: string,
    update: TCuratedAnswerUpdate,
  ): Promise<TCuratedAnswer> {
    const pipeline = await this.pipelines.findOwned(userId, agentId);
    const updated = isUuid(answerId)
      ? await this.answers.updateOwned(answerId, pipeline.id, userId, update)
      : null;
    if (!updated) throw new NotFoundException(CURATED_ANSWER_NOT_FOUND);
    await this.versions.changed(pipeline.id);
    return viewOf(updated);
  }

  async remove(userId: string, agentId: string, answerId: string): Promise<void> {
    const pipeline = await this.pipelines.findOwned(userId, agentId);
    const removed =
      isUuid(answerId) && (await this.answers.removeOwned(answerId, pipeline.id, userId));
    if (!removed) throw new NotFoundException(CURATED_ANSWER_NOT_FOUND);
    await this.versions.changed(pipeline.id);
  }
}

function viewOf(answer: CuratedAnswer): TCuratedAnswer {
  return {
    id: answer.id,
    question: answer.question,
    answer: answer.answer,
    corrects_message_id: answer.correctsMessageId,
    created_at: answer.createdAt.toISOString(),
    updated_at: answer.updatedAt.toISOString(),
  };
}
