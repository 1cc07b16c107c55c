import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeHtml, readHtmlPage, type TextDocument } from '@agentloom/source-readers';
import { RobotsCache } from './robots';
import { sitemapPages } from './sitemap';
import {
  WebFetcher,
  WebPageError,
  type WebFetchLimits,
  type WebPageErrorReason,
  type WebResponse,
} from './web-fetcher';
import { checkWebSource, parseWebUrl, type WebSourceSettings } from './web-target';

/** One URL; that URL and the pages it links to on its own site; or the pages a sitemap lists. */
export type WebCrawlMode = 'page' | 'site' | 'sitemap';

export interface WebCrawlRequest {
  url: string;
  mode: WebCrawlMode;
  /** Pages requested at most (a redirect is part of its page's request). Default 1 for 'page'. */
  maxPages?: number;
}

export interface WebCrawlLimits extends WebFetchLimits {
  /** The whole crawl's time: past it nothing new starts and pages in flight are dropped. */
  crawlTimeoutMs: number;
  /** Pages fetched at once (politeness): a few. */
  concurrency: number;
}

export const DEFAULT_WEB_CRAWL_LIMITS: WebCrawlLimits = {
  pageBytes: 5 * 1024 * 1024,
  pageTimeoutMs: 15_000,
  maxRedirects: 5,
  crawlTimeoutMs: 5 * 60_000,
  concurrency: 4,
};

interface PageBase {
  /** The address requested (normalised). */
  url: string;
  /** Where it ended after redirects (the address a citation names). */
  finalUrl: string;
  fetchedAt: string;
}

/** A page read: its sections, ready to chunk, each carrying the page's title. */
export interface WebPageRead extends PageBase {
  status: 'ok';
  httpStatus: number;
  title?: string;
  documents: TextDocument[];
  /** sha256 (hex) of what the page yields (its documents): unchanged text, unchanged hash. */
  contentHash: string;
}

/** A page deliberately not read: robots.txt, a noindex tag, another type, or seen already. */
export interface WebPageSkipped extends PageBase {
  status: 'skipped';
  reason: 'robots' | 'noindex' | 'unsupported_type' | 'duplicate';
  detail: string;
}

export interface WebPageFailed extends PageBase {
  status: 'error';
  reason: WebPageErrorReason;
  detail: string;
  httpStatus?: number;
}

export type CrawledPage = WebPageRead | WebPageSkipped | WebPageFailed;

export interface WebCrawlSummary {
  /** Pages yielded, whatever their status. */
  pages: number;
  read: number;
  failed: number;
  skipped: number;
  stoppedBy: 'done' | 'max_pages' | 'time_budget';
  elapsedMs: number;
}

const PAGE_TYPES = new Set(['text/html', 'application/xhtml+xml', 'text/plain']);
const PAGE_ACCEPT = 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1';
/** Links to these are files, not pages: never followed (a sitemap's entries are still read). */
const FILE_EXTENSIONS =
  /\.(?:png|jpe?g|gif|svg|webp|ico|bmp|tiff?|css|js|mjs|json|xml|rss|atom|zip|gz|tgz|bz2|7z|rar|pdf|docx?|xlsx?|pptx?|odt|mp3|wav|ogg|mp4|webm|avi|mov|woff2?|ttf|otf|eot|exe|dmg|apk|iso)$/i;

/**
 * Reads a web source: checks the URL (form and network guard; a refused or unreachable start
 * throws the package's errors, as a database source's check does), then yields each page in
 * breadth-first order as it is read: its sections, or why it was skipped or failed. A page that
 * refuses, times out or is too large is one failed page, never the end of the crawl. The
 * generator's return value summarises the crawl.
 *
 * Politeness: a few pages at a time, robots.txt (and its Crawl-delay) obeyed, one time budget
 * for the whole crawl. Same-site means the same origin (scheme, host and port) as the start URL
 * or as the page it redirected to; links are normalised (no fragment, no empty query) and each
 * address is requested once.
 */
