import {
  buildStagesOf,
  isFileSourceType,
  TBuildProgress,
  TBuildStage,
  TPipelineConfig,
  wizardSteps,
  ZPipelineConfig,
} from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import {
  apiKeySecretContext,
  pipelineSecretContext,
  Vault,
  VaultDecryptError,
} from '@agentloom/vault';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import {
  assertProjectPaths,
  chunkDocumentBatches,
  generateProjectPart,
  planProject,
  ProjectInputError,
  projectFolderName,
  RAG_DEFAULTS,
  sortedByPath,
  writeChunksJsonl,
  type GeneratedFile,
  type ProjectPart,
  type ProjectPlan,
} from '../generator';
import { PrismaService } from '../prisma/prisma.service';
import { ArtifactFile, ArtifactStore } from './artifact-store';
import { BuildsRepository } from './builds.repository';
import {
  sourceDocumentBatches,
  tableRecordBatches,
  type SourceReadOptions,
} from './source-documents';
import { UnreadableUploadError } from '@agentloom/source-readers';

/** A failure the user can act on; its message is shown on the build screen as it is. */
export class BuildError extends Error {}

/**
 * Runs work that reads the upload. It was checked when it arrived, so a file that no longer
 * reads is the user's to replace: that becomes a BuildError with the reader's reason.
 */
async function readingUpload<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnreadableUploadError) {
      throw new BuildError(`${error.message} Upload the file again.`);
    }
    throw error;
  }
}

/** Files that belong to "deploying container" rather than "generating code". */
const DEPLOYMENT_FILES = /^(Dockerfile|docker-compose\.yml|\.dockerignore|\.github\/)/;

export type ReportProgress = (progress: TBuildProgress) => Promise<void>;

interface BuildContext {
  build: Build;
  pipeline: Pipeline;
  config: TPipelineConfig;
  /** File sources: the upload as a local file (from the object store), once `validate` ran. */
  sourceFile?: string;
  /** RAG file sources: data/chunks.jsonl, written in the build's work folder. */
  chunksFile?: string;
  plan?: ProjectPlan;
  /** The project's files, added part by part by the stages that make them. */
  files: GeneratedFile[];
  artifact?: { name: string; bytes: number };
}

/**
 * Runs one build: each stage of SPEC §9 mapped to the step that really does its work, reported
 * when it starts and when it ends (the build row for the record, job progress for the live
 * feed). Secrets are decrypted only to prove they are usable and never leave this process.
 */
@Injectable()
export class BuildRunner {
  private readonly logger = new Logger(BuildRunner.name);

  constructor(
    private readonly builds: BuildsRepository,
    private readonly artifacts: ArtifactStore,
    private readonly vault: Vault,
    private readonly prisma: PrismaService,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
  ) {}

  async run(buildId: string, report: ReportProgress): Promise<void> {
    const found = await this.builds.findWithPipeline(buildId);
    if (!found) throw new BuildError(`Build ${buildId} no longer exists.`);
    if (found.status !== 'Building') {
      // Its worker recorded the end, then died before BullMQ heard of it, so the stalled job
      // came back. Building it again would flip a finished agent back to Building and rewrite a
      // zip that may be downloading; the recorded end stands, and the job simply completes.
      this.logger.log(`Build ${buildId} already ended ${found.status}; not running it again.`);
      return;
    }
    const { pipeline } = found;
    const build = await this.builds.markStarted(buildId);
    const names = buildStagesOf(pipeline.agentType);
    const context: BuildContext = { build, pipeline, config: {}, files: [] };

    try {
      await this.runStages(context, names, report);
    } finally {
      await this.artifacts.removeWorkDir(build.id);
    }
    if (!context.artifact) throw new Error('The build ended without an artifact.');
    await this.builds.markBuilt(build, context.artifact.name, context.artifact.bytes);
    this.logger.log(`Build ${build.id} built (${context.artifact.bytes} bytes).`);
  }

  private async runStages(
    context: BuildContext,
    names: readonly string[],
    report: ReportProgress,
  ): Promise<void> {
    const { build } = context;
    const stages: TBuildStage[] = [];
    for (const [index, name] of names.entries()) {
      const stage: TBuildStage = { name, started_at: new Date().toISOString(), finished_at: null };
      stages.push(stage);
      await this.builds.saveStages(build.id, stages);
      await report(this.progress(build, name, index, names.length, 'started'));
      await this.perform(name, context);
      stage.finished_at = new Date().toISOString();
      await this.builds.saveStages(build.id, stages);
      await report(this.progress(build, name, index, names.length, 'finished'));
    }
  }

