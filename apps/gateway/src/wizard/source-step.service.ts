import {
  frameworkFitsSource,
  isFileSourceType,
  readableSize,
  SOURCE_TYPE_LABELS,
  SQL_SOURCE_TYPES,
  UPLOAD_EXTENSIONS,
  type TDatabaseSource,
  type TDatabaseSourceType,
  type TPipelineConfig,
  type TRagSourceType,
  type TSqlFramework,
  type TSqlSourceType,
  type TStepAnswer,
  type ZDatabaseSourceSaved,
  type ZUploadSaved,
} from '@agentloom/contracts';
import type { Pipeline } from '@agentloom/db';
import { sanitizeOriginalName } from '@agentloom/source-readers';
import {
  BadRequestException,
  Inject,
  Injectable,
  PayloadTooLargeException,
  UnprocessableEntityException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import path from 'node:path';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PipelineSecrets } from '../pipelines/pipeline-secrets';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { PipelineChanges } from '../pipelines/pipelines.repository';
import { DataSourcesService } from '../sources/data-sources.service';
import { UploadsService } from '../sources/uploads.service';
import { StepAnswer, WizardCall, WizardSessions } from './wizard-sessions';

/** An upload as multer left it on disk (temporary, server-made name). */
export interface IncomingFile {
  path: string;
  originalName: string;
  size: number;
}

/** A database table or collection to connect; the type defaults to the one on record. */
export interface DatabaseSourceRequest {
  source_type?: TDatabaseSourceType;
  uri: string;
  database: string;
  table: string;
}

const SQL_CANNOT_USE_MONGO = 'SQL agents cannot use MongoDB as a source.';

const isSqlSourceType = (type: string): type is TSqlSourceType =>
  (SQL_SOURCE_TYPES as readonly string[]).includes(type);

/** "A PDF", "An Excel". */
const withArticle = (label: string) => `${/^[AEIOU]/i.test(label) ? 'An' : 'A'} ${label}`;

/**
 * The source steps of both wizards (docs/product.md#the-wizard-data-source): the source type, then
 * its file or database. Changing the type clears the details (and framework) that no longer fit it;
 * a new file or database replaces the other, and the replaced upload is deleted once the row no
 * longer names it.
 */