export async function* crawlWebSource(
  request: WebCrawlRequest,
  settings: WebSourceSettings,
  options: { limits?: Partial<WebCrawlLimits>; signal?: AbortSignal } = {},
): AsyncGenerator<CrawledPage, WebCrawlSummary> {
  const limits = { ...DEFAULT_WEB_CRAWL_LIMITS, ...options.limits };
  const maxPages = Math.max(1, request.mode === 'page' ? 1 : (request.maxPages ?? 1));
  const started = Date.now();
  const budget = AbortSignal.timeout(limits.crawlTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, budget]) : budget;
  const start = await checkWebSource(request.url, settings);
  const fetcher = new WebFetcher(settings, limits, limits.concurrency);
  fetcher.approved(new URL(start.url), start.targets);
  const robots = new RobotsCache(fetcher, signal);
  const crawl = new Crawl(fetcher, robots, signal, limits.concurrency, request.mode === 'site');
  const summary: WebCrawlSummary = {
    pages: 0,
    read: 0,
    failed: 0,
    skipped: 0,
    stoppedBy: 'done',
    elapsedMs: 0,
  };
  try {
    const seeds =
      request.mode === 'sitemap'
        ? await sitemapPages(start.url, fetcher, signal, maxPages)
        : [start.url];
    crawl.enqueue(seeds, maxPages);
    const siteOrigins = new Set([new URL(start.url).origin]);
    for await (const page of crawl.pages()) {
      if (page.status === 'ok') summary.read += 1;
      else if (page.status === 'error') summary.failed += 1;
      else summary.skipped += 1;
      summary.pages += 1;
      // The first page's own site counts too: http://example.com often moves to https://www.…
      if (summary.pages === 1) siteOrigins.add(new URL(page.finalUrl).origin);
      const links = crawl.takeLinks(page.finalUrl);
      crawl.enqueue(
        links.filter((link) => siteOrigins.has(new URL(link).origin)),
        maxPages,
      );
      yield page.public;
    }
    if (crawl.hasMore) summary.stoppedBy = 'max_pages';
  } catch (error) {
    if (!budget.aborted) throw error;
  } finally {
    await fetcher.close();
  }
  if (budget.aborted) summary.stoppedBy = 'time_budget';
  summary.elapsedMs = Date.now() - started;
  return summary;
}

interface Pending {
  public: CrawledPage;
  status: CrawledPage['status'];
  finalUrl: string;
}

/** The queue of one crawl: addresses in breadth-first order, fetched a few at a time. */
class Crawl {
  private readonly queue: string[] = [];
  private readonly seen = new Set<string>();
  private readonly finalUrls = new Set<string>();
  private readonly results = new Map<number, Promise<Pending>>();
  private readonly nextStart = new Map<string, number>();
  /** Links found on each page read, by its final address; taken when the page is yielded. */
  private readonly links = new Map<string, string[]>();
  private next = 0;
  /** Whether addresses were left out for the page limit. */
  hasMore = false;

  constructor(
    private readonly fetcher: WebFetcher,
    private readonly robots: RobotsCache,
    private readonly signal: AbortSignal,
    private readonly concurrency: number,
    private readonly followLinks: boolean,
  ) {}

  enqueue(urls: readonly string[], maxPages: number): void {
    for (const text of urls) {
      const url = normalise(text);
      if (!url || this.seen.has(url)) continue;
      if (this.queue.length >= maxPages) {
        this.hasMore = true;
        continue;
      }
      this.seen.add(url);
      this.queue.push(url);
    }
  }

  /** The links to follow from a page just read (none unless following links). */
  takeLinks(finalUrl: string): string[] {
    const links = this.links.get(finalUrl) ?? [];
    this.links.delete(finalUrl);
    return links;
  }

  /** Results in queue order, while up to `concurrency` pages are fetched ahead. */
  async *pages(): AsyncGenerator<Pending> {
    for (let index = 0; index < this.queue.length || this.results.size > 0; index += 1) {
      this.fill();
      const result = this.results.get(index);
      if (!result) break;
      const page = await result;
      this.results.delete(index);
      if (this.signal.aborted) throw this.signal.reason;
      yield page;
    }
  }

  private fill(): void {
    while (this.next < this.queue.length && this.results.size < this.concurrency) {
      const url = this.queue[this.next]!;
      const result = this.read(url);
      result.catch(() => undefined); // observed when its turn comes
      this.results.set(this.next, result);
      this.next += 1;
    }
  }