  private async perform(stage: string, context: BuildContext): Promise<void> {
    switch (stage) {
      case 'initializing environment':
        return this.validate(context);
      case 'training embeddings':
      case 'loading data source':
        return this.loadSource(context);
      case 'setting up databases':
        // The vector store's client module, its test, and the compose file with its service.
        return this.addPart(context, 'vector-store');
      case 'profiling schema':
        return this.profileSchema(context);
      case 'configuring query engine':
        return this.addPart(context, 'query-engine');
      case 'securing SQL access':
        // The read-only connection and the single-SELECT guard (PandasAI runs no SQL).
        return this.addPart(context, 'sql-guard');
      case 'integrating AI models':
        await this.checkSecrets(context);
        return this.addPart(context, 'models');
      case 'generating code':
        await this.addPart(context, 'data');
        return this.addPart(context, 'code');
      case 'deploying container':
        await this.addPart(context, 'deployment');
        return this.checkDeployment(context);
      case 'finalizing build':
        return this.store(context);
      case 'build complete':
        return;
      default:
        throw new Error(`No step for stage "${stage}".`);
    }
  }

  private async validate(context: BuildContext): Promise<void> {
    const parsed = ZPipelineConfig.safeParse(context.pipeline.config);
    if (!parsed.success)
      throw new BuildError(
        'The agent configuration is invalid; open the wizard and save it again.',
      );
    context.config = parsed.data;
    const { pipeline } = context;
    // The same rule the gateway applied before enqueueing; the configuration may have changed
    // since (a vault key deleted, say), so it is checked again here.
    const missing = wizardSteps(pipeline.agentType, context.config, {
      sourceFile: Boolean(pipeline.sourceFile),
      sourceUri: Boolean(pipeline.sourceUriEncrypted),
      llmKey: Boolean(pipeline.llmApiKeyEncrypted || pipeline.llmApiKeyId),
      vectorDbKey: Boolean(pipeline.vectorDbApiKeyEncrypted),
    }).filter((step) => !step.complete);
    if (missing.length > 0) {
      throw new BuildError(
        `The configuration is incomplete: ${missing.map((step) => step.label).join(', ')}.`,
      );
    }
    if (isFileSourceType(context.config.source_type) && pipeline.sourceFile) {
      context.sourceFile =
        (await this.artifacts.sourceFile(pipeline.id, pipeline.sourceFile)) ?? undefined;
    }
    this.plan(context);
  }

  /** Plans the project from what is known so far; a plan that cannot work is the user's to fix. */
  private plan(context: BuildContext): void {
    const { pipeline, config } = context;
    const dataFileName = config.file
      ? `source${path.extname(config.file.original_name).toLowerCase()}`
      : undefined;
    try {
      context.plan = planProject({
        sessionId: pipeline.id,
        agentType: pipeline.agentType,
        name: pipeline.name,
        config,
        sourceFile:
          isFileSourceType(config.source_type) && dataFileName
            ? { path: this.uploadPath(context), dataFileName }
            : undefined,
        chunksFile: context.chunksFile,
      });
    } catch (error) {
      if (error instanceof ProjectInputError) throw new BuildError(error.message);
      throw error;
    }
  }

  private async addPart(context: BuildContext, part: ProjectPart): Promise<void> {
    if (!context.plan) throw new Error('The project was not planned.');
    context.files.push(...(await generateProjectPart(context.plan, part)));
  }

  /**
   * SQL file sources: reads the whole table once through the same reader the wizard used, so a
   * file that no longer parses, or has a header and no rows, fails here with a reason rather
   * than in the user's agent. Database tables were profiled when the wizard connected to them.
   */
  private async profileSchema(context: BuildContext): Promise<void> {
    const kind = context.config.source_type;
    if (kind !== 'csv' && kind !== 'excel') return;
    const { file, name, options } = this.uploadedSource(context);
    let rows = 0;
    let columns: string[] = [];
    await readingUpload(async () => {
      for await (const records of tableRecordBatches(kind, file, options)) {
        if (rows === 0 && records[0]) columns = Object.keys(records[0]);
        rows += records.length;
      }
    });
    if (rows === 0) {
      throw new BuildError(`${name} has no data rows to query; upload a file with data.`);
    }
    this.logger.log(
      `Build ${context.build.id}: ${name} has ${rows} rows, ${columns.length} columns.`,
    );
  }

