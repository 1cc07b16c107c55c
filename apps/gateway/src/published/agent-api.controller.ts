import { ZAgentChatRequest, ZVisitorPassageRequest, type TPassageView } from '@agentloom/contracts';
import {
  BadGatewayException,
  BadRequestException,
  Body,
  Controller,
  Headers,
  HttpCode,
  HttpStatus,
  Inject,
  Param,
  Post,
  Res,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AgentChatAnswerDto, AgentChatRequestDto, PassageViewDto } from '../common/api-dtos';
import { describeZodError } from '../common/http-exception.filter';
import { Public } from '../common/public.decorator';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PassagesService } from '../passages/passages.service';
import { collectAnswer, startAnswer, streamEvents } from './chat-stream';
import { PublishedAgentsService } from './published-agents.service';

/**
 * The API of a published agent. Public to the JWT guard: the caller is a program holding one of
 * the agent's access keys (`Authorization: Bearer al_…`), checked on every request.
 */
@Public()
@ApiTags('published agents')
@ApiBearerAuth()
@Controller('agents')
export class AgentApiController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly agents: PublishedAgentsService,
    private readonly passages: PassagesService,
  ) {}

  @Post(':id/chat')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Ask a published agent',
    description:
      'Send one message with an access key of the agent as the bearer token. Pass the ' +
      '`conversation_id` of an earlier answer to continue that conversation: the agent remembers ' +
      'its last turns. `stream: true` answers as server-sent events (`conversation`, `retrieval` ' +
      'or `sql` + `table`, `token`…, `saved`, `done`, or `error`); otherwise one JSON answer with ' +
      'its sources. 401 for a missing or revoked key, 404 for an agent that is not published, ' +
      "429 over the key's rate limit.",
  })
  @ApiBody({ type: AgentChatRequestDto })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ type: AgentChatAnswerDto })
  async chat(
    @Param('id') id: string,
    @Headers('authorization') authorization: string | undefined,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const { live, key } = await this.agents.authorize(authorization, id);
    const parsed = ZAgentChatRequest.safeParse(body);
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    const request = parsed.data;
    const silenceMs = this.config.PROVIDER_TIMEOUT_MS;
    const started = await startAnswer(response, silenceMs, (signal) =>
      this.agents.chat(
        live,
        {
          message: request.message,
          conversationId: request.conversation_id,
          channel: 'api',
          accessKey: key,
        },
        signal,
      ),
    );
    if (request.stream) return streamEvents(response, started, silenceMs);
    const answer = await collectAnswer(started, silenceMs);
    if ('error' in answer) throw new BadGatewayException(answer.error);
    response.status(HttpStatus.OK).json(answer);
  }

  @Post(':id/passages')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    summary: 'Open a cited passage of a published agent',
    description:
      'With an access key of the agent: the passage a source of an answer names (its `id`), ' +
      'read from the published build, with the rows around it and their column names, or its ' +
      "page's text. 404 for an id that is not in the published build.",
  })
  @ApiOkResponse({ type: PassageViewDto })
  async passage(
    @Param('id') id: string,
    @Headers('authorization') authorization: string | undefined,
    @Body() body: unknown,
  ): Promise<TPassageView> {
    const { live } = await this.agents.authorize(authorization, id);
    const parsed = ZVisitorPassageRequest.safeParse(body);
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    return this.passages.open(
      { by: 'build', userId: live.userId, agentId: live.pipelineId, buildId: live.buildId },
      parsed.data.passage_id,
    );
  }
}
