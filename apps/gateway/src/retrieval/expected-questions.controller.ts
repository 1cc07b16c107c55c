import {
  EVALUATION_ROUTES,
  storedAnswers,
  ZExpectedQuestions,
  type TExpectedQuestions,
} from '@agentloom/contracts';
import { Body, Controller, Get, Injectable, NotFoundException, Param, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { createZodDto } from 'nestjs-zod';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { CurrentUser } from '../common/current-user.decorator';
import { readConfig } from '../pipelines/pipeline-view';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { PIPELINE_NOT_FOUND } from '../pipelines/pipelines.service';
import { RetrievalService } from './retrieval.service';

class ExpectedQuestionsDto extends createZodDto(ZExpectedQuestions) {}

/**
 * A RAG agent's "Questions you expect" (docs/evaluation.md): kept in its configuration, checked by
 * each of its builds. Saving them needs no build and is allowed while one runs (the next build
 * checks the new ones). Owner only: another owner's agent is 404; a SQL agent is 422.
 */
@Injectable()
export class ExpectedQuestionsService {
  constructor(
    private readonly retrieval: RetrievalService,
    private readonly pipelines: PipelinesRepository,
  ) {}

  async read(userId: string, agentId: string): Promise<TExpectedQuestions> {
    const config = readConfig(await this.retrieval.ragAgent(userId, agentId));
    return { questions: (config.agent_type === 'rag' && config.expected_questions) || [] };
  }

  async save(userId: string, agentId: string, request: TExpectedQuestions) {
    const pipeline = await this.retrieval.ragAgent(userId, agentId);
    const config = readConfig(pipeline);
    if (config.agent_type !== 'rag') throw new NotFoundException(PIPELINE_NOT_FOUND);
    const questions = [...new Set(request.questions)];
    const updated = await this.pipelines.updateOwned(pipeline.id, userId, {
      config: storedAnswers({ ...config, expected_questions: questions }),
    });
    if (!updated) throw new NotFoundException(PIPELINE_NOT_FOUND);
    return { questions };
  }
}

@ApiTags('retrieval')
@ApiBearerAuth()
@Controller()
export class ExpectedQuestionsController {
  constructor(private readonly questions: ExpectedQuestionsService) {}

  @Get(EVALUATION_ROUTES.expectedQuestions)
  @ApiOkResponse({ type: ExpectedQuestionsDto })
  read(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TExpectedQuestions> {
    return this.questions.read(user.id, id);
  }

  /** The whole list, replacing the one saved (at most 20; repeated questions are kept once). */
  @Put(EVALUATION_ROUTES.expectedQuestions)
  @ApiOkResponse({ type: ExpectedQuestionsDto })
  save(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: ExpectedQuestionsDto,
  ): Promise<TExpectedQuestions> {
    return this.questions.save(user.id, id, ZExpectedQuestions.parse(body));
  }
}
