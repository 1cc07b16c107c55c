import { ZAgentChatRequest, ZMessageFeedback, type TMessageResponse } from '@agentloom/contracts';
import {
  BadRequestException,
  Body,
  Controller,
  ForbiddenException,
  Get,
  Headers,
  HttpCode,
  HttpStatus,
  Inject,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { describeZodError } from '../common/http-exception.filter';
import { Public } from '../common/public.decorator';
import { sendPageAsset, setPagePolicy } from '../common/served-pages';
import { APP_CONFIG, AppConfig } from '../config/env';
import { startAnswer, streamEvents } from './chat-stream';
import { renderNotFoundPage, renderPublishedPage } from './published-page';
import { AGENT_NOT_FOUND, PublishedAgentsService } from './published-agents.service';
import type { NamedPublication } from './published.repository';

export const ORIGIN_NOT_ALLOWED =
  "This site may not embed this agent. Its owner can add the site to the agent's allowed sites.";
/** The share page's and widget's scripts and styles; only these names are served. */
const ASSETS = ['common.js', 'published-chat.js', 'published.css', 'widget.js'];

type Via = 'share' | 'widget';
/** The share page is on when its owner turned it on; the widget when at least one site may embed it. */
const isOpen = (live: NamedPublication, via: Via) =>
  via === 'share' ? live.shareEnabled : live.allowedOrigins.length > 0;

/**
 * The share page (`/s/{id}/`), the embeddable widget (`/w/widget.js` and its chat frame
 * `/w/{id}/chat`) and the calls their script makes. No key is in any page: visitors are limited
 * per address instead, and each way in works only while its owner has it on. The frame may be
 * embedded only by the allowed sites (`frame-ancestors`), and the embed script's first call is
 * answered only to them (an origin check with CORS).
 */
@Public()
@ApiExcludeController()
@Controller()
export class WidgetController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly agents: PublishedAgentsService,
  ) {}

  @Get('w/widget.js')
  widgetScript(@Res() response: Response): Promise<void> {
    return sendPageAsset(response, 'widget.js', ASSETS);
  }

  @Get('w/_assets/:file')
  asset(@Param('file') file: string, @Res() response: Response): Promise<void> {
    return sendPageAsset(response, file, ASSETS);
  }

  /** The embed script asks first: allowed sites get the agent's name, others a 403. */
  @Get('w/:id/config')
  async widgetConfig(
    @Param('id') id: string,
    @Headers('origin') origin: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const live = await this.openLive(id, 'widget');
    // The refusal is readable too, so the script can tell the site's developer why.
    if (origin) response.setHeader('Access-Control-Allow-Origin', origin);
    response.setHeader('Vary', 'Origin');
    if (!origin || !live.allowedOrigins.includes(origin.toLowerCase())) {
      throw new ForbiddenException(ORIGIN_NOT_ALLOWED);
    }
    response.json({ name: live.pipeline.name, chat_url: this.url(`/w/${live.pipelineId}/chat`) });
  }

  @Get('w/:id/chat')
  widgetPage(@Param('id') id: string, @Res() response: Response): Promise<void> {
    return this.page(id, 'widget', response);
  }

  @Get('s/:id')
  sharePage(@Param('id') id: string, @Res() response: Response): Promise<void> {
    return this.page(id, 'share', response);
  }

  /** One visitor message, answered as server-sent events (the same events as the API's). */
  @Post('w/:id/messages')
  async message(
    @Param('id') id: string,
    @Body() body: { via?: unknown } & Record<string, unknown>,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const via: Via = body.via === 'share' ? 'share' : 'widget';
    const live = await this.openLive(id, via);
    const parsed = ZAgentChatRequest.safeParse(body);
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    await this.agents.visitorRateLimit(live.pipelineId, request.ip ?? 'unknown');
    const silenceMs = this.config.PROVIDER_TIMEOUT_MS;
    const started = await startAnswer(response, silenceMs, (signal) =>
      this.agents.chat(
        live,
        { message: parsed.data.message, conversationId: parsed.data.conversation_id, channel: via },
        signal,
      ),
    );
    return streamEvents(response, started, silenceMs);
  }

  @Post('w/:id/messages/:messageId/feedback')
  @HttpCode(HttpStatus.OK)
  async feedback(
    @Param('id') id: string,
    @Param('messageId') messageId: string,
    @Body() body: unknown,
  ): Promise<TMessageResponse> {
    const live = await this.agents.findLive(id);
    if (!isOpen(live, 'share') && !isOpen(live, 'widget')) {
      throw new NotFoundException(AGENT_NOT_FOUND);
    }
    const parsed = ZMessageFeedback.safeParse(body);
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    await this.agents.feedback(
      live.pipelineId,
      messageId,
      parsed.data.conversation_id,
      parsed.data.rating,
    );
    return { message: 'Thank you for your feedback' };
  }

  private async page(id: string, via: Via, response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Referrer-Policy', 'no-referrer');
    let live: NamedPublication;
    try {
      live = await this.openLive(id, via);
    } catch (error) {
      if (!(error instanceof NotFoundException)) throw error;
      this.headers(response, []);
      response.status(HttpStatus.NOT_FOUND).type('html').send(renderNotFoundPage());
      return;
    }
    this.headers(response, via === 'widget' ? live.allowedOrigins : []);
    response.type('html').send(
      renderPublishedPage({
        agentId: live.pipelineId,
        name: live.pipeline.name,
        kind: live.pipeline.agentType,
        mode: via,
      }),
    );
  }

  private async openLive(id: string, via: Via): Promise<NamedPublication> {
    const live = await this.agents.findLive(id);
    if (!isOpen(live, via)) throw new NotFoundException(AGENT_NOT_FOUND);
    return live;
  }

  /** The page runs only its own script; only the allowed sites may frame it (none: the share page). */
  private headers(response: Response, ancestors: string[]): void {
    setPagePolicy(response, { frameAncestors: ancestors, imageSources: "'self' data:" });
  }

  private url(pathname: string): string {
    return new URL(pathname, this.config.PUBLIC_URL).toString();
  }
}
