import type { TAgentType, TImageAgentLaunched, TPreviewStarted } from '@agentloom/contracts';
import {
  HttpException,
  Inject,
  Injectable,
  Logger,
  ServiceUnavailableException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { BuildsRepository } from '../builds/builds.repository';
import { withDeadline } from '../common/deadline';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PipelinesService } from '../pipelines/pipelines.service';
import { PreviewGrantStore, type PreviewGrant } from './preview-grants';
import { PreviewSessions } from './preview-sessions';

export const PREVIEW_NEEDS_BUILD = 'Build the agent first: only a built agent can be previewed.';
export const PREVIEWS_UNAVAILABLE =
  'Previews are unavailable right now (their store does not answer). Please try again in a minute.';

/** Starting previews and the image agent: owner checks, links, and a warm agent. */
@Injectable()
export class PreviewsService {
  private readonly logger = new Logger(PreviewsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pipelines: PipelinesService,
    private readonly builds: BuildsRepository,
    private readonly grants: PreviewGrantStore,
    private readonly sessions: PreviewSessions,
  ) {}

  /**
   * The preview link of the caller's latest Built build of this agent. The agent is loaded
   * before answering, so a broken key or source is reported here, and the first question in the
   * frame does not wait for the index.
   */
  async start(userId: string, sessionId: string, kind: TAgentType): Promise<TPreviewStarted> {
    const pipeline = await this.pipelines.findOwned(userId, sessionId, kind);
    const build = await this.builds.latestBuiltOwned(pipeline.id, userId);
    if (!build) throw new UnprocessableEntityException(PREVIEW_NEEDS_BUILD);
    const grant = await this.grant({ kind, userId, pipelineId: pipeline.id, buildId: build.id });
    try {
      await this.sessions.agentFor(grant);
    } catch (error) {
      if (error instanceof HttpException) throw error;
      this.logger.warn(`Preview of ${pipeline.id} did not start: ${(error as Error).message}`);
      throw new UnprocessableEntityException(
        `The preview could not start: ${(error as Error).message}`,
      );
    }
    return { preview_url: this.pageUrl(grant) };
  }

  /** The image generation agent's page for the caller (SPEC: POST /img/launch-streamlit-app). */
  async launchImageAgent(userId: string): Promise<TImageAgentLaunched> {
    const grant = await this.grant({ kind: 'image', userId });
    return { url: this.pageUrl(grant) };
  }

  private async grant(request: Omit<PreviewGrant, 'token' | 'expiresAt'>): Promise<PreviewGrant> {
    return withDeadline(
      this.grants.grant(request),
      2000,
      () => new ServiceUnavailableException(PREVIEWS_UNAVAILABLE),
    ).catch((error: unknown) => {
      if (error instanceof HttpException) throw error;
      throw new ServiceUnavailableException(PREVIEWS_UNAVAILABLE);
    });
  }

  /** From PUBLIC_URL: never from the request's Host header, which the client chooses. */
  private pageUrl(grant: PreviewGrant): string {
    return new URL(`/p/${grant.token}/`, this.config.PUBLIC_URL).toString();
  }
}
