import type { TAgentType, TPreviewStarted } from '@agentloom/contracts';
import {
  HttpException,
  Injectable,
  Logger,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { AgentLoader, type LoadedAgent } from '../agents/agent-loader';
import { LoadedAgents } from '../agents/loaded-agents';
import { BuildsRepository } from '../builds/builds.repository';
import { PipelinesService } from '../pipelines/pipelines.service';
import { PreviewGrantStore, type PreviewGrant } from './preview-grants';

export const PREVIEW_NEEDS_BUILD = 'Build the agent first: only a built agent can be previewed.';
export const PREVIEW_OUTDATED =
  'This preview is of an older build of the agent. Start the preview again from the agent.';

/** Starting previews and the agent behind a preview link: owner checks, links, a warm agent. */
@Injectable()
export class PreviewsService {
  private readonly logger = new Logger(PreviewsService.name);

  constructor(
    private readonly pipelines: PipelinesService,
    private readonly builds: BuildsRepository,
    private readonly grants: PreviewGrantStore,
    private readonly loader: AgentLoader,
    private readonly loaded: LoadedAgents,
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
    const { grant, url } = await this.grants.link({
      kind,
      userId,
      pipelineId: pipeline.id,
      buildId: build.id,
    });
    try {
      await this.agentFor(grant);
    } catch (error) {
      if (error instanceof HttpException) throw error;
      this.logger.warn(`Preview of ${pipeline.id} did not start: ${(error as Error).message}`);
      throw new UnprocessableEntityException(
        `The preview could not start: ${(error as Error).message}`,
      );
    }
    return { preview_url: url };
  }

  /**
   * The agent a preview link answers with, loaded once per link and process: the link's build,
   * while it is still the agent's latest Built build.
   */
  agentFor(grant: PreviewGrant): Promise<LoadedAgent> {
    return this.loaded.agent(grant.token, grant.userId, async () => {
      if (grant.kind === 'image' || !grant.pipelineId) {
        throw new NotFoundException('This link is not an agent preview.');
      }
      const pipeline = await this.pipelines.findOwned(grant.userId, grant.pipelineId, grant.kind);
      const build = await this.builds.latestBuiltOwned(pipeline.id, grant.userId);
      if (!build || build.id !== grant.buildId) throw new NotFoundException(PREVIEW_OUTDATED);
      return this.loader.loadBuild(pipeline, build);
    });
  }
}
