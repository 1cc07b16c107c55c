import robotsParser from 'robots-parser';
import { WebPageError, type WebFetcher } from './web-fetcher';

/** The token a site's robots.txt names us by. */
export const ROBOTS_AGENT = 'AgentloomBot';
/** RFC 9309: a crawler must read at least 500 KiB of a robots.txt; the rest may be ignored. */
const ROBOTS_BYTES = 500 * 1024;
/** A site asking for more than this between requests is read at this pace. */
const MAX_CRAWL_DELAY_S = 10;

export interface RobotsRules {
  /** Why the URL may not be read, or undefined when it may. */
  refusal(url: string): string | undefined;
  /** Seconds to wait between two requests to the site. */
  crawlDelay: number;
}

/**
 * Each site's robots.txt, read once per crawl through the same guarded client as its pages
 * (robots-parser reads it, RFC 9309's rules with wildcards). As the RFC says: a robots.txt that
 * is missing (4xx) allows everything; one that cannot be read (5xx, a network failure) allows
 * nothing, for the site may be overloaded (and so does one larger than 500 KiB, which is not
 * read half-way).
 */
export class RobotsCache {
  private readonly sites = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly fetcher: WebFetcher,
    private readonly signal: AbortSignal,
  ) {}

  rulesFor(url: string): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    let rules = this.sites.get(origin);
    if (!rules) {
      rules = this.read(origin);
      this.sites.set(origin, rules);
    }
    return rules;
  }

  private async read(origin: string): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    try {
      const response = await this.fetcher.get(
        robotsUrl,
        'text/plain,*/*;q=0.1',
        this.signal,
        ROBOTS_BYTES,
      );
      const robots = robotsParser(response.finalUrl, response.body.toString('utf8'));
      return {
        refusal: (url) =>
          robots.isDisallowed(url, ROBOTS_AGENT)
            ? "The site's robots.txt does not allow reading this page."
            : undefined,
        crawlDelay: Math.min(robots.getCrawlDelay(ROBOTS_AGENT) ?? 0, MAX_CRAWL_DELAY_S),
      };
    } catch (error) {
      if (this.signal.aborted) throw error;
      if (error instanceof WebPageError && error.reason === 'http_status' && isMissing(error)) {
        return { refusal: () => undefined, crawlDelay: 0 };
      }
      const detail = error instanceof Error ? error.message : String(error);
      return {
        refusal: () =>
          `The site's robots.txt could not be read (${detail}), so none of its pages are read.`,
        crawlDelay: 0,
      };
    }
  }
}

function isMissing(error: WebPageError): boolean {
  return error.httpStatus !== undefined && error.httpStatus >= 400 && error.httpStatus < 500;
}
