import {
  PASSAGE_NOT_FOUND,
  ZAgentChatRequest,
  ZMessageFeedback,
  ZVisitorPassageRequest,
  type TMessageResponse,
  type TPassageView,
} from '@agentloom/contracts';
import {
  BadRequestException,
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
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { describeZodError } from '../common/http-exception.filter';
import { Public } from '../common/public.decorator';
import { sendPageAsset, setPagePolicy } from '../common/served-pages';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PassagesService } from '../passages/passages.service';
import { startAnswer, streamEvents } from './chat-stream';
import { renderNotFoundPage, renderPublishedPage } from './published-page';
import { PublishedAgentsService, type ChatEvent } from './published-agents.service';
import { RefusedOrigins } from './refused-origins';
import type { NamedPublication } from './published.repository';
import { ORIGIN_NOT_ALLOWED, VisitorAccess, type Via } from './visitor-access';

export { ORIGIN_NOT_ALLOWED };
/** The share page's and widget's scripts and styles; only these names are served. */
const ASSETS = ['common.js', 'published-chat.js', 'published.css', 'widget.js'];

/**
 * The share page (`/s/{id}/`), the embeddable widget (`/w/widget.js` and its chat frame
 * `/w/{id}/chat`) and the calls their script makes. No key is in any page: visitors are limited
 * per address instead, and each way in works only while its owner has it on. The embed script's
 * first call is answered only to the allowed sites (an origin check with CORS); the frame opens
 * only for one of them, which alone may frame it (`frame-ancestors`); and the page's calls are
 * admitted only with the visitor session it was served with (visitor-access.ts).
 */
@Public()
@ApiExcludeController()
@Controller()
export class WidgetController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly agents: PublishedAgentsService,
    private readonly visitors: VisitorAccess,
    private readonly refused: RefusedOrigins,
    private readonly passages: PassagesService,
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
    const live = await this.visitors.openLive(id, 'widget');
    // The refusal is readable too, so the script can tell the site's developer why.
    if (origin) response.setHeader('Access-Control-Allow-Origin', origin);
    response.setHeader('Vary', 'Origin');
    const site = origin?.toLowerCase();
    if (!site || !live.allowedOrigins.includes(site)) {
      // Told to the owner in the publish panel, and to the visitor by the script's notice.
      if (site) await this.refused.record(live.pipelineId, site);
      throw new ForbiddenException(ORIGIN_NOT_ALLOWED);
    }
    const chat = `/w/${live.pipelineId}/chat?site=${encodeURIComponent(site)}`;
    response.json({ name: live.pipeline.name, chat_url: this.url(chat) });
  }

  /**
   * The widget's frame, for the allowed site the embed script named. Only that site may frame it,
   * and a browser opening it as a page of its own (Sec-Fetch-Dest: document) is refused: it is
   * no share page.
   */
  @Get('w/:id/chat')
  widgetPage(
    @Param('id') id: string,
    @Query('site') site: unknown,
    @Headers('sec-fetch-dest') destination: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const framed = destination === undefined || destination === 'iframe';
    const siteName = typeof site === 'string' && framed ? site.toLowerCase() : null;
    return this.page(id, 'widget', siteName, response);
  }

  @Get('s/:id')
  sharePage(@Param('id') id: string, @Res() response: Response): Promise<void> {
    return this.page(id, 'share', null, response);
  }

  /** One visitor message, answered as server-sent events (the same events as the API's). */
  @Post('w/:id/messages')
  async message(
    @Param('id') id: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const { live, session } = await this.visitors.admit(id, request);
    const parsed = ZAgentChatRequest.safeParse(request.body);
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    await this.agents.visitorRateLimit(live.pipelineId, request.ip ?? 'unknown');
    const silenceMs = this.config.PROVIDER_TIMEOUT_MS;
    const { message, conversation_id: conversationId } = parsed.data;
    const started = await startAnswer(response, silenceMs, (signal) => {
      const events = this.agents.chat(
        live,
        { message, conversationId, channel: session.via, visitorHash: session.hash },
        signal,
      );
      return live.showSources ? events : withoutSources(events);
    });
    return streamEvents(response, started, silenceMs);
  }

  @Post('w/:id/messages/:messageId/feedback')
  @HttpCode(HttpStatus.OK)
  async feedback(
    @Param('id') id: string,
    @Param('messageId') messageId: string,
    @Req() request: Request,
  ): Promise<TMessageResponse> {
    const { live, session } = await this.visitors.admit(id, request);
    const parsed = ZMessageFeedback.safeParse(request.body);
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    await this.agents.feedback(live.pipelineId, messageId, parsed.data, {
      channel: session.via,
      visitorHash: session.hash,
    });
    return { message: 'Thank you for your feedback' };
  }

  /**
   * A passage an answer cited, from the published build, admitted as the page's messages are;
   * none when the owner keeps sources from visitors.
   */
  @Post('w/:id/passages')
  @HttpCode(HttpStatus.OK)
  async passage(@Param('id') id: string, @Req() request: Request): Promise<TPassageView> {
    const { live } = await this.visitors.admit(id, request);
    const parsed = ZVisitorPassageRequest.safeParse(request.body);
    if (!parsed.success) throw new BadRequestException(describeZodError(parsed.error));
    if (!live.showSources) throw new NotFoundException(PASSAGE_NOT_FOUND);
    return this.passages.open(
      { by: 'build', userId: live.userId, agentId: live.pipelineId, buildId: live.buildId },
      parsed.data.passage_id,
    );
  }

  private async page(id: string, via: Via, site: string | null, response: Response): Promise<void> {
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Referrer-Policy', 'no-referrer');
    let live: NamedPublication;
    try {
      live = await this.visitors.openLive(id, via);
    } catch (error) {
      if (!(error instanceof NotFoundException)) throw error;
      this.headers(response, []);
      response.status(HttpStatus.NOT_FOUND).type('html').send(renderNotFoundPage());
      return;
    }
    // A frame opened as a page, or for a site that is not allowed: the same plain page, 403.
    if (via === 'widget' && !(site && live.allowedOrigins.includes(site))) {
      this.headers(response, []);
      response.status(HttpStatus.FORBIDDEN).type('html').send(renderNotFoundPage());
      return;
    }
    this.headers(response, site ? [site] : []);
    response.type('html').send(
      renderPublishedPage({
        agentId: live.pipelineId,
        name: live.pipeline.name,
        kind: live.pipeline.agentType,
        mode: via,
        session: this.visitors.issue(live.pipelineId, via, site),
      }),
    );
  }

  /** The page runs only its own script; only the allowed sites may frame it (none: the share page). */
  private headers(response: Response, ancestors: string[]): void {
    setPagePolicy(response, { frameAncestors: ancestors, imageSources: "'self' data:" });
  }

  private url(pathname: string): string {
    return new URL(pathname, this.config.PUBLIC_URL).toString();
  }
}

/**
 * A visitor's answer without what it was made from — passages, rows, the SQL and its table — for
 * agents whose owner keeps sources from visitors (table sources, by default). The owner's
 * conversations still record them.
 */
async function* withoutSources(events: AsyncGenerator<ChatEvent>): AsyncGenerator<ChatEvent> {
  for await (const event of events) {
    if (event.type === 'sql' || event.type === 'table') continue;
    if (event.type === 'retrieval') yield { ...event, sources: [] };
    else if (event.type === 'saved') yield { ...event, sources: [] };
    else yield event;
  }
}
