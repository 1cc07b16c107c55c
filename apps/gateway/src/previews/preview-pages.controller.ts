import { generateImage, type AgentEvent } from '@agentloom/agent-runtime';
import { ZPreviewQuestion, type TPreviewInfo } from '@agentloom/contracts';
import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Inject,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { Public } from '../common/public.decorator';
import { APP_CONFIG, AppConfig } from '../config/env';
import { sniffMimeTypes } from '../files/detect-file-type';
import { SingleFileUpload } from '../files/single-file-upload.interceptor';
import { plainError } from './plain-errors';
import { PreviewGrantStore, type PreviewGrant, type PreviewKind } from './preview-grants';
import { renderMissingPage, renderPreviewPage } from './preview-page';
import { PreviewSessions } from './preview-sessions';
import { ProviderWatchdog } from './provider-watchdog';

export const PREVIEW_NOT_FOUND = 'This preview link has expired or does not exist.';
const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
/** The page's script and styles; only these names are served. */
const ASSETS: Record<string, string> = {
  'common.js': 'text/javascript; charset=utf-8',
  'preview.js': 'text/javascript; charset=utf-8',
  'image.js': 'text/javascript; charset=utf-8',
  'preview.css': 'text/css; charset=utf-8',
};
const ASSETS_DIR = path.resolve(__dirname, '../../preview-assets');

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
    private readonly sessions: PreviewSessions,
    private readonly apiKeys: ApiKeysService,
  ) {}

  @Get('_assets/:file')
  async asset(@Param('file') file: string, @Res() response: Response): Promise<void> {
    const type = ASSETS[file];
    if (!type) throw new NotFoundException('Not found.');
    response.setHeader('Content-Type', type);
    response.setHeader('Cache-Control', 'public, max-age=300');
    response.send(await readFile(path.join(ASSETS_DIR, file)));
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
      const agent = await this.sessions.agentFor(grant);
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
    const grant = await this.grantOf(token, ['rag', 'sql']);
    const agent = await this.sessions.agentFor(grant);
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

  /**
   * One question, answered as server-sent events: `retrieval` (sources) or `sql` + `table`, then
   * `token`s as the model writes, then `done` — or `error` with a detail. A closed page stops
   * the provider call, and so does a provider silent for PROVIDER_TIMEOUT_MS (the page is told).
   */
  @Post(':token/ask')
  async ask(
    @Param('token') token: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const grant = await this.grantOf(token, ['rag', 'sql']);
    const parsed = ZPreviewQuestion.safeParse(body);
    if (!parsed.success) {
      throw new BadRequestException(parsed.error.issues[0]?.message ?? 'Type a question first.');
    }
    const agent = await this.sessions.agentFor(grant);
    const watchdog = new ProviderWatchdog(this.config.PROVIDER_TIMEOUT_MS);
    response.on('close', () => watchdog.stop());
    response.status(HttpStatus.OK);
    response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('X-Accel-Buffering', 'no'); // proxies must pass tokens on as they come
    response.flushHeaders();
    // A failure goes out in plain words too, with the step that fixes it (plain-errors.ts).
    const send = (event: AgentEvent) => {
      const shown = event.type === 'error' ? plainError(event, agent.setup) : event;
      response.write(`event: ${event.type}\ndata: ${JSON.stringify(shown)}\n\n`);
    };
    try {
      for await (const event of agent.ask(parsed.data.question, watchdog.signal)) {
        if (watchdog.signal.aborted) break;
        watchdog.alive();
        send(event);
      }
    } catch (error) {
      if (!watchdog.signal.aborted) {
        send({ type: 'error', detail: `The agent failed: ${(error as Error).message}` });
      }
    }
    // The agent ends quietly when its signal aborts; the page is still there to be told why.
    if (watchdog.timedOut) send({ type: 'error', detail: this.silenceDetail() });
    watchdog.stop();
    response.end();
  }

  /** Image agent: the owner's saved Gemini keys, by name and mask only. */
  @Get(':token/keys')
  async geminiKeys(@Param('token') token: string) {
    const grant = await this.grantOf(token, ['image']);
    const keys = await this.apiKeys.list(grant.userId);
    return keys
      .filter((key) => key.provider === 'gemini')
      .map((key) => ({ id: key.id, name: key.name, masked: key.key }));
  }

  /**
   * Image agent: generate an image from a description, or edit an uploaded one. The key is the
   * one typed into the page (used for this call only, never stored) or one of the owner's vault.
   */
  @Post(':token/images')
  @HttpCode(HttpStatus.OK)
  @UseInterceptors(SingleFileUpload('image', IMAGE_MAX_BYTES, 'The image'))
  async generate(
    @Param('token') token: string,
    @Body() body: { prompt?: string; api_key?: string; api_key_id?: string },
    @UploadedFile() file?: Express.Multer.File,
  ) {
    const grant = await this.grantOf(token, ['image']);
    const prompt = body.prompt?.trim();
    if (!prompt) throw new BadRequestException('Describe the image first.');
    if (prompt.length > 4000)
      throw new BadRequestException('A description can be at most 4000 characters.');
    const apiKey = body.api_key_id
      ? (await this.apiKeys.reveal(grant.userId, body.api_key_id)).key
      : body.api_key?.trim();
    if (!apiKey) throw new BadRequestException('Set your Gemini API key first.');
    let image: { data: Uint8Array; mediaType: string } | undefined;
    if (file) {
      const mediaType = (await sniffMimeTypes(file.path)).find((type) =>
        IMAGE_TYPES.includes(type),
      );
      if (!mediaType) throw new UnsupportedMediaTypeException('Upload a PNG, JPEG or WebP image.');
      image = { data: await readFile(file.path), mediaType };
    }
    try {
      const result = await generateImage({
        apiKey,
        prompt,
        image,
        baseUrl: this.config.GEMINI_BASE_URL,
        signal: AbortSignal.timeout(this.config.PROVIDER_TIMEOUT_MS),
      });
      return {
        text: result.text ?? null,
        images: result.images.map((generated) => ({
          media_type: generated.mediaType,
          data: Buffer.from(generated.data).toString('base64'),
        })),
      };
    } catch (error) {
      throw new UnprocessableEntityException(
        `Gemini could not make the image: ${(error as Error).message}`.replaceAll(apiKey, '****'),
      );
    }
  }

  private silenceDetail(): string {
    const seconds = Math.round(this.config.PROVIDER_TIMEOUT_MS / 1000);
    return `The model provider did not answer within ${seconds} seconds. Please ask again.`;
  }

  private async grantOf(token: string, kinds: PreviewKind[]): Promise<PreviewGrant> {
    const grant = await this.grants.find(token);
    if (!grant || !kinds.includes(grant.kind)) throw new NotFoundException(PREVIEW_NOT_FOUND);
    return grant;
  }

  /**
   * The gateway's default headers forbid framing; preview pages are made to be framed by the
   * web app (and only by it), and run nothing but their own script.
   */
  private framable(response: Response): void {
    response.removeHeader('X-Frame-Options');
    const ancestors = ["'self'", ...this.config.CORS_ORIGINS].join(' ');
    response.setHeader(
      'Content-Security-Policy',
      [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        `frame-ancestors ${ancestors}`,
      ].join('; '),
    );
  }
}

function statusOf(error: unknown): number {
  const status = (error as { getStatus?: () => number }).getStatus?.();
  return typeof status === 'number' ? status : HttpStatus.UNPROCESSABLE_ENTITY;
}
