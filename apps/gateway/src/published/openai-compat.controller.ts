import {
  PREVIEW_QUESTION_MAX_LENGTH,
  ZChatCompletionRequest,
  type TAnswerSource,
} from '@agentloom/contracts';
import {
  ArgumentsHost,
  BadRequestException,
  Body,
  Catch,
  Controller,
  ExceptionFilter,
  Headers,
  HttpException,
  HttpStatus,
  Inject,
  Post,
  Res,
  UseFilters,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import { openEventStream } from '../common/event-stream';
import { describeZodError } from '../common/http-exception.filter';
import { Public } from '../common/public.decorator';
import { APP_CONFIG, AppConfig } from '../config/env';
import { silenceDetail } from '../agents/provider-watchdog';
import { collectAnswer, startAnswer } from './chat-stream';
import {
  curatedSource,
  MEMORY_CHARACTERS_PER_TURN,
  PublishedAgentsService,
  splitOpenAiMessages,
} from './published-agents.service';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
};

/**
 * OpenAI's clients read errors as `{ error: { message, type, code } }`, so this API answers in
 * that shape (the rest of Agentloom answers `{ detail }`).
 */
@Catch()
export class OpenAiErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const status =
      exception instanceof HttpException ? exception.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
    const message =
      exception instanceof HttpException
        ? exception.message
        : 'The agent failed unexpectedly. Please try again.';
    if (response.headersSent) return void response.end();
    response.status(status).json({
      error: { message, type: ERROR_TYPES[status] ?? 'api_error', code: status, param: null },
    });
  }
}

/**
 * `POST /v1/chat/completions` for published agents: `model` is the agent's id and the bearer is
 * one of its access keys, so any OpenAI client library or tool can talk to the agent. The agent
 * remembers the earlier turns of `messages` within its own memory's budget (boundedMemory); the
 * sources of the answer travel in an extra `sources` field. Each call is stored as a conversation
 * of its own.
 */
@Public()
@ApiTags('published agents')
@ApiBearerAuth()
@UseFilters(OpenAiErrorFilter)
@Controller('v1')
export class OpenAiCompatController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly agents: PublishedAgentsService,
  ) {}

  @Post('chat/completions')
  @ApiOperation({
    summary: 'OpenAI-compatible chat completions for a published agent',
    description:
      'Set `model` to the agent id and use an access key of the agent as the API key. ' +
      'The last user message (at most 2,000 characters) is the question. Of the earlier ' +
      '`messages`, the agent remembers what its own memory holds: the newest ' +
      'PUBLISHED_MEMORY_TURNS question-and-answer pairs (default 6), at most ' +
      `${MEMORY_CHARACTERS_PER_TURN.toLocaleString('en')} characters a pair; older text is ` +
      'left out. Streaming (`stream: true`) sends OpenAI chat.completion.chunk events ending ' +
      'with [DONE].',
  })
  async completions(
    @Headers('authorization') authorization: string | undefined,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const parsed = ZChatCompletionRequest.safeParse(body);
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    const { model, messages, stream } = parsed.data;
    const { live, key } = await this.agents.authorize(authorization, model);
    const { question, history } = splitOpenAiMessages(messages);
    if (question.length > PREVIEW_QUESTION_MAX_LENGTH) {
      throw new BadRequestException(
        `A message can be at most ${PREVIEW_QUESTION_MAX_LENGTH} characters.`,
      );
    }
    const silenceMs = this.config.PROVIDER_TIMEOUT_MS;
    const started = await startAnswer(response, silenceMs, (signal) =>
      this.agents.chat(
        live,
        { message: question, history, channel: 'api', accessKey: key },
        signal,
      ),
    );
    const id = `chatcmpl-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    if (stream) return this.streamChunks(response, started, { id, created, model }, silenceMs);
    const answer = await collectAnswer(started, silenceMs);
    if ('error' in answer) throw new HttpException(answer.error, HttpStatus.BAD_GATEWAY);
    response.status(HttpStatus.OK).json({
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer.answer, refusal: null },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      conversation_id: answer.conversation_id,
      sources: answer.sources,
    });
  }

  /**
   * OpenAI's chunk stream: a role chunk (with this answer's sources), content chunks, a final
   * chunk with finish_reason, then `data: [DONE]`. An error mid-answer is sent as an `error`
   * object, which OpenAI's clients raise.
   */
  private async streamChunks(
    response: Response,
    started: Awaited<ReturnType<typeof startAnswer>>,
    meta: { id: string; created: number; model: string },
    silenceMs: number,
  ): Promise<void> {
    const { first, rest, watchdog } = started;
    openEventStream(response);
    const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
      response.write(
        `data: ${JSON.stringify({
          ...meta,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
          ...extra,
        })}\n\n`,
      );
    let failure: string | undefined;
    let sources: TAnswerSource[] = [];
    let opened = false;
    const open = () => {
      if (!opened) chunk({ role: 'assistant', content: '' }, null, { sources });
      opened = true;
    };
    try {
      for await (const event of first ? prepend(first, rest) : rest) {
        watchdog.alive();
        if (event.type === 'retrieval')
          sources = event.sources.map(({ citation, snippet, score }) => ({
            citation,
            snippet,
            score,
          }));
        else if (event.type === 'curated') sources = [curatedSource(event)];
        else if (event.type === 'sql') sources = [{ sql: event.sql }];
        else if (event.type === 'token') {
          open();
          chunk({ content: event.text });
        } else if (event.type === 'error') failure = event.detail;
      }
      watchdog.finish();
    } catch (error) {
      failure = `The agent failed: ${(error as Error).message}`;
      watchdog.stop();
    }
    if (watchdog.timedOut) failure = silenceDetail(silenceMs);
    if (failure) {
      response.write(
        `data: ${JSON.stringify({ error: { message: failure, type: 'api_error' } })}\n\n`,
      );
    } else {
      open();
      chunk({}, 'stop');
    }
    response.write('data: [DONE]\n\n');
    response.end();
  }
}

async function* prepend<T>(first: T, rest: AsyncGenerator<T>): AsyncGenerator<T> {
  yield first;
  yield* rest;
}
