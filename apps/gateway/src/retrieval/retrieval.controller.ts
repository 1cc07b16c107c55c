import {
  RETRIEVAL_ROUTES,
  ZRetrievalSettingsRequest,
  ZRetrievalTestRequest,
  type TRetrievalSettingsView,
  type TRetrievalTestResult,
} from '@agentloom/contracts';
import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import {
  RetrievalSettingsRequestDto,
  RetrievalSettingsViewDto,
  RetrievalTestRequestDto,
  RetrievalTestResultDto,
} from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { RetrievalService } from './retrieval.service';

/**
 * How a RAG agent finds the passages it answers from: its settings in plain words, and the test
 * that shows which passages a question would read. Owner only: another owner's agent is 404.
 */
@ApiTags('retrieval')
@ApiBearerAuth()
@Controller()
export class RetrievalController {
  constructor(private readonly retrieval: RetrievalService) {}

  @Get(RETRIEVAL_ROUTES.settings)
  @ApiOkResponse({ type: RetrievalSettingsViewDto })
  settings(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TRetrievalSettingsView> {
    return this.retrieval.settings(user.id, id);
  }

  /** Any of the settings; the others keep their value. They apply from the agent's next build. */
  @Put(RETRIEVAL_ROUTES.settings)
  @ApiOkResponse({ type: RetrievalSettingsViewDto })
  update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: RetrievalSettingsRequestDto,
  ): Promise<TRetrievalSettingsView> {
    return this.retrieval.update(user.id, id, ZRetrievalSettingsRequest.parse(body));
  }

  /** The passages an answer to the question would read, searched in the newest build. */
  @Post(RETRIEVAL_ROUTES.test)
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: RetrievalTestResultDto })
  test(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: RetrievalTestRequestDto,
  ): Promise<TRetrievalTestResult> {
    return this.retrieval.test(user.id, id, ZRetrievalTestRequest.parse(body).question);
  }
}
