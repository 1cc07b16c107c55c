import { ACCESS_KEY_PREFIX, type TOpenAiModel, type TOpenAiModelList } from '@agentloom/contracts';
import { Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import {
  AGENT_NOT_FOUND,
  INVALID_ACCESS_KEY,
  PublishedAgentsService,
} from './published-agents.service';
import { hashAccessKey } from './publications.service';
import { PublishedRepository, type NamedPublication } from './published.repository';

/**
 * OpenAI's model listing for published agents. An access key belongs to one agent, so the list
 * holds that agent while it is published, and nothing once it is unpublished. Every check — a
 * revoked key, the owner, the rate limit — is PublishedAgentsService.authorize's, as for chat.
 */
@Injectable()
export class PublishedModelsService {
  constructor(
    private readonly agents: PublishedAgentsService,
    private readonly published: PublishedRepository,
  ) {}

  async list(authorization: string | undefined): Promise<TOpenAiModelList> {
    const agentId = await this.agentOfKey(authorization);
    try {
      await this.agents.authorize(authorization, agentId);
    } catch (error) {
      // The key is good but its agent is not published (any more): nothing to list.
      if (error instanceof NotFoundException) return { object: 'list', data: [] };
      throw error;
    }
    const named = await this.published.findNamed(agentId);
    return { object: 'list', data: named ? [modelOf(named)] : [] };
  }

  async get(authorization: string | undefined, id: string): Promise<TOpenAiModel> {
    await this.agents.authorize(authorization, id);
    const named = await this.published.findNamed(id);
    if (!named) throw new NotFoundException(AGENT_NOT_FOUND);
    return modelOf(named);
  }

  /** The agent a bearer access key belongs to; 401 for a missing, unknown or revoked key. */
  private async agentOfKey(authorization: string | undefined): Promise<string> {
    const secret = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    const key = secret?.startsWith(ACCESS_KEY_PREFIX)
      ? await this.published.findKeyByHash(hashAccessKey(secret))
      : null;
    if (!key || key.revokedAt) throw new UnauthorizedException(INVALID_ACCESS_KEY);
    return key.pipelineId;
  }
}

/** OpenAI's model object; `name` is extra, and chat front-ends show it instead of the id. */
function modelOf(named: NamedPublication): TOpenAiModel {
  return {
    id: named.pipelineId,
    object: 'model',
    created: Math.floor(named.publishedAt.getTime() / 1000),
    owned_by: 'agentloom',
    name: named.pipeline.name,
  };
}
