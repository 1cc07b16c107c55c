import {
  isFileSourceType,
  TPipelineConfig,
  TUploadKind,
  wizardSteps,
  readBuildInputs,
  readPipelineConfig,
  storedPartsOf,
} from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import { Inject, Injectable } from '@nestjs/common';
import path from 'node:path';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import { planProject, ProjectInputError, type ProjectPlan } from '../generator';
import { KnowledgeRepository } from '../knowledge/knowledge.repository';
import { ArtifactStore } from './artifact-store';
import { BuildError } from './build-error';
import { BuildsRepository } from './builds.repository';
import { projectSources } from './project-sources';
import type { SourceReadOptions } from './source-documents';

/** The uploaded file of a file source: where it is, its name for messages, how to read it. */
export interface UploadedSource {
  readonly kind: TUploadKind;
  readonly file: string;
  readonly name: string;
  readonly options: SourceReadOptions;
}

/**
 * Everything a build's steps need, decided once by the first stage ("initializing
 * environment") and never changed after: the stored configuration, validated; the project
 * plan; and, for file sources, the upload and where its chunks go.
 */
export interface BuildPlan {
  readonly build: Build;
  readonly pipeline: Pipeline;
  readonly config: TPipelineConfig;
  readonly project: ProjectPlan;
  /** The build's scratch folder, removed when the build ends. */
  readonly workDir: string;
  readonly upload?: UploadedSource;
  /** RAG: data/chunks.jsonl, written by "train_embeddings" and zipped by the code. */
  readonly chunksFile?: string;
}

/** Validates a pipeline's stored configuration and plans its project: the build's first step. */
@Injectable()
export class BuildPlanner {
  constructor(
    private readonly artifacts: ArtifactStore,
    private readonly knowledge: KnowledgeRepository,
    private readonly builds: BuildsRepository,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
  ) {}

  async plan(build: Build, pipeline: Pipeline): Promise<BuildPlan> {
    const config = validConfig(build, pipeline);
    // Captured with the build, so its zip is the same whenever it is made (a rerun after a
    // worker died); builds from before snapshots kept them ship the agent's answers now.
    const curatedAnswers =
      readBuildInputs(build.snapshot, pipeline.agentType)?.curated_answers ??
      (await this.builds.curatedAnswersOf(pipeline.id));
    const upload = await this.uploadOf(pipeline, config);
    const workDir = await this.artifacts.workDir(build.id);
    // RAG: the passages of every file and web source, shipped as data/chunks.jsonl.
    const sources = await projectSources(build, pipeline, this.knowledge, this.artifacts);
    const chunksFile =
      pipeline.agentType === 'rag' && (upload || sources?.length)
        ? path.join(workDir, 'chunks.jsonl')
        : undefined;
    const dataFileName = config.file
      ? `source${path.extname(config.file.original_name).toLowerCase()}`
      : undefined;
    try {
      const project = planProject({
        sessionId: pipeline.id,
        agentType: pipeline.agentType,
        name: pipeline.name,
        config,
        sourceFile: upload && dataFileName ? { path: upload.file, dataFileName } : undefined,
        chunksFile,
        sources,
        curatedAnswers,
      });
      return { build, pipeline, config, project, workDir, upload, chunksFile };
    } catch (error) {
      if (error instanceof ProjectInputError) throw new BuildError(error.message);
      throw error;
    }
  }

  /**
   * The upload, fetched from the object store into a local file. A file gone from the store
   * plans as an empty path: the stage that reads the source reports it missing.
   */
  private async uploadOf(
    pipeline: Pipeline,
    config: TPipelineConfig,
  ): Promise<UploadedSource | undefined> {
    if (!config.source_type || !isFileSourceType(config.source_type)) return undefined;
    if (!pipeline.sourceFile)
      throw new BuildError('The uploaded source file is missing; upload it again.');
    const file = (await this.artifacts.sourceFile(pipeline.id, pipeline.sourceFile)) ?? '';
    const summary = config.file?.summary;
    return {
      kind: config.source_type,
      file,
      name: config.file?.original_name ?? path.basename(pipeline.sourceFile),
      options: {
        maxUncompressedBytes: this.config.XLSX_MAX_UNCOMPRESSED_BYTES,
        sheet: summary?.kind === 'excel' ? summary.sheet : undefined,
      },
    };
  }
}

/**
 * The configuration the build was started with (its snapshot, which previews and the published
 * agent serve too), complete by the same rule the gateway applied before enqueueing: what it
 * needs may have changed since (a vault key deleted, say), so it is checked again here. Rows
 * from before builds kept a snapshot build the pipeline's configuration as it is.
 */
function validConfig(build: Build, pipeline: Pipeline): TPipelineConfig {
  const snapshot = readBuildInputs(build.snapshot, pipeline.agentType);
  const parsed = snapshot
    ? { success: true as const, data: snapshot.config }
    : readPipelineConfig(pipeline.agentType, pipeline.config);
  if (!parsed.success)
    throw new BuildError('The agent configuration is invalid; open the wizard and save it again.');
  const missing = wizardSteps(parsed.data, storedPartsOf(pipeline)).filter(
    (step) => !step.complete,
  );
  if (missing.length > 0) {
    throw new BuildError(
      `The configuration is incomplete: ${missing.map((step) => step.label).join(', ')}.`,
    );
  }
  return parsed.data;
}
