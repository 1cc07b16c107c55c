export { checkWebSource, parseWebUrl } from './web-target';
export type { CheckedWebSource, WebSourceSettings } from './web-target';
export { crawlWebSource, DEFAULT_WEB_CRAWL_LIMITS } from './crawl';
export type {
  CrawledPage,
  WebCrawlLimits,
  WebCrawlMode,
  WebCrawlRequest,
  WebCrawlSummary,
  WebPageFailed,
  WebPageRead,
  WebPageSkipped,
} from './crawl';
export { parseSitemap } from './sitemap';
export { USER_AGENT } from './web-fetcher';
export type { WebPageErrorReason } from './web-fetcher';
export { ROBOTS_AGENT } from './robots';
