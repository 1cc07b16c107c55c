import {
  isTableSourceType,
  ACCESS_KEY_PREFIX,
  type TAccessKey,
  type TCreateAccessKeyRequest,
  type TCreatedAccessKey,
  type TPublication,
  type TPublicationSettings,
  type TPublishRequest,
} from '@agentloom/contracts';
import type { AgentAccessKey, Build, Pipeline, Publication } from '@agentloom/db';
import {
  Inject,
  Injectable,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { BuildsRepository } from '../builds/builds.repository';
import { APP_CONFIG, AppConfig } from '../config/env';
import { readConfig } from '../pipelines/pipeline-view';
import { PipelinesService } from '../pipelines/pipelines.service';
import { LoadedAgents } from '../agents/loaded-agents';
import { publishedAgentKey } from '../agents/local-answers';
import { AccessKeyUses } from './access-key-uses';
import { PublishedRepository } from './published.repository';
import { RefusedOrigins } from './refused-origins';

export const PUBLISH_NEEDS_BUILD = 'Build the agent first: only a built agent can be published.';
export const BUILD_NOT_FOUND = 'This agent has no build with that id.';
export const BUILD_NOT_BUILT =
  'Only a build that finished (Built) can be published; pick another one from the agent’s builds.';
export const NOT_PUBLISHED = 'This agent is not published. Publish it first.';
export const ACCESS_KEY_NOT_FOUND = 'Access key not found.';

/** SHA-256 of an access key: what is stored and looked up; the key itself never is. */
export const hashAccessKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** The owner's side of publishing: publish, unpublish, share and widget settings, access keys. */
@Injectable()
export class PublicationsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pipelines: PipelinesService,
    private readonly builds: BuildsRepository,
    private readonly published: PublishedRepository,
    private readonly loaded: LoadedAgents,
    private readonly keyUses: AccessKeyUses,
    private readonly refused: RefusedOrigins,
  ) {}

  async get(userId: string, pipelineId: string): Promise<TPublication> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const publication = await this.published.findOwned(pipeline.id, userId);
    return this.view(pipeline, publication);
  }

  /**
   * Serves a Built build of the agent from now on: the newest, or the one named — an older one
   * too (a rollback). Publishing again moves the published agent; a rollback stays until the
   * owner publishes another build (knowledge-only builds made from the rolled-back one follow).
   */
  async publish(
    userId: string,
    pipelineId: string,
    request: TPublishRequest = {},
  ): Promise<TPublication> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const build = await this.buildToServe(pipeline, userId, request.build_id);
    const previous = await this.published.findOwned(pipeline.id, userId);
    // A first publication of a table hides its rows from visitors until the owner shows them.
    const showSources = !isTableSourceType(readConfig(pipeline).source_type);
    const publication = await this.published.upsert(pipeline.id, userId, build.id, showSources);
    if (previous && previous.buildId !== build.id) {
      await this.loaded.drop(publishedAgentKey(previous.buildId));
    }
    return this.view(pipeline, publication);
  }

  private async buildToServe(
    pipeline: Pipeline,
    userId: string,
    buildId: string | undefined,
  ): Promise<Build> {
    if (buildId === undefined) {
      const latest = await this.builds.latestBuiltOwned(pipeline.id, userId);
      if (!latest) throw new UnprocessableEntityException(PUBLISH_NEEDS_BUILD);
      return latest;
    }
    const builds = await this.builds.listOwned(pipeline.id, userId);
    const named = builds.find((build) => build.id === buildId);
    if (!named) throw new NotFoundException(BUILD_NOT_FOUND);
    if (named.status !== 'Built' || !named.artifact) {
      throw new UnprocessableEntityException(BUILD_NOT_BUILT);
    }
    return named;
  }

  async unpublish(userId: string, pipelineId: string): Promise<void> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const publication = await this.published.findOwned(pipeline.id, userId);
    if (!publication || !(await this.published.remove(pipeline.id, userId))) {
      throw new NotFoundException(NOT_PUBLISHED);
    }
    // Keys end with the publication: a key handed out (or leaked) while it was live must not work
    // again when the agent is published later. The owner makes new ones then (issue 27).
    await this.published.revokeAllKeys(pipeline.id, userId);
    await this.loaded.drop(publishedAgentKey(publication.buildId));
  }

  async updateSettings(
    userId: string,
    pipelineId: string,
    settings: TPublicationSettings,
  ): Promise<TPublication> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const changed = await this.published.updateSettings(pipeline.id, userId, {
      shareEnabled: settings.share_enabled,
      followKnowledge: settings.follow_knowledge,
      showSources: settings.show_sources,
      allowedOrigins: settings.allowed_origins && [...new Set(settings.allowed_origins)],
    });
    if (!changed) throw new NotFoundException(NOT_PUBLISHED);
    return this.get(userId, pipeline.id);
  }

  async listKeys(userId: string, pipelineId: string): Promise<TAccessKey[]> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    await this.keyUses.flush(); // the counts gathered here so far
    return (await this.published.listKeys(pipeline.id, userId)).map(accessKeyView);
  }

  /** A new key: 32 random bytes after `al_`. Only its hash is kept; this answer is the one copy. */
  async createKey(
    userId: string,
    pipelineId: string,
    request: TCreateAccessKeyRequest,
  ): Promise<TCreatedAccessKey> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const secret = `${ACCESS_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const key = await this.published.createKey({
      pipelineId: pipeline.id,
      userId,
      name: request.name ?? null,
      keyHash: hashAccessKey(secret),
      lastFour: secret.slice(-4),
      rateLimitPerMinute:
        request.rate_limit_per_minute ?? this.config.PUBLISHED_KEY_RATE_PER_MINUTE,
    });
    return { ...accessKeyView(key), secret };
  }

  async revokeKey(userId: string, pipelineId: string, keyId: string): Promise<TAccessKey> {
    const pipeline = await this.pipelines.findOwned(userId, pipelineId);
    const revoked = /^[0-9a-f-]{36}$/i.test(keyId)
      ? await this.published.revokeKey(keyId, pipeline.id, userId)
      : null;
    if (!revoked) throw new NotFoundException(ACCESS_KEY_NOT_FOUND);
    return accessKeyView(revoked);
  }

  private async view(pipeline: Pipeline, publication: Publication | null): Promise<TPublication> {
    const pipelineId = pipeline.id;
    // Builds are numbered from 1, oldest first, as the agent's history numbers them.
    const builds = await this.builds.listOwned(pipeline.id, pipeline.userId);
    const numberOf = (id: string | null) =>
      id === null ? null : builds.findIndex((build) => build.id === id) + 1 || null;
    const latestBuildId =
      builds.findLast((build) => build.status === 'Built' && build.artifact)?.id ?? null;
    const sourceIsTable = isTableSourceType(readConfig(pipeline).source_type);
    const url = (path: string) => new URL(path, this.config.PUBLIC_URL).toString();
    return {
      published: publication !== null,
      build_id: publication?.buildId ?? null,
      latest_build_id: latestBuildId,
      build_number: numberOf(publication?.buildId ?? null),
      latest_build_number: numberOf(latestBuildId),
      published_at: publication?.publishedAt.toISOString() ?? null,
      follow_knowledge: publication?.followKnowledge ?? true,
      share_enabled: publication?.shareEnabled ?? false,
      show_sources: publication?.showSources ?? !sourceIsTable,
      source_is_table: sourceIsTable,
      allowed_origins: publication?.allowedOrigins ?? [],
      api_url: url(`/agents/${pipelineId}/chat`),
      share_url: url(`/s/${pipelineId}/`),
      widget_script_url: url(`/w/widget.js`),
      mcp_url: url(`/agents/${pipelineId}/mcp`),
      refused_origins: publication
        ? await this.refused.recent(pipelineId, publication.allowedOrigins)
        : [],
    };
  }
}

export function accessKeyView(key: AgentAccessKey): TAccessKey {
  return {
    id: key.id,
    name: key.name,
    key: `${ACCESS_KEY_PREFIX}…${key.lastFour}`,
    rate_limit_per_minute: key.rateLimitPerMinute,
    request_count: key.requestCount,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    created_at: key.createdAt.toISOString(),
  };
}
