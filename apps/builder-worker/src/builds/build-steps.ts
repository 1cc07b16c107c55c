import type { Embedder, KeywordOnly } from '@agentloom/agent-runtime';
import {
  BUILD_STAGES,
  type TBuildEvaluation,
  type TBuildStageKey,
  type THostedIndex,
  type TKnowledgeChange,
  type TStageWork,
} from '@agentloom/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { access } from 'node:fs/promises';
import {
  assertProjectPaths,
  generateProjectPart,
  projectFolderName,
  sortedByPath,
  type GeneratedFile,
  type ProjectPart,
} from '../generator';
import { BuildEvaluator } from '../evaluation/build-evaluator';
import { KnowledgeIndex } from '../knowledge/knowledge-index';
import { ArtifactStore } from './artifact-store';
import { BuildError, readingUpload } from './build-error';
import type { BuildPlan } from './build-plan';
import { BuildSecrets } from './build-secrets';
import { tableRecordBatches } from './source-documents';

/** What a build's steps produce: the project's files, part by part, the hosted index, the zip. */
export class BuildOutput {
  readonly files: GeneratedFile[] = [];
  /** RAG agents: the index previews and the published agent answer from. */
  hostedIndex?: THostedIndex;
  /** RAG agents: what this build changed in the agent's knowledge, for its history. */
  knowledgeChanges: TKnowledgeChange[] = [];
  /** RAG agents: the embedding model the index was made with (its evaluation embeds with it). */
  embedder?: Embedder | KeywordOnly;
  /** RAG agents: the checks replayed against the index (null when they could not run). */
  evaluation: TBuildEvaluation | null = null;
  artifact?: { name: string; bytes: number };
}

/** Reports a running stage's counted work (the build screen shows it live). */
export type StageWorkReport = (work: TStageWork) => Promise<void>;

/** The work of one stage, after the plan (the first stage) has been made. */
export type BuildStep = (
  plan: BuildPlan,
  output: BuildOutput,
  report: StageWorkReport,
) => Promise<void>;

/** Every stage but the first, which makes the plan the others read (BuildPlanner). */
export type StepKey = Exclude<TBuildStageKey, 'validate_config'>;

/** Files that belong to "deploying container" rather than "generating code". */
const DEPLOYMENT_FILES = /^(Dockerfile|docker-compose\.yml|\.dockerignore|\.github\/)/;

/**
 * The work behind each build stage, by stage key (contracts' BUILD_STAGES). A Record, so a stage
 * without a step does not compile. Each step does the real work its stage names: the project's
 * files are generated in the parts the stages announce, the source is read and chunked, every
 * secret is decrypted once to prove it usable (and dropped), the zip is written.
 */
@Injectable()
export class BuildSteps {
  private readonly logger = new Logger(BuildSteps.name);

  readonly steps: Record<StepKey, BuildStep> = {
    // RAG: every knowledge source read and chunked, and only chunks this model has not embedded
    // before embedded, into the hosted index.
    train_embeddings: async (plan, output, report) => {
      const { hostedIndex, changes, embedder } = await this.knowledge.run(plan, report);
      output.hostedIndex = hostedIndex;
      output.knowledgeChanges = changes;
      output.embedder = embedder;
    },
    load_source: async (plan) => {
      await this.checkUpload(plan);
    },
    // The vector store's client module, its test, and the compose file with its service.
    set_up_vector_store: (plan, output) => addParts(plan, output, 'vector-store'),
    profile_schema: (plan) => this.profileSchema(plan),
    configure_query_engine: (plan, output) => addParts(plan, output, 'query-engine'),
    integrate_models: async (plan, output) => {
      await this.secrets.checkAll(plan.pipeline);
      await addParts(plan, output, 'models');
    },
    // The read-only connection and the single-SELECT guard (PandasAI runs no SQL).
    secure_sql_access: (plan, output) => addParts(plan, output, 'sql-guard'),
    generate_code: (plan, output) => addParts(plan, output, 'data', 'code'),
    package_container: async (plan, output) => {
      await addParts(plan, output, 'deployment');
      checkDeployment(output);
    },
    store_artifact: (plan, output) => this.store(plan, output),
    // RAG: the agent's expected questions and rated answers replayed against the new index
    // (never fails the build: an evaluation that cannot run is recorded as none).
    complete: async (plan, output) => {
      output.evaluation = await this.evaluator.evaluate(plan, output.hostedIndex, output.embedder);
    },
  };

  constructor(
    private readonly artifacts: ArtifactStore,
    private readonly secrets: BuildSecrets,
    private readonly knowledge: KnowledgeIndex,
    private readonly evaluator: BuildEvaluator,
  ) {}

  /** SQL agents over a file: the upload must still be there (profile_schema reads it next). */
  private async checkUpload({ upload }: BuildPlan): Promise<void> {
    if (!upload) return;
    await access(upload.file).catch(() => {
      throw new BuildError('The uploaded source file is missing; upload it again.');
    });
  }

  /**
   * SQL file sources: reads the whole table once through the same reader the wizard used, so a
   * file that no longer parses, or has a header and no rows, fails here with a reason rather
   * than in the user's agent. Database tables were profiled when the wizard connected to them.
   */
  private async profileSchema({ upload, build }: BuildPlan): Promise<void> {
    const kind = upload?.kind;
    if (!upload || (kind !== 'csv' && kind !== 'excel')) return;
    let rows = 0;
    let columns: string[] = [];
    await readingUpload(async () => {
      for await (const records of tableRecordBatches(kind, upload.file, upload.options)) {
        if (rows === 0 && records[0]) columns = Object.keys(records[0]);
        rows += records.length;
      }
    });
    if (rows === 0) {
      throw new BuildError(`${upload.name} has no data rows to query; upload a file with data.`);
    }
    this.logger.log(
      `Build ${build.id}: ${upload.name} has ${rows} rows, ${columns.length} columns.`,
    );
  }

  private async store({ build, pipeline }: BuildPlan, output: BuildOutput): Promise<void> {
    assertProjectPaths(output.files);
    output.artifact = await this.artifacts.writeZip(
      pipeline.id,
      build.id,
      projectFolderName(pipeline.agentType, pipeline.id),
      sortedByPath(output.files),
    );
  }
}

/**
 * The stages, of either agent kind, that have no step: empty unless a stage was added to
 * contracts' BUILD_STAGES at run time's back (the Record type catches it at compile time). The
 * worker refuses to start while this is not empty, rather than fail builds half-way.
 */
export function stagesWithoutStep(steps: Partial<Record<string, BuildStep>>): string[] {
  return Object.entries(BUILD_STAGES).flatMap(([type, stages]) =>
    stages
      .filter((key) => key !== 'validate_config' && typeof steps[key] !== 'function')
      .map((key) => `${type} stage "${key}"`),
  );
}

async function addParts(
  plan: BuildPlan,
  output: BuildOutput,
  ...parts: ProjectPart[]
): Promise<void> {
  for (const part of parts) output.files.push(...(await generateProjectPart(plan.project, part)));
}

function checkDeployment(output: BuildOutput): void {
  const deployment = output.files.filter((file) => DEPLOYMENT_FILES.test(file.path));
  for (const required of ['Dockerfile', 'docker-compose.yml', '.github/workflows/ci.yml']) {
    if (!deployment.some((file) => file.path === required)) {
      throw new Error(`The generated project lacks ${required}.`);
    }
  }
}
