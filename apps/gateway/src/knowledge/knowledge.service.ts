import {
  isFileSourceType,
  knowledgeFileTypeOf,
  readPipelineConfig,
  storedAnswers,
  ZKnowledgeSourceSettings,
  type TAddSourceRequest,
  type TKnowledgeChange,
  type TKnowledgeSource,
  type TKnowledgeSources,
  type TRefreshSchedule,
  type TUploadedFile,
} from '@agentloom/contracts';
import { envelopeDigest, type KnowledgeSource, type Pipeline } from '@agentloom/db';
import { sanitizeOriginalName } from '@agentloom/source-readers';
import { knowledgeSourceSecretContext, Vault } from '@agentloom/vault';
import {
  ConflictException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  PayloadTooLargeException,
  ServiceUnavailableException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { BuildQueue, QueueUnavailableError } from '../builds/build-queue';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { PipelinesService } from '../pipelines/pipelines.service';
import { DataSourcesService } from '../sources/data-sources.service';
import { UploadsService } from '../sources/uploads.service';
import { KnowledgeQueue, KnowledgeQueueUnavailableError } from './knowledge-queue';
import { KnowledgeRepository } from './knowledge.repository';
import { sourceView } from './knowledge-view';

/** An upload as multer left it on disk (temporary, server-made name). */
export interface IncomingFile {
  path: string;
  originalName: string;
  size: number;
}

export const SQL_AGENTS_HAVE_ONE_SOURCE =
  'A SQL agent answers from the one table (or file) its wizard names; change it there. Knowledge sources are for RAG agents.';
export const SOURCE_NOT_FOUND = 'This agent has no source with that id.';
export const PRIMARY_NOT_REMOVED =
  'This is the agent’s first source, set in its wizard: replace it here, or change it in the wizard. It cannot be removed.';
export const FILES_ARE_REPLACED =
  'A file is not read again by itself: upload its new version (Replace) instead.';
export const ONLY_FILES_REPLACED =
  'Only a file source takes a new version; a table or web source is refreshed instead.';
export const SCHEDULE_UNAVAILABLE =
  'The schedule could not be saved right now (the queue does not answer). Nothing was changed; please try again in a minute.';
export const REFRESH_UNAVAILABLE =
  'The refresh could not be started right now (the queue does not answer). Please try again in a minute.';

/**
 * An agent's knowledge, as its owner changes it: the list of sources, a file added or replaced
 * by a new version, a database table added, a source removed, refreshed now or on a schedule.
 * Every change is kept at once (nothing saved is lost if what follows fails) and made into a
 * build on top of the agent's newest Built build, which the worker indexes, embedding only what
 * changed; while another build runs, the change waits for it.
 */
@Injectable()
export class KnowledgeService {
  private readonly logger = new Logger(KnowledgeService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly pipelines: PipelinesService,
    private readonly pipelineRows: PipelinesRepository,
    private readonly knowledge: KnowledgeRepository,
    private readonly storage: PipelineStorage,
    private readonly uploads: UploadsService,
    private readonly dataSources: DataSourcesService,
    private readonly vault: Vault,
    private readonly queue: KnowledgeQueue,
    private readonly builds: BuildQueue,
  ) {}

  async list(userId: string, agentId: string): Promise<TKnowledgeSources> {
    const pipeline = await this.ragAgent(userId, agentId);
    const sources = await this.knowledge.active(pipeline);
    const building = await this.knowledge.building(pipeline.id);
    return { sources: sources.map(sourceView), building_build_id: building?.id ?? null };
  }

  /** A file added as a new source. */
  async addFile(userId: string, agentId: string, file: IncomingFile): Promise<TKnowledgeSource> {
    const pipeline = await this.ragAgent(userId, agentId);
    const { kind, upload, storedName } = await this.keepFile(pipeline, file);
    const source = await this.knowledge.create({
      pipelineId: pipeline.id,
      userId: pipeline.userId,
      kind: 'file',
      sourceType: kind,
      name: upload.original_name,
      settings: fileSettings(storedName, upload),
      fingerprint: `file:${storedName}`,
      lastChangedAt: new Date(),
    });
    return this.changed(pipeline, source, 'added');
  }

  /** A database table (or collection) added as a new source, checked as the wizard checks one. */
  async addTable(
    userId: string,
    agentId: string,
    request: Extract<TAddSourceRequest, { kind: 'table' }>,
  ): Promise<TKnowledgeSource> {
    const pipeline = await this.ragAgent(userId, agentId);
    const checked = await this.dataSources.check(
      request.source_type,
      request.uri,
      request.database,
      request.collection_or_table,
    );
    const id = randomUUID();
    const uriEncrypted = this.vault.encrypt(
      checked.uri,
      knowledgeSourceSecretContext(pipeline, id),
    );
    const { type, uri, database, table, approximate_rows } = checked.source;
    const source = await this.knowledge.create({
      id,
      pipelineId: pipeline.id,
      userId: pipeline.userId,
      kind: 'table',
      sourceType: type,
      name: table,
      settings: { table: { type, uri, database, table, approximate_rows } },
      uriEncrypted,
      fingerprint: `table:${type}:${database}:${table}:${envelopeDigest(uriEncrypted) ?? ''}`,
      lastChangedAt: new Date(),
    });
    return this.changed(pipeline, source, 'added');
  }

  /**
   * Web pages added as a new source: one page, the pages its same-site links lead to (up to
   * `max_pages`), or a sitemap's pages. The address passes the network guard now, before
   * anything connects; the builder reads the pages through the same guard.
   */
  async addWeb(
    userId: string,
    agentId: string,
    request: Extract<TAddSourceRequest, { kind: 'web' }>,
  ): Promise<TKnowledgeSource> {
    const pipeline = await this.ragAgent(userId, agentId);
    const { url } = await this.dataSources.checkWeb(request.url);
    const maxPages = request.max_pages ?? 1;
    const sitemap = /\/sitemap[^/]*\.xml$/i.test(new URL(url).pathname);
    const source = await this.knowledge.create({
      pipelineId: pipeline.id,
      userId: pipeline.userId,
      kind: 'web',
      sourceType: 'web',
      name: url,
      settings: { web: { url, max_pages: maxPages, sitemap, pages: 0 } },
      fingerprint: `web:${maxPages}:${url}`.slice(0, 200),
      lastChangedAt: new Date(),
    });
    return this.changed(pipeline, source, 'added');
  }

  /** A new version of a file source (the wizard's too: its wizard then shows the new file). */
  async replace(
    userId: string,
    agentId: string,
    sourceId: string,
    file: IncomingFile,
  ): Promise<TKnowledgeSource> {
    const pipeline = await this.ragAgent(userId, agentId);
    const source = await this.owned(pipeline, sourceId);
    if (source.kind !== 'file') throw new UnprocessableEntityException(ONLY_FILES_REPLACED);
    const before = ZKnowledgeSourceSettings.parse(source.settings).file;
    const previous = before?.stored_name;
    const { kind, upload, storedName } = await this.keepFile(
      pipeline,
      file,
      before?.upload.size_bytes ?? 0,
    );
    if (source.primary) {
      // The wizard's source lives on the pipeline: it changes there, and its row follows. It
      // takes the wizard's kinds only (the wizard shows it).
      if (!isFileSourceType(kind)) {
        await this.storage.removeUpload(pipeline.id, storedName);
        throw new UnsupportedMediaTypeException(
          'The agent’s first source takes a PDF, CSV, Excel (.xlsx) or TXT file; add this one as another source instead.',
        );
      }
      const config = readPipelineConfig(pipeline.agentType, pipeline.config);
      if (config.data?.agent_type !== 'rag') {
        throw new UnprocessableEntityException('The agent’s settings are damaged.');
      }
      const { database: _replaced, ...rest } = config.data;
      const updated = await this.pipelineRows.updateOwned(pipeline.id, pipeline.userId, {
        sourceFile: storedName,
        sourceUriEncrypted: null,
        config: storedAnswers({ ...rest, source_type: kind, file: upload }),
      });
      if (!updated) throw new NotFoundException(SOURCE_NOT_FOUND);
      await this.storage.removeUpload(pipeline.id, pipeline.sourceFile);
      const row = await this.knowledge.ensurePrimary(updated);
      return this.changed(updated, row ?? source, 'new version');
    }
    const row = await this.knowledge.update(source.id, {
      sourceType: kind,
      name: upload.original_name,
      settings: fileSettings(storedName, upload),
      fingerprint: `file:${storedName}`,
      contentVersion: { increment: 1 },
      status: 'waiting',
      error: null,
      lastChangedAt: new Date(),
    });
    await this.storage.removeUpload(pipeline.id, previous);
    return this.changed(pipeline, row, 'new version');
  }

  /** A source taken out of the agent's knowledge (older builds still name it: rollback works). */
  async remove(userId: string, agentId: string, sourceId: string): Promise<void> {
    const pipeline = await this.ragAgent(userId, agentId);
    const source = await this.owned(pipeline, sourceId);
    if (source.primary) throw new ConflictException(PRIMARY_NOT_REMOVED);
    await this.knowledge.update(source.id, { status: 'removed', refresh: 'off' });
    if (source.refresh !== 'off')
      await this.queue.schedule(source.id, 'off').catch(() => undefined);
    await this.startBuild(pipeline, [
      { source_id: source.id, name: source.name, change: 'removed' },
    ]);
  }

  /** Reads a table or web source again now; a file is replaced instead. */
  async refresh(userId: string, agentId: string, sourceId: string): Promise<TKnowledgeSource> {
    const pipeline = await this.ragAgent(userId, agentId);
    const source = await this.owned(pipeline, sourceId);
    if (source.kind === 'file') throw new UnprocessableEntityException(FILES_ARE_REPLACED);
    try {
      await this.queue.refreshNow(source.id);
    } catch (error) {
      if (error instanceof KnowledgeQueueUnavailableError) {
        throw new ServiceUnavailableException(REFRESH_UNAVAILABLE);
      }
      throw error;
    }
    return sourceView(source);
  }

  /** How often a table or web source is read again: off, hourly or daily. */
  async schedule(
    userId: string,
    agentId: string,
    sourceId: string,
    refresh: TRefreshSchedule,
  ): Promise<TKnowledgeSource> {
    const pipeline = await this.ragAgent(userId, agentId);
    const source = await this.owned(pipeline, sourceId);
    if (source.kind === 'file' && refresh !== 'off') {
      throw new UnprocessableEntityException(FILES_ARE_REPLACED);
    }
    try {
      await this.queue.schedule(source.id, refresh);
    } catch (error) {
      if (error instanceof KnowledgeQueueUnavailableError) {
        throw new ServiceUnavailableException(SCHEDULE_UNAVAILABLE);
      }
      throw error;
    }
    const row = await this.knowledge.update(source.id, {
      refresh,
      // Turning a paused schedule on again starts its count afresh.
      failedRefreshes: 0,
      ...(source.status === 'paused' && { status: 'failed' }),
    });
    return sourceView(row);
  }

  private async ragAgent(userId: string, agentId: string): Promise<Pipeline> {
    const pipeline = await this.pipelines.findOwned(userId, agentId);
    if (pipeline.agentType !== 'rag') {
      throw new UnprocessableEntityException(SQL_AGENTS_HAVE_ONE_SOURCE);
    }
    return pipeline;
  }

  private async owned(pipeline: Pipeline, sourceId: string): Promise<KnowledgeSource> {
    const source = /^[0-9a-f-]{36}$/i.test(sourceId)
      ? await this.knowledge.findActive(pipeline.id, sourceId)
      : null;
    if (!source) throw new NotFoundException(SOURCE_NOT_FOUND);
    return source;
  }

  /** An upload checked by content and kept under a server-made name, within the user's quota. */
  private async keepFile(pipeline: Pipeline, file: IncomingFile, replacedBytes = 0) {
    const originalName = sanitizeOriginalName(file.originalName);
    const extension = path.extname(originalName).toLowerCase();
    const kind = knowledgeFileTypeOf(originalName);
    if (!kind) {
      throw new UnsupportedMediaTypeException(
        `An agent reads PDF, CSV, Excel (.xlsx), TXT, Word (.docx), Markdown and HTML files; "${originalName}" is not one of them.`,
      );
    }
    await this.assertQuota(pipeline, file.size, replacedBytes);
    const summary = await this.uploads.inspect(pipeline.userId, file.path, kind);
    const storedName = await this.storage.keepUpload(pipeline.id, file.path, extension);
    const upload: TUploadedFile = {
      original_name: originalName,
      size_bytes: file.size,
      summary,
      uploaded_at: new Date().toISOString(),
    };
    return { kind, upload, storedName };
  }

  /** One account's files may take at most MAX_STORED_BYTES_PER_USER (a replaced one is not counted). */
  private async assertQuota(pipeline: Pipeline, incoming: number, replacedBytes: number) {
    const limit = this.config.MAX_STORED_BYTES_PER_USER;
    const wizardFiles = await this.pipelineRows.storedUploadBytes(
      pipeline.userId,
      '00000000-0000-0000-0000-000000000000',
    );
    const added = await this.knowledge.addedFileBytes(pipeline.userId);
    const stored = wizardFiles + added - replacedBytes;
    if (stored + incoming > limit) {
      const size = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;
      throw new PayloadTooLargeException(
        `Your agents' files already take ${size(stored)} of the ${size(limit)} an account may store. Remove a source or delete an agent, then upload again.`,
      );
    }
  }

  /** A change kept: a build starts on top of the agent's newest Built build, or waits. */
  private async changed(
    pipeline: Pipeline,
    source: KnowledgeSource,
    change: string,
  ): Promise<TKnowledgeSource> {
    await this.startBuild(pipeline, [{ source_id: source.id, name: source.name, change }]);
    const now = await this.knowledge.findActive(pipeline.id, source.id);
    return sourceView(now ?? source);
  }

  private async startBuild(pipeline: Pipeline, changes: TKnowledgeChange[]): Promise<void> {
    const base = await this.knowledge.latestBuilt(pipeline.id);
    // Never built: the owner's first build reads every source.
    if (!base) return;
    const build = await this.knowledge.startKnowledgeBuild(pipeline, base, changes);
    // A build runs: the change waits for it (the worker starts the next one when it ends).
    if (!build) return;
    try {
      await this.builds.enqueue(build.id);
    } catch (error) {
      if (!(error instanceof QueueUnavailableError)) throw error;
      // The change is kept and waits: the next build of the agent reads it.
      this.logger.warn(`Knowledge build ${build.id} not enqueued: ${error.message}`);
      await this.knowledge.abandonBuild(build, pipeline.status);
    }
  }
}

function fileSettings(storedName: string, upload: TUploadedFile) {
  const summary = upload.summary;
  return {
    file: {
      stored_name: storedName,
      upload,
      ...(summary.kind === 'excel' && { sheet: summary.sheet }),
    },
  };
}