@Injectable()
export class SourceStepService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: WizardSessions,
    private readonly secrets: PipelineSecrets,
    private readonly storage: PipelineStorage,
    private readonly uploads: UploadsService,
    private readonly dataSources: DataSourcesService,
  ) {}

  async setSourceType<Type extends TRagSourceType>(
    call: WizardCall,
    sourceType: Type,
  ): Promise<StepAnswer<{ source_type: Type }>> {
    const session = await this.sessions.open(call);
    const { pipeline, config } = session;
    const changes: PipelineChanges = {};
    const notes: string[] = [];
    if (config.source_type !== sourceType) {
      Object.assign(changes, this.clearSource(pipeline, config, sourceType));
      recordSourceType(config, sourceType);
      const cleared = clearUnfitFramework(config, sourceType);
      if (cleared) {
        notes.push(
          `The ${cleared} framework cannot serve a ${SOURCE_TYPE_LABELS[sourceType]} source, so it was cleared.`,
        );
      }
    }
    await this.sessions.save(session, changes);
    if (changes.sourceFile === null)
      await this.storage.removeUpload(pipeline.id, pipeline.sourceFile);
    return this.sessions.answer(pipeline, ['Source type saved.', ...notes].join(' '), {
      source_type: sourceType,
    });
  }

  async saveUpload(
    call: WizardCall,
    file: IncomingFile | undefined,
  ): Promise<TStepAnswer<typeof ZUploadSaved>> {
    if (!file) throw new BadRequestException('No file selected');
    const session = await this.sessions.open(call);
    const { pipeline, config } = session;
    const kind = config.source_type;
    if (!isFileSourceType(kind)) {
      throw new UnprocessableEntityException(
        call.agentType === 'rag'
          ? 'Choose PDF, CSV, Excel or TXT as the source type before uploading a file.'
          : 'Choose CSV or Excel as the source type before uploading a file.',
      );
    }
    const originalName = sanitizeOriginalName(file.originalName);
    const expected = UPLOAD_EXTENSIONS[kind];
    if (path.extname(originalName).toLowerCase() !== expected) {
      throw new UnsupportedMediaTypeException(
        `${withArticle(SOURCE_TYPE_LABELS[kind])} source takes a ${expected} file; "${originalName}" is not one.`,
      );
    }
    await this.assertStorageQuota(pipeline, file.size);
    const summary = await this.uploads.inspect(call.userId, file.path, kind);

    const storedName = await this.storage.keepUpload(pipeline.id, file.path, expected);
    const uploaded = {
      original_name: originalName,
      size_bytes: file.size,
      summary,
      uploaded_at: new Date().toISOString(),
    };
    config.file = uploaded;
    delete config.database;
    try {
      await this.sessions.save(session, { sourceFile: storedName, sourceUriEncrypted: null });
    } catch (error) {
      await this.storage.removeUpload(pipeline.id, storedName);
      throw error;
    }
    await this.storage.removeUpload(pipeline.id, pipeline.sourceFile);
    return this.sessions.answer(pipeline, `${originalName} uploaded.`, { file: uploaded });
  }

  async saveDatabaseSource(
    call: WizardCall,
    request: DatabaseSourceRequest,
  ): Promise<TStepAnswer<typeof ZDatabaseSourceSaved>> {
    const session = await this.sessions.open(call);
    const { pipeline, config } = session;
    const type = request.source_type ?? config.source_type;
    if (!type || isFileSourceType(type)) {
      throw new UnprocessableEntityException(
        'Choose MySQL, Postgres or SQLite as the source type before connecting a database.',
      );
    }
    if (call.agentType === 'sql' && type === 'mongo') {
      throw new UnprocessableEntityException(SQL_CANNOT_USE_MONGO);
    }
    const uri = this.secrets.connectionUri({
      owner: pipeline,
      saved: config.database,
      type,
      uri: request.uri,
    });
    const checked = await this.dataSources.check(type, uri, request.database, request.table);

    clearUnfitFramework(config, type);
    recordSourceType(config, type);
    config.database = checked.source;
    delete config.file;
    await this.sessions.save(session, {
      sourceUriEncrypted: this.secrets.encrypt(pipeline, 'source_uri', checked.uri),
      sourceFile: null,
    });
    await this.storage.removeUpload(pipeline.id, pipeline.sourceFile);
    return this.sessions.answer(pipeline, connectedMessage(checked.source), {
      database: checked.source,
    });
  }

  /** One account's uploads may take at most MAX_STORED_BYTES_PER_USER (a replaced file is not counted). */
  private async assertStorageQuota(pipeline: Pipeline, incoming: number): Promise<void> {
    const limit = this.config.MAX_STORED_BYTES_PER_USER;
    const stored = await this.sessions.otherUploadsBytes(pipeline);
    if (stored + incoming > limit) {
      throw new PayloadTooLargeException(
        `Your agents' files already take ${readableSize(stored)} of the ${readableSize(limit)} an account may store. Delete an agent or remove its file, then upload again.`,
      );
    }
  }

  /** A different source type makes the saved file or database details meaningless. */
  private clearSource(
    pipeline: Pipeline,
    config: TPipelineConfig,
    nextType: TRagSourceType,
  ): PipelineChanges {
    const changes: PipelineChanges = {};
    if (config.file && config.file.summary.kind !== nextType) {
      delete config.file;
      if (pipeline.sourceFile) changes.sourceFile = null;
    }
    if (config.database && config.database.type !== nextType) {
      delete config.database;
      changes.sourceUriEncrypted = null;
    }
    return changes;
  }
}

/** The source type on record, as the agent's kind may hold it (the SQL wizard offers no MongoDB). */
function recordSourceType(config: TPipelineConfig, type: TRagSourceType): void {
  if (config.agent_type === 'rag') config.source_type = type;
  else if (isSqlSourceType(type)) config.source_type = type;
  else throw new UnprocessableEntityException(SQL_CANNOT_USE_MONGO);
}

/** A SQL agent's framework that cannot read a `type` source is cleared; returns it, if one was. */
function clearUnfitFramework(
  config: TPipelineConfig,
  type: TRagSourceType,
): TSqlFramework | undefined {
  if (config.agent_type !== 'sql' || !config.framework) return undefined;
  if (frameworkFitsSource(config.framework, type)) return undefined;
  const cleared = config.framework;
  delete config.framework;
  return cleared;
}

function connectedMessage(source: TDatabaseSource): string {
  if (!source.columns) {
    return `Saved. The SQLite file is opened where the agent runs, so it was not checked here.`;
  }
  const rows = source.approximate_rows === null ? '' : `, about ${source.approximate_rows} rows`;
  return `Connected: ${source.table} has ${source.columns.length} columns${rows}.`;
}
