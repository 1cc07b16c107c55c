import {
  CURATED_ANSWER_ROUTES,
  ZCuratedAnswerRequest,
  ZCuratedAnswerUpdate,
  type TCuratedAnswer,
  type TCuratedAnswers,
  type TMessageResponse,
} from '@agentloom/contracts';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Put,
} from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import {
  CuratedAnswerDto,
  CuratedAnswerRequestDto,
  CuratedAnswersDto,
  CuratedAnswerUpdateDto,
} from '../common/api-dtos';
import { CurrentUser } from '../common/current-user.decorator';
import { CuratedAnswersService } from './curated-answers.service';

/**
 * The owner's curated answers: a question close in meaning to one of them is answered with the
 * owner's text, in the preview and on every published channel. Owner only: another owner's agent
 * is 404.
 */
@ApiTags('curated answers')
@ApiBearerAuth()
@Controller()
export class CuratedAnswersController {
  constructor(private readonly curated: CuratedAnswersService) {}

  @Get(CURATED_ANSWER_ROUTES.list)
  @ApiOkResponse({ type: CuratedAnswersDto })
  async list(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<TCuratedAnswers> {
    return { answers: await this.curated.list(user.id, id) };
  }

  /** A question and its answer; or, from a conversation, the answer it corrects and the right one. */
  @Post(CURATED_ANSWER_ROUTES.list)
  @ApiCreatedResponse({ type: CuratedAnswerDto })
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: CuratedAnswerRequestDto,
  ): Promise<TCuratedAnswer> {
    return this.curated.create(user.id, id, ZCuratedAnswerRequest.parse(body));
  }

  /** The question, the answer or both; applies from the next question. */
  @Put(CURATED_ANSWER_ROUTES.one)
  @ApiOkResponse({ type: CuratedAnswerDto })
  update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('answerId') answerId: string,
    @Body() body: CuratedAnswerUpdateDto,
  ): Promise<TCuratedAnswer> {
    return this.curated.update(user.id, id, answerId, ZCuratedAnswerUpdate.parse(body));
  }

  /** The same as PUT: either or both fields. */
  @Patch(CURATED_ANSWER_ROUTES.one)
  @ApiOkResponse({ type: CuratedAnswerDto })
  patch(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('answerId') answerId: string,
    @Body() body: CuratedAnswerUpdateDto,
  ): Promise<TCuratedAnswer> {
    return this.update(user, id, answerId, body);
  }

  @Delete(CURATED_ANSWER_ROUTES.one)
  @HttpCode(HttpStatus.OK)
  async remove(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Param('answerId') answerId: string,
  ): Promise<TMessageResponse> {
    await this.curated.remove(user.id, id, answerId);
    return { message: 'Curated answer deleted.' };
  }
}
