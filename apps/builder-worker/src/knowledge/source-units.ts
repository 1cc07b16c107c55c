import { DataSourceAccess, type WebSourceSettings } from '@agentloom/data-sources';
import type { KnowledgeSource, Pipeline } from '@agentloom/db';
import { knowledgeSourceSecretContext, pipelineSecretContext, Vault } from '@agentloom/vault';
import { Inject, Injectable } from '@nestjs/common';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import { idPrefixOf, type IndexContext } from './index-context';
import { settingsOf } from './knowledge.repository';
import { tableUnits, webUnits, type TableUnit, type WebReadOutcome } from './source-chunks';
import { SourceError } from './source-errors';

/**
 * A table's rows and a site's pages as units of change (a row by its key, a page by its
 * address), read through the data-sources guard with the gateway's settings: the table through
 * a server-side cursor, the site through the pinned web client.
 */
@Injectable()
export class SourceUnits {
  private readonly access: DataSourceAccess;
  private readonly webSettings: WebSourceSettings;

  constructor(
    @Inject(WORKER_CONFIG) config: WorkerConfig,
    private readonly vault: Vault,
  ) {
    this.webSettings = {
      platformUrls: { database: config.DATABASE_URL, redis: config.REDIS_URL },
      strict: config.DATA_SOURCE_STRICT,
      allowedHosts: config.DATA_SOURCE_ALLOWED_HOSTS,
      timeoutMs: config.DATA_SOURCE_TIMEOUT_MS,
    };
    this.access = new DataSourceAccess({
      ...this.webSettings,
      sqliteDir: config.SQLITE_PREVIEW_DIR,
    });
  }

  /** A table's rows (or, later, a site's pages) as units of change, with live progress. */
  of(
    ctx: IndexContext,
    source: KnowledgeSource,
    outcome: WebReadOutcome,
  ): AsyncIterable<TableUnit[]> {
    const { table, web } = settingsOf(source);
    if (source.kind === 'web' && web) {
      return this.pagesOf(ctx, source, web, outcome);
    }
    if (source.kind !== 'table' || !table) {
      throw new SourceError(`${source.name}: this kind of source cannot be read.`);
    }
    const uri = this.tableUri(ctx.pipeline, source);
    const of = table.approximate_rows ?? 0;
    return tableUnits(
      this.access,
      {
        type: table.type,
        uri,
        database: table.database,
        table: table.table,
        label: table.table,
      },
      ctx.chunking,
      idPrefixOf(source),
      (rows) =>
        ctx.report({ done: rows, of: Math.max(of, rows), unit: 'rows', source: source.name }),
    );
  }

  /** A site's pages; when none could be read, the first page's reason is the source's error. */
  private async *pagesOf(
    ctx: IndexContext,
    source: KnowledgeSource,
    web: { url: string; max_pages: number; sitemap: boolean },
    outcome: WebReadOutcome,
  ): AsyncGenerator<TableUnit[]> {
    yield* webUnits(
      this.webSettings,
      { url: web.url, maxPages: web.max_pages, sitemap: web.sitemap },
      ctx.chunking,
      idPrefixOf(source),
      outcome,
      (pages) => ctx.report({ done: pages, of: web.max_pages, unit: 'pages', source: source.name }),
    );
    if (outcome.pages === 0) {
      throw new SourceError(
        outcome.failed
          ? `No page of ${web.url} could be read (${outcome.failed}).`
          : `${web.url} has no page to read (each was skipped: robots.txt, noindex, or not HTML).`,
      );
    }
  }

  /** The table's connection URI: the wizard's source keeps it on the pipeline, others on the source. */
  private tableUri(pipeline: Pipeline, source: KnowledgeSource): string {
    if (source.primary) {
      if (!pipeline.sourceUriEncrypted) {
        throw new SourceError('The agent has no database connection; set it in the wizard.');
      }
      return this.vault.decrypt(
        pipeline.sourceUriEncrypted,
        pipelineSecretContext(pipeline, 'source_uri'),
      );
    }
    if (!source.uriEncrypted) throw new SourceError('The source has no connection; add it again.');
    return this.vault.decrypt(
      source.uriEncrypted,
      knowledgeSourceSecretContext(pipeline, source.id),
    );
  }
}
