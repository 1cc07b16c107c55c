import {
  HttpException,
  Inject,
  Injectable,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { withDeadline } from '../common/deadline';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RedisService } from '../redis/redis.service';

export type PreviewKind = 'rag' | 'sql' | 'image';

export const PREVIEW_NOT_FOUND = 'This preview link has expired or does not exist.';
export const PREVIEWS_UNAVAILABLE =
  'Previews are unavailable right now (their store does not answer). Please try again in a minute.';

/**
 * What a preview link lets its holder do: talk to one build of one agent (or use the image
 * agent) on behalf of its owner, until it expires. An iframe cannot send the bearer header, so
 * the random token in the link is the capability; it lives in Redis so every gateway replica
 * honours it and it expires by itself. While Redis is away previews answer 503 (there is no
 * other copy of a link to fall back on).
 */
export interface PreviewGrant {
  token: string;
  kind: PreviewKind;
  userId: string;
  /** The agent (rag/sql previews). */
  pipelineId?: string;
  /** The Built build the preview answers from; a newer build gets a new preview. */
  buildId?: string;
  expiresAt: string;
}

/** 32 random bytes, URL-safe: unguessable, and nothing in it says whose it is. */
const newToken = () => randomBytes(32).toString('base64url');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

@Injectable()
export class PreviewGrantStore {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redis: RedisService,
  ) {}

  /**
   * The owner's live preview of this agent build (or of the image agent), or a new one. Starting
   * again keeps the same link and expiry, so an open frame keeps working.
   */
  async grant(request: Omit<PreviewGrant, 'token' | 'expiresAt'>): Promise<PreviewGrant> {
    const ownerKey = this.ownerKey(request);
    const existing = await this.redis.run((client) => client.get(ownerKey));
    if (existing) {
      const live = await this.find(existing);
      if (live && live.buildId === request.buildId && live.userId === request.userId) return live;
    }
    const ttlMs = this.config.PREVIEW_TTL_MINUTES * 60_000;
    const grant: PreviewGrant = {
      ...request,
      token: newToken(),
      expiresAt: new Date(Date.now() + ttlMs).toISOString(),
    };
    await this.redis.run((client) =>
      client
        .multi()
        .set(this.grantKey(grant.token), JSON.stringify(grant), 'PX', ttlMs)
        .set(ownerKey, grant.token, 'PX', ttlMs)
        .exec(),
    );
    return grant;
  }

  /**
   * `grant`, within two seconds or a 503 (Redis away), with the page's address: from PUBLIC_URL,
   * never from the request's Host header, which the client chooses.
   */
  async link(
    request: Omit<PreviewGrant, 'token' | 'expiresAt'>,
  ): Promise<{ grant: PreviewGrant; url: string }> {
    const grant = await withDeadline(
      this.grant(request),
      2000,
      () => new ServiceUnavailableException(PREVIEWS_UNAVAILABLE),
    ).catch((error: unknown) => {
      if (error instanceof HttpException) throw error;
      throw new ServiceUnavailableException(PREVIEWS_UNAVAILABLE);
    });
    return { grant, url: new URL(`/p/${grant.token}/`, this.config.PUBLIC_URL).toString() };
  }

  /** The grant behind a token, or null when it is made up, malformed or expired. */
  async find(token: string): Promise<PreviewGrant | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const stored = await this.redis.run((client) => client.get(this.grantKey(token)));
    if (!stored) return null;
    const grant = JSON.parse(stored) as PreviewGrant;
    return Date.parse(grant.expiresAt) > Date.now() ? grant : null;
  }

  /**
   * The grant behind a token for one of `kinds`; anything else (unknown, expired, or a page of
   * another kind) is a 404 like any missing page.
   */
  async require(token: string, kinds: PreviewKind[]): Promise<PreviewGrant> {
    const grant = await this.find(token);
    if (!grant || !kinds.includes(grant.kind)) throw new NotFoundException(PREVIEW_NOT_FOUND);
    return grant;
  }

  private grantKey(token: string): string {
    return `agentloom:preview:${token}`;
  }

  private ownerKey(request: Pick<PreviewGrant, 'kind' | 'userId' | 'pipelineId'>): string {
    return `agentloom:preview-of:${request.kind}:${request.userId}:${request.pipelineId ?? '-'}`;
  }
}
