import { ZPreviewQuestion, type TPassageView, type TPreviewInfo } from '@agentloom/contracts';
import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpStatus,
  Inject,
  Param,
  Post,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { openEventStream, writeEvent } from '../common/event-stream';
import { Public } from '../common/public.decorator';
import { sendPageAsset, setPagePolicy } from '../common/served-pages';
import { APP_CONFIG, AppConfig } from '../config/env';
import { plainError } from '../agents/plain-errors';
import { ProviderWatchdog, relayEvents } from '../agents/provider-watchdog';
import { PassagesService } from '../passages/passages.service';
import { PREVIEW_NOT_FOUND, PreviewGrantStore } from './preview-grants';
import { renderMissingPage, renderPreviewPage } from './preview-page';
import { PreviewsService } from './previews.service';

/** The page's script and styles; only these names are served. */
const ASSETS = ['common.js', 'preview.js', 'image.js', 'preview.css'];

/**
 * The preview pages the web app embeds: `/p/{token}/` and the calls its script makes. No bearer
 * header here (an iframe cannot send one); the token in the path is the access, checked on every
 * call, and an unknown or expired token is a 404 like any missing page.
 */
@Public()
@ApiExcludeController()
@Controller('p')
export class PreviewPagesController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly grants: PreviewGrantStore,
    private readonly previews: PreviewsService,
    private readonly passages: PassagesService,
  ) {}

  @Get('_assets/:file')
  asset(@Param('file') file: string, @Res() response: Response): Promise<void> {
    return sendPageAsset(response, file, ASSETS);
  }

  @Get(':token')
  async page(@Param('token') token: string, @Res() response: Response): Promise<void> {
    this.framable(response);
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Referrer-Policy', 'no-referrer');
    const grant = await this.grants.find(token);
    if (!grant) {
      response.status(HttpStatus.NOT_FOUND).type('html').send(renderMissingPage(PREVIEW_NOT_FOUND));
      return;
    }
    if (grant.kind === 'image') {
      response
        .type('html')
        .send(
          renderPreviewPage({ kind: 'image', name: 'AI Image Generation Agent', ui: 'streamlit' }),
        );
      return;
    }
    try {
      const agent = await this.previews.agentFor(grant);
      response
        .type('html')
        .send(renderPreviewPage({ kind: agent.kind, name: agent.name, ui: agent.ui }));
    } catch (error) {
      const detail = (error as { message?: string }).message ?? 'The preview could not start.';
      response.status(statusOf(error)).type('html').send(renderMissingPage(detail));
    }
  }

  @Get(':token/info')
  async info(@Param('token') token: string): Promise<TPreviewInfo> {
    const grant = await this.grants.require(token, ['rag', 'sql']);
    const agent = await this.previews.agentFor(grant);
    return {
      kind: agent.kind,
      name: agent.name,
      ui: agent.ui,
      source: agent.sourceLabel,
      retrieval: agent.retrieval ?? null,
      tables: agent.tables ?? null,
      memory_bytes: agent.memoryBytes(),
      expires_at: grant.expiresAt,
    };
  }

  /** A passage an answer of this preview cited, from the preview's build (docs/retrieval.md). */
  @Get(':token/passages/:passageId')
  async passage(
    @Param('token') token: string,
    @Param('passageId') passageId: string,
  ): Promise<TPassageView> {
    const grant = await this.grants.require(token, ['rag']);
    return this.passages.open(
      {
        by: 'build',
        userId: grant.userId,
        agentId: grant.pipelineId ?? '',
        buildId: grant.buildId ?? '',
      },
      passageId,
    );
  }

  /**
   * One question, answered as server-sent events: `retrieval` (sources) or `sql` + `table`, then
   * `token`s as the model writes, then `done` — or `error` with a detail. A closed page stops
   * the provider call, and so does a provider silent for PROVIDER_TIMEOUT_MS (the page is told).
   */
  @Post(':token/ask')
  async ask(
    @Param('token') token: string,
    @Body() body: unknown,
    @Res() response: Response,
  ): Promise<void> {
    const grant = await this.grants.require(token, ['rag', 'sql']);
    const parsed = ZPreviewQuestion.safeParse(body);
    if (!parsed.success) {
      throw new BadRequestException(parsed.error.issues[0]?.message ?? 'Type a question first.');
    }
    const agent = await this.previews.agentFor(grant);
    const watchdog = new ProviderWatchdog(this.config.PROVIDER_TIMEOUT_MS);
    response.on('close', () => watchdog.stop());
    openEventStream(response);
    // A failure goes out in plain words too, with the step that fixes it (plain-errors.ts).
    const events = agent.ask(parsed.data.question, watchdog.signal);
    await relayEvents(events, watchdog, this.config.PROVIDER_TIMEOUT_MS, (event) =>
      writeEvent(response, event.type === 'error' ? plainError(event, agent.setup) : event),
    );
    response.end();
  }

  /**
   * The gateway's default headers forbid framing; preview pages are made to be framed by the
   * web app (and only by it), and run nothing but their own script.
   */
  private framable(response: Response): void {
    setPagePolicy(response, {
      frameAncestors: ["'self'", ...this.config.CORS_ORIGINS],
      imageSources: "'self' data: blob:",
    });
  }
}

function statusOf(error: unknown): number {
  const status = (error as { getStatus?: () => number }).getStatus?.();
  return typeof status === 'number' ? status : HttpStatus.UNPROCESSABLE_ENTITY;
}