  /** The uploaded file, its name for citations and messages, and how to read it. */
  private uploadedSource(context: BuildContext): {
    file: string;
    name: string;
    options: SourceReadOptions;
  } {
    const file = this.uploadPath(context);
    const summary = context.config.file?.summary;
    return {
      file,
      name: context.config.file?.original_name ?? path.basename(file),
      options: {
        maxUncompressedBytes: this.config.XLSX_MAX_UNCOMPRESSED_BYTES,
        sheet: summary?.kind === 'excel' ? summary.sheet : undefined,
      },
    };
  }

  /** The upload's local copy; empty when it is gone, which the stage reading it reports. */
  private uploadPath(context: BuildContext): string {
    return context.sourceFile ?? '';
  }

  /**
   * Reads the uploaded source. For a RAG agent it is parsed and chunked exactly as the agent's
   * own loaders would (PDF pages, CSV/Excel rows, text windows) and streamed to
   * data/chunks.jsonl, which the agent indexes when it starts. Database sources are read by the
   * agent itself where it runs: the platform never copies a user's tables.
   */
  private async loadSource(context: BuildContext): Promise<void> {
    const { config, pipeline } = context;
    const type = config.source_type;
    if (!type || !isFileSourceType(type)) return;
    const { file, name, options } = this.uploadedSource(context);
    await access(file).catch(() => {
      throw new BuildError('The uploaded source file is missing; upload it again.');
    });
    if (pipeline.agentType !== 'rag') return;
    const documents = sourceDocumentBatches(type, file, name, options);
    const chunksFile = path.join(await this.artifacts.workDir(context.build.id), 'chunks.jsonl');
    const count = await readingUpload(() =>
      writeChunksJsonl(
        chunksFile,
        chunkDocumentBatches(documents, RAG_DEFAULTS.chunk_size, RAG_DEFAULTS.chunk_overlap),
      ),
    );
    if (count === 0) {
      throw new BuildError(`${name} contains no text to answer from; upload another file.`);
    }
    context.chunksFile = chunksFile;
    this.plan(context); // agent.json now names the chunks file
  }

  /** Every secret the agent needs must decrypt; the plain values are dropped right away. */
  private async checkSecrets(context: BuildContext): Promise<void> {
    const { pipeline } = context;
    try {
      if (pipeline.llmApiKeyEncrypted) {
        this.vault.decrypt(
          pipeline.llmApiKeyEncrypted,
          pipelineSecretContext(pipeline, 'llm_api_key'),
        );
      } else if (pipeline.llmApiKeyId) {
        const key = await this.prisma.client.apiKey.findFirst({
          where: { id: pipeline.llmApiKeyId, userId: pipeline.userId },
        });
        if (!key)
          throw new BuildError(
            'The saved API key this agent uses was deleted; choose another key.',
          );
        this.vault.decrypt(key.encryptedKey, apiKeySecretContext(key.userId, key.id));
      }
      if (pipeline.vectorDbApiKeyEncrypted) {
        this.vault.decrypt(
          pipeline.vectorDbApiKeyEncrypted,
          pipelineSecretContext(pipeline, 'vector_db_api_key'),
        );
      }
      if (pipeline.sourceUriEncrypted) {
        this.vault.decrypt(
          pipeline.sourceUriEncrypted,
          pipelineSecretContext(pipeline, 'source_uri'),
        );
      }
    } catch (error) {
      if (error instanceof VaultDecryptError) {
        throw new BuildError(
          'A stored key can no longer be decrypted; enter it again in the wizard.',
        );
      }
      throw error;
    }
  }

  private checkDeployment(context: BuildContext): void {
    const deployment = context.files.filter((file) => DEPLOYMENT_FILES.test(file.path));
    for (const required of ['Dockerfile', 'docker-compose.yml', '.github/workflows/ci.yml']) {
      if (!deployment.some((file) => file.path === required)) {
        throw new Error(`The generated project lacks ${required}.`);
      }
    }
  }

  private async store(context: BuildContext): Promise<void> {
    const { build, pipeline } = context;
    assertProjectPaths(context.files);
    const files: ArtifactFile[] = sortedByPath(context.files);
    context.artifact = await this.artifacts.writeZip(
      pipeline.id,
      build.id,
      projectFolderName(pipeline.agentType, pipeline.id),
      files,
    );
  }

  private progress(
    build: Build,
    stage: string,
    index: number,
    total: number,
    state: 'started' | 'finished',
  ): TBuildProgress {
    return { buildId: build.id, stage, index, total, state, at: new Date().toISOString() };
  }
}
