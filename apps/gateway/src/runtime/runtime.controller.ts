import { ZRuntimeAnswerRequest } from '@agentloom/contracts';
import {
  BadRequestException,
  Controller,
  Get,
  Headers,
  HttpStatus,
  Inject,
  Post,
  Req,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { describeZodError } from '../common/http-exception.filter';
import { APP_CONFIG, AppConfig } from '../config/env';
import { LocalAnswers } from '../agents/local-answers';
import { RUNTIME_ANSWERS_PATH, RUNTIME_SECRET_HEADER } from '../published/runtime-replicas';

/**
 * A runtime replica's two routes: the gateway's questions (behind the shared secret) and a
 * health check that says how many answers this replica has started since it began.
 */
@ApiExcludeController()
@Controller()
export class RuntimeController {
  private answers = 0;
  private readonly secretDigest: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly local: LocalAnswers,
  ) {
    this.secretDigest = digest(config.RUNTIME_SHARED_SECRET ?? '');
  }

  @Get('health')
  health(): { status: 'ok'; answers: number } {
    return { status: 'ok', answers: this.answers };
  }

  /**
   * One answer as server-sent events (`data: <agent event>`). Refusals before the first event
   * (unknown or unpublished build, an agent that cannot start) are a status and `{detail}`.
   */
  @Post(RUNTIME_ANSWERS_PATH)
  async answer(
    @Headers(RUNTIME_SECRET_HEADER) secret: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    // Compared as digests: same length, constant time, whatever was sent.
    if (!secret || !timingSafeEqual(digest(secret), this.secretDigest)) {
      throw new UnauthorizedException('This route is only for the Agentloom gateway.');
    }
    const parsed = ZRuntimeAnswerRequest.safeParse(request.body);
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    const { pipeline_id, build_id, user_id, message, history } = parsed.data;
    const stopped = new AbortController();
    response.on('close', () => stopped.abort());
    const events = await this.local.open(
      {
        target: { pipelineId: pipeline_id, buildId: build_id, userId: user_id },
        message,
        history,
      },
      stopped.signal,
    );
    this.answers += 1;
    response.status(HttpStatus.OK);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-store');
    response.flushHeaders();
    try {
      for await (const event of events) response.write(`data: ${JSON.stringify(event)}\n\n`);
    } catch (error) {
      if (!stopped.signal.aborted) {
        const detail = `The agent failed: ${(error as Error).message}`;
        response.write(`data: ${JSON.stringify({ type: 'error', detail })}\n\n`);
      }
    }
    response.end();
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