  private async read(url: string): Promise<Pending> {
    const fetchedAt = () => new Date().toISOString();
    const rules = await this.robots.rulesFor(url);
    const refusal = rules.refusal(url);
    if (refusal) return skipped(url, url, fetchedAt(), 'robots', refusal);
    await this.pace(url, rules.crawlDelay);
    let response: WebResponse;
    try {
      response = await this.fetcher.get(url, PAGE_ACCEPT, this.signal);
    } catch (error) {
      if (!(error instanceof WebPageError)) throw error;
      return {
        status: 'error',
        finalUrl: url,
        public: {
          status: 'error',
          url,
          finalUrl: url,
          fetchedAt: fetchedAt(),
          reason: error.reason,
          detail: error.message,
          ...(error.httpStatus !== undefined ? { httpStatus: error.httpStatus } : {}),
        },
      };
    }
    const finalUrl = response.finalUrl;
    if (finalUrl !== url && (this.finalUrls.has(finalUrl) || this.seen.has(finalUrl))) {
      return skipped(
        url,
        finalUrl,
        fetchedAt(),
        'duplicate',
        `It leads to ${finalUrl}, read once.`,
      );
    }
    this.finalUrls.add(finalUrl);
    this.seen.add(finalUrl);
    try {
      return this.parse(url, response, fetchedAt());
    } catch (error) {
      // A charset this runtime does not know, say: that page cannot be read, the others can.
      const detail = `The page could not be read: ${error instanceof Error ? error.message : String(error)}`;
      return {
        status: 'error',
        finalUrl,
        public: {
          status: 'error',
          url,
          finalUrl,
          fetchedAt: fetchedAt(),
          reason: 'unreadable',
          detail,
        },
      };
    }
  }

  private parse(url: string, response: WebResponse, fetchedAt: string): Pending {
    const { finalUrl } = response;
    const type = response.contentType || sniffType(response.body);
    if (!PAGE_TYPES.has(type)) {
      const hint = type === 'application/pdf' ? ' Upload the PDF as a file source instead.' : '';
      return skipped(
        url,
        finalUrl,
        fetchedAt,
        'unsupported_type',
        `It is ${type || 'of no stated type'}, not a web page or text.${hint}`,
      );
    }
    let title: string | undefined;
    let documents: TextDocument[];
    if (type === 'text/plain') {
      const text = new TextDecoder(response.charset ?? 'utf-8').decode(response.body).trim();
      documents = text ? [{ text }] : [];
    } else {
      const page = readHtmlPage(decodeHtml(response.body, response.charset), { url: finalUrl });
      if (this.followLinks && !page.robots.nofollow) {
        this.links.set(finalUrl, page.links.filter(isPageLink));
      }
      if (page.robots.noindex) {
        return skipped(url, finalUrl, fetchedAt, 'noindex', 'The page asks not to be indexed.');
      }
      title = page.title;
      documents = page.documents;
    }
    const contentHash = createHash('sha256').update(JSON.stringify(documents)).digest('hex');
    return {
      status: 'ok',
      finalUrl,
      public: {
        status: 'ok',
        url,
        finalUrl,
        fetchedAt,
        httpStatus: response.status,
        ...(title ? { title } : {}),
        documents,
        contentHash,
      },
    };
  }

  /** Waits out the site's Crawl-delay since the last request to it. */
  private async pace(url: string, delaySeconds: number): Promise<void> {
    if (delaySeconds <= 0) return;
    const origin = new URL(url).origin;
    const now = Date.now();
    const at = Math.max(now, this.nextStart.get(origin) ?? now);
    this.nextStart.set(origin, at + delaySeconds * 1000);
    if (at > now) await sleep(at - now, undefined, { signal: this.signal });
  }
}

function skipped(
  url: string,
  finalUrl: string,
  fetchedAt: string,
  reason: WebPageSkipped['reason'],
  detail: string,
): Pending {
  return {
    status: 'skipped',
    finalUrl,
    public: { status: 'skipped', url, finalUrl, fetchedAt, reason, detail },
  };
}

/** http(s) only, no fragment, no empty query; undefined for anything else. */
export function normalise(text: string): string | undefined {
  try {
    const url = parseWebUrl(text);
    // An empty query ("/guide?") reads as none, though the URL keeps its "?" until told.
    if (url.search === '') url.search = '';
    return url.href;
  } catch {
    return undefined;
  }
}

function isPageLink(url: string): boolean {
  return !FILE_EXTENSIONS.test(new URL(url).pathname);
}

/** A response without a Content-Type: markup if it starts like markup, else not a page. */
function sniffType(body: Buffer): string {
  const head = body.subarray(0, 512).toString('latin1').trimStart();
  return head.startsWith('<') ? 'text/html' : '';
}
