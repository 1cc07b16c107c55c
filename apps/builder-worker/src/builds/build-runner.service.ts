import {
  buildStagesOf,
  type TBuildProgress,
  type TBuildStageKey,
  type TBuildStage,
  type TStageWork,
} from '@agentloom/contracts';
import type { Build } from '@agentloom/db';
import { Injectable, Logger } from '@nestjs/common';
import { ArtifactStore } from './artifact-store';
import { BuildError } from './build-error';
import { BuildPlanner } from './build-plan';
import { BuildOutput, BuildSteps } from './build-steps';
import { BuildsRepository } from './builds.repository';
import { KnowledgeBuilds } from '../knowledge/knowledge-builds';
import { KnowledgeRepository } from '../knowledge/knowledge.repository';

export { BuildError } from './build-error';

export type ReportProgress = (progress: TBuildProgress) => Promise<void>;

/**
 * Runs one build: the stages of the build screen (contracts' BUILD_STAGES), each reported when it
 * starts and when it ends (the build row for the record, job progress for the live feed). The
 * first stage validates and plans the configuration (BuildPlanner); every later stage runs its
 * step (BuildSteps) against that one plan.
 */
@Injectable()
export class BuildRunner {
  private readonly logger = new Logger(BuildRunner.name);

  constructor(
    private readonly builds: BuildsRepository,
    private readonly artifacts: ArtifactStore,
    private readonly planner: BuildPlanner,
    private readonly steps: BuildSteps,
    private readonly knowledge: KnowledgeRepository,
    private readonly knowledgeBuilds: KnowledgeBuilds,
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
    const [first, ...rest] = buildStagesOf(pipeline.agentType);
    const stages = new StageRecorder(build, rest.length + 1, this.builds, report);
    const output = new BuildOutput();
    try {
      const plan = await stages.run(first, () => this.planner.plan(build, pipeline));
      for (const stage of rest) {
        await stages.run(stage, (report) => this.steps.steps[stage](plan, output, report));
      }
    } catch (error) {
      // A hosted index is recorded only with Built: a failed build's half-made one is removed.
      await this.artifacts.removeHostedIndex(pipeline.id, build.id).catch(() => undefined);
      throw error;
    } finally {
      await this.artifacts.removeWorkDir(build.id);
    }
    if (!output.artifact) throw new Error('The build ended without an artifact.');
    await this.builds.markBuilt(build, output.artifact, output);
    this.logger.log(`Build ${build.id} built (${output.artifact.bytes} bytes).`);
    if (pipeline.agentType === 'rag' && (await this.knowledge.followKnowledge(build, pipeline))) {
      this.logger.log(`Build ${build.id} is now served to the agent's visitors (knowledge only).`);
    }
  }

  /**
   * After a build of the agent ended (Built or Failed): knowledge changes made while it ran
   * (added or replaced sources, refreshes that found changes) get a build of their own.
   */
  async afterBuild(buildId: string): Promise<void> {
    const found = await this.builds.findWithPipeline(buildId);
    if (found?.pipeline.agentType === 'rag')
      await this.knowledgeBuilds.startWaiting(found.pipeline);
  }
}

const WORK_REPORT_INTERVAL_MS = 250;

/** Records each stage in the build row and reports it live, as it starts and as it ends. */
class StageRecorder {
  private readonly stages: TBuildStage[] = [];

  constructor(
    private readonly build: Build,
    private readonly total: number,
    private readonly builds: BuildsRepository,
    private readonly report: ReportProgress,
  ) {}

  async run<T>(
    key: TBuildStageKey,
    work: (report: (work: TStageWork) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    const index = this.stages.length;
    const stage: TBuildStage = {
      key,
      started_at: new Date().toISOString(),
      finished_at: null,
    };
    this.stages.push(stage);
    await this.save(stage, index, 'started');
    let lastReport = 0;
    const result = await work(async (counted) => {
      stage.work = counted;
      // The live feed and the row need a few updates a second, not one per batch.
      const now = Date.now();
      if (now - lastReport < WORK_REPORT_INTERVAL_MS && counted.done < counted.of) return;
      lastReport = now;
      await this.save(stage, index, 'progress');
    });
    stage.finished_at = new Date().toISOString();
    await this.save(stage, index, 'finished');
    return result;
  }

  private async save(stage: TBuildStage, index: number, state: TBuildProgress['state']) {
    await this.builds.saveStages(this.build.id, this.stages);
    await this.report({
      buildId: this.build.id,
      stage: stage.key,
      index,
      total: this.total,
      state,
      ...(stage.work && { work: stage.work }),
      at: new Date().toISOString(),
    });
  }
}
