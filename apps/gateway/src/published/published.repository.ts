import type { AgentAccessKey, Pipeline, Publication } from '@agentloom/db';
import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** A publication as answers need it: only its own row (a question reads nothing more). */
export type LivePublication = Publication;

type KeyWithPublicationRow = AgentAccessKey & {
  liveUserId: string | null;
  liveBuildId: string | null;
  liveShareEnabled: boolean | null;
  liveAllowedOrigins: string[] | null;
  liveShowSources: boolean | null;
  liveFollowKnowledge: boolean | null;
  livePublishedAt: Date | null;
  liveUpdatedAt: Date | null;
};
/** What the share page and the widget show: the agent's name and kind too. */
export type NamedPublication = Publication & { pipeline: Pick<Pipeline, 'name' | 'agentType'> };

/** The only code that touches publications and access keys. Owner queries filter by user id. */
@Injectable()
export class PublishedRepository {
  constructor(private readonly prisma: PrismaService) {}

  findOwned(pipelineId: string, userId: string): Promise<Publication | null> {
    return this.prisma.client.publication.findFirst({ where: { pipelineId, userId } });
  }

  /** The publication of an agent for whoever calls it (the callers check their own access). */
  findLive(pipelineId: string): Promise<LivePublication | null> {
    return this.prisma.client.publication.findUnique({ where: { pipelineId } });
  }

  findNamed(pipelineId: string): Promise<NamedPublication | null> {
    return this.prisma.client.publication.findUnique({
      where: { pipelineId },
      include: { pipeline: { select: { name: true, agentType: true } } },
    });
  }

  /** The agent a live publication serves (MCP describes it by its name and configuration). */
  async pipelineOf(
    live: Pick<LivePublication, 'pipelineId' | 'buildId'>,
  ): Promise<Pipeline | null> {
    const found = await this.prisma.client.publication.findUnique({
      where: { pipelineId: live.pipelineId },
      include: { pipeline: true },
    });
    return found && found.buildId === live.buildId ? found.pipeline : null;
  }

  /** `showSources` is the first publication's; publishing again keeps the owner's choice. */
  upsert(
    pipelineId: string,
    userId: string,
    buildId: string,
    showSources: boolean,
  ): Promise<Publication> {
    return this.prisma.client.publication.upsert({
      where: { pipelineId },
      create: { pipelineId, userId, buildId, showSources },
      update: { buildId, publishedAt: new Date() },
    });
  }

  async remove(pipelineId: string, userId: string): Promise<boolean> {
    const { count } = await this.prisma.client.publication.deleteMany({
      where: { pipelineId, userId },
    });
    return count === 1;
  }

  async updateSettings(
    pipelineId: string,
    userId: string,
    data: {
      shareEnabled?: boolean;
      showSources?: boolean;
      followKnowledge?: boolean;
      allowedOrigins?: string[];
    },
  ): Promise<boolean> {
    const { count } = await this.prisma.client.publication.updateMany({
      where: { pipelineId, userId },
      data,
    });
    return count === 1;
  }

  createKey(data: {
    pipelineId: string;
    userId: string;
    name: string | null;
    keyHash: string;
    lastFour: string;
    rateLimitPerMinute: number;
  }): Promise<AgentAccessKey> {
    return this.prisma.client.agentAccessKey.create({ data });
  }

  listKeys(pipelineId: string, userId: string): Promise<AgentAccessKey[]> {
    return this.prisma.client.agentAccessKey.findMany({
      where: { pipelineId, userId },
      orderBy: { createdAt: 'desc' },
    });
  }

  async revokeKey(id: string, pipelineId: string, userId: string): Promise<AgentAccessKey | null> {
    const { count } = await this.prisma.client.agentAccessKey.updateMany({
      where: { id, pipelineId, userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count !== 1) return null;
    return this.prisma.client.agentAccessKey.findUnique({ where: { id } });
  }

  /** Revokes every key of the agent still in use (unpublishing ends them: publications.service). */
  async revokeAllKeys(pipelineId: string, userId: string): Promise<number> {
    const { count } = await this.prisma.client.agentAccessKey.updateMany({
      where: { pipelineId, userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return count;
  }

  findKeyByHash(keyHash: string): Promise<AgentAccessKey | null> {
    return this.prisma.client.agentAccessKey.findUnique({ where: { keyHash } });
  }

  /**
   * An access key by its hash with its agent's publication, if any, in one query: every
   * question to a published agent starts here. Written in SQL because Prisma's query compiler
   * costs more CPU than the query itself on this path (npm run bench:hosted).
   */
  async findKeyWithPublication(
    keyHash: string,
  ): Promise<{ key: AgentAccessKey; live: LivePublication | null } | null> {
    const rows = await this.prisma.sql.query<KeyWithPublicationRow>(KEY_WITH_PUBLICATION, [
      keyHash,
    ]);
    const row = rows[0];
    if (!row) return null;
    const {
      liveUserId,
      liveBuildId,
      liveShareEnabled,
      liveAllowedOrigins,
      liveShowSources,
      liveFollowKnowledge,
      ...key
    } = row;
    const live: LivePublication | null =
      liveUserId && liveBuildId
        ? {
            pipelineId: key.pipelineId,
            userId: liveUserId,
            buildId: liveBuildId,
            shareEnabled: liveShareEnabled ?? false,
            allowedOrigins: liveAllowedOrigins ?? [],
            showSources: liveShowSources ?? true,
            followKnowledge: liveFollowKnowledge ?? true,
            publishedAt: row.livePublishedAt!,
            updatedAt: row.liveUpdatedAt!,
          }
        : null;
    delete (key as Partial<KeyWithPublicationRow>).livePublishedAt;
    delete (key as Partial<KeyWithPublicationRow>).liveUpdatedAt;
    return { key, live };
  }

  /** Adds requests to keys' counts and moves their last use forward (AccessKeyUses). */
  async countUses(uses: { id: string; uses: number; lastUsedAt: Date }[]): Promise<void> {
    await this.prisma.sql.query(COUNT_USES, [
      uses.map((use) => use.id),
      uses.map((use) => use.uses),
      uses.map((use) => use.lastUsedAt),
    ]);
  }
}

/** $1 the key's hash. Every question to a published agent starts here. */
const KEY_WITH_PUBLICATION = {
  name: 'key-with-publication',
  text: `
      SELECT k.id, k.pipeline_id AS "pipelineId", k.user_id AS "userId", k.name,
             k.key_hash AS "keyHash", k.last_four AS "lastFour",
             k.rate_limit_per_minute AS "rateLimitPerMinute", k.request_count AS "requestCount",
             k.last_used_at AS "lastUsedAt", k.revoked_at AS "revokedAt",
             k.created_at AS "createdAt",
             p.user_id AS "liveUserId", p.build_id AS "liveBuildId",
             p.share_enabled AS "liveShareEnabled", p.allowed_origins AS "liveAllowedOrigins",
             p.show_sources AS "liveShowSources", p.follow_knowledge AS "liveFollowKnowledge",
             p.published_at AS "livePublishedAt", p.updated_at AS "liveUpdatedAt"
      FROM agent_access_keys k
      LEFT JOIN publications p ON p.pipeline_id = k.pipeline_id
      WHERE k.key_hash = $1`,
};

/** $1 key ids, $2 their new requests, $3 their last use. */
const COUNT_USES = {
  name: 'count-key-uses',
  text: `
    UPDATE agent_access_keys k
    SET request_count = k.request_count + u.uses,
        last_used_at = GREATEST(k.last_used_at, u.last_used_at)
    FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS u(id, uses, last_used_at)
    WHERE k.id = u.id`,
};
