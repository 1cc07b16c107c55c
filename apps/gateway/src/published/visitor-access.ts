import {
  BadRequestException,
  ForbiddenException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { Request } from 'express';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/env';
import { AGENT_NOT_FOUND, PublishedAgentsService } from './published-agents.service';
import type { NamedPublication } from './published.repository';

export const ORIGIN_NOT_ALLOWED =
  "This site may not embed this agent. Its owner can add the site to the agent's allowed sites.";
export const CROSS_SITE_REFUSED =
  "This agent's chat answers only its own page. Open its share page, or a site that embeds its widget.";
export const JSON_ONLY =
  'Send a JSON object with "Content-Type: application/json", as the chat page does.';
export const SESSION_REFUSED =
  "This chat was not opened from the agent's page, or that page is out of date. Reload the page and ask again.";
/** The header the chat page sends its visitor session in (a custom header: no form can send it). */
export const VISITOR_SESSION_HEADER = 'x-visitor-session';

export type Via = 'share' | 'widget';

/** One visitor of a share page or widget frame, as its signed session token says. */
export interface VisitorSession {
  agentId: string;
  via: Via;
  /** The allowed site the widget frame was opened for (null: the share page). */
  site: string | null;
  /** SHA-256 of the token: what a conversation this visitor starts is bound to. */
  hash: string;
}

/** The share page is on when its owner turned it on; the widget when at least one site may embed it. */
export const isOpen = (live: NamedPublication, via: Via) =>
  via === 'share' ? live.shareEnabled : live.allowedOrigins.length > 0;

/**
 * Who may use a published agent's share page and widget (issue 27, findings 2 and 3). Each page
 * the gateway renders carries a signed visitor session naming the agent, the way in and, for the
 * widget, the allowed site it was framed by. Every call the page makes must then come from the
 * page's own origin, as JSON, with that session, while the way in is still on and the site still
 * allowed; its conversations belong to that session alone. No key, no database row: the token is
 * an HMAC under a key derived from JWT_SECRET, and nothing else accepts it.
 */
@Injectable()
export class VisitorAccess {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly agents: PublishedAgentsService,
  ) {
    this.key = createHmac('sha256', config.JWT_SECRET)
      .update('agentloom visitor sessions')
      .digest();
  }

  /** The publication, if this way in is on (404 otherwise, as for an unknown agent). */
  async openLive(id: string, via: Via): Promise<NamedPublication> {
    const live = await this.agents.findLive(id);
    if (!isOpen(live, via)) throw new NotFoundException(AGENT_NOT_FOUND);
    return live;
  }

  /** A fresh session for a page being served. */
  issue(agentId: string, via: Via, site: string | null): string {
    const nonce = randomBytes(18).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ a: agentId, v: via, s: site, n: nonce }));
    const body = payload.toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /**
   * Admits one call of a page (a message, a rating) or throws: 403 from another site or without
   * the page's session, 400 for anything but a JSON object, 404 while the way in is off, 403 once
   * the widget's site is no longer allowed.
   */
  async admit(
    id: string,
    request: Request,
  ): Promise<{ live: NamedPublication; session: VisitorSession }> {
    if (!sameOrigin(request)) throw new ForbiddenException(CROSS_SITE_REFUSED);
    const body: unknown = request.body;
    if (
      !request.is('application/json') ||
      !body ||
      typeof body !== 'object' ||
      Array.isArray(body)
    ) {
      throw new BadRequestException(JSON_ONLY);
    }
    const session = this.read(request.header(VISITOR_SESSION_HEADER));
    if (!session || session.agentId !== id) throw new ForbiddenException(SESSION_REFUSED);
    const live = await this.openLive(id, session.via);
    if (session.via === 'widget' && !live.allowedOrigins.includes(session.site ?? '')) {
      throw new ForbiddenException(ORIGIN_NOT_ALLOWED);
    }
    return { live, session };
  }

  private read(token: string | undefined): VisitorSession | null {
    const [body, signature, extra] = (token ?? '').split('.');
    if (!body || !signature || extra !== undefined) return null;
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
      a: string;
      v: Via;
      s: string | null;
    };
    const hash = createHash('sha256')
      .update(token ?? '')
      .digest('hex');
    return { agentId: claims.a, via: claims.v, site: claims.s, hash };
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

/**
 * The call comes from a page of this origin: browsers send Origin on every POST, and a page on
 * another site cannot make it say this host. The web server keeps the Host it was asked for.
 */
function sameOrigin(request: Request): boolean {
  const origin = request.header('origin');
  if (!origin) return false;
  try {
    return new URL(origin).host === request.header('host');
  } catch {
    return false;
  }
}
