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
import { Injectable, Logger } from '@nestjs/common';
import { access } from 'node:fs/promises';
import path from 'node:path';
import {
  generateProject,
  ProjectInputError,
  projectFolderName,
  type GeneratedFile,
  type SourceChunk,
} from '../generator';
import { PrismaService } from '../prisma/prisma.service';
import { ArtifactFile, ArtifactStore } from './artifact-store';
import { BuildsRepository } from './builds.repository';
import { chunkCsv, chunkTextFile } from './source-chunks';

/** A failure the user can act on; its message is shown on the build screen as it is. */
export class BuildError extends Error {}

/** Files that belong to "deploying container" rather than "generating code". */
const DEPLOYMENT_FILES = /^(Dockerfile|docker-compose\.yml|\.dockerignore|\.github\/)/;

export type ReportProgress = (progress: TBuildProgress) => Promise<void>;

interface BuildContext {
  build: Build;
  pipeline: Pipeline;
  config: TPipelineConfig;
  chunks: SourceChunk[];
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
  ) {}

  async run(buildId: string, report: ReportProgress): Promise<void> {
    const found = await this.builds.findWithPipeline(buildId);
    if (!found) throw new BuildError(`Build ${buildId} no longer exists.`);
    const { pipeline } = found;
    const build = await this.builds.markStarted(buildId);
    const names = buildStagesOf(pipeline.agentType);
    const stages: TBuildStage[] = [];
    const context: BuildContext = { build, pipeline, config: {}, chunks: [], files: [] };

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
    if (!context.artifact) throw new Error('The build ended without an artifact.');
    await this.builds.markBuilt(build, context.artifact.name, context.artifact.bytes);
    this.logger.log(`Build ${build.id} built (${context.artifact.bytes} bytes).`);
  }

  private async perform(stage: string, context: BuildContext): Promise<void> {
    switch (stage) {
      case 'initializing environment':
        return this.validate(context);
      case 'training embeddings':
      case 'loading data source':
        return this.loadSource(context);
      case 'setting up databases':
      case 'profiling schema':
      case 'configuring query engine':
      case 'securing SQL access':
        // Their settings were checked in 'initializing environment'; the vector-store service,
        // schema profile, engine and read-only guard are written by 'generating code'.
        return;
      case 'integrating AI models':
        return this.checkSecrets(context);
      case 'generating code':
        return this.generate(context);
      case 'deploying container':
        return this.checkDeployment(context);
      case 'finalizing build':
        return this.store(context);
      case 'build complete':
        return;
      default:
        throw new Error(`No step for stage "${stage}".`);
    }
  }

  private validate(context: BuildContext): void {
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
  }

  private uploadPath(context: BuildContext): string {
    if (!context.pipeline.sourceFile)
      throw new BuildError('The uploaded source file is missing; upload it again.');
    return this.artifacts.sourcePath(context.pipeline.id, context.pipeline.sourceFile);
  }

  /** Reads the source: CSV rows and text windows become chunks the agent indexes at start. */
  private async loadSource(context: BuildContext): Promise<void> {
    if (!isFileSourceType(context.config.source_type)) return; // databases are read by the agent where it runs
    const file = this.uploadPath(context);
    await access(file).catch(() => {
      throw new BuildError('The uploaded source file is missing; upload it again.');
    });
    if (context.pipeline.agentType !== 'rag') return;
    const name = context.config.file?.original_name ?? path.basename(file);
    if (context.config.source_type === 'csv') context.chunks = await chunkCsv(file, name);
    else if (context.config.source_type === 'text_file')
      context.chunks = await chunkTextFile(file, name);
    // PDF and Excel sources are chunked by the agent's own loaders when it starts.
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

  private async generate(context: BuildContext): Promise<void> {
    const { pipeline, config } = context;
    const dataFileName = config.file
      ? `source${path.extname(config.file.original_name).toLowerCase()}`
      : undefined;
    try {
      context.files = await generateProject({
        sessionId: pipeline.id,
        agentType: pipeline.agentType,
        name: pipeline.name,
        config,
        sourceFile:
          isFileSourceType(context.config.source_type) && dataFileName
            ? { path: this.uploadPath(context), dataFileName }
            : undefined,
        chunks: pipeline.agentType === 'rag' ? context.chunks : undefined,
      });
    } catch (error) {
      // A configuration that cannot make a working project is the user's to fix.
      if (error instanceof ProjectInputError) throw new BuildError(error.message);
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
    const files: ArtifactFile[] = context.files.map((file) => ({ ...file }));
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
