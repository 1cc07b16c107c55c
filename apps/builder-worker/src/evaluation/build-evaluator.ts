import {
  CURATED_MATCH_THRESHOLDS,
  openSegmentedIndex,
  rememberingQueries,
  type Embedder,
  type KeywordOnly,
} from '@agentloom/agent-runtime';
import {
  DEFAULT_EMBEDDING_MODEL,
  readPipelineConfig,
  RELEVANCE_THRESHOLDS,
  retrievalOf,
  type TBuildEvaluation,
  type THostedIndex,
} from '@agentloom/contracts';
import { Injectable, Logger } from '@nestjs/common';
import { ArtifactStore } from '../builds/artifact-store';
import type { BuildPlan } from '../builds/build-plan';
import { runChecks } from './evaluation-checks';
import { EvaluationRepository } from './evaluation.repository';

/**
 * A RAG build's evaluation, its last step: once its index is made, the agent's expected
 * questions, its liked answers and its corrected answers are replayed against it with the
 * build's own settings — retrieval only, no model call; the questions are embedded with the
 * agent's model (the owner's key for OpenAI's). It never fails the build: when it cannot run,
 * the build is recorded with no evaluation and a log line says why.
 */
@Injectable()
export class BuildEvaluator {
  private readonly logger = new Logger(BuildEvaluator.name);

  constructor(
    private readonly rows: EvaluationRepository,
    private readonly artifacts: ArtifactStore,
  ) {}

  async evaluate(
    plan: Pick<BuildPlan, 'build' | 'pipeline' | 'config'>,
    hostedIndex: THostedIndex | undefined,
    embedder: Embedder | KeywordOnly | undefined,
  ): Promise<TBuildEvaluation | null> {
    if (plan.config.agent_type !== 'rag' || !hostedIndex?.segments) return null;
    try {
      const evaluation = await this.run(plan, hostedIndex, embedder);
      this.logger.log(
        `Build ${plan.build.id}: ${evaluation.passed} of ${evaluation.cases} checks passed.`,
      );
      return evaluation;
    } catch (error) {
      this.logger.warn(`Build ${plan.build.id} was not evaluated: ${(error as Error).message}`);
      return null;
    }
  }

  private async run(
    { pipeline, config }: Pick<BuildPlan, 'pipeline' | 'config'>,
    hostedIndex: THostedIndex,
    chosen: Embedder | KeywordOnly | undefined,
  ): Promise<TBuildEvaluation> {
    const model =
      (config.agent_type === 'rag' && config.embedding_model) || DEFAULT_EMBEDDING_MODEL;
    const settings = retrievalOf(config);
    // One vector per question, for the passage search and the curated answers alike.
    const embedder =
      hostedIndex.mode === 'embeddings' && chosen && !('keywordBecause' in chosen)
        ? rememberingQueries(chosen, 256)
        : null;
    const index = await openSegmentedIndex(
      hostedIndex,
      hostedIndex.segments!.map((segment) => ({
        segment,
        location: this.artifacts.segmentLocation(pipeline.id, segment.id),
      })),
      embedder ?? undefined,
      settings.search,
    );
    // The questions as the owner has them now: they test the agent, a build does not carry them.
    const current = readPipelineConfig(pipeline.agentType, pipeline.config);
    const questions =
      (current.success && current.data.agent_type === 'rag'
        ? current.data.expected_questions
        : undefined) ?? [];
    const [liked, disliked, curated] = await Promise.all([
      this.rows.ratedAnswers(pipeline.id, 1),
      this.rows.ratedAnswers(pipeline.id, -1),
      this.rows.curatedAnswers(pipeline.id),
    ]);
    return runChecks(
      {
        index,
        embedder,
        topK: settings.top_k,
        relevanceThreshold: RELEVANCE_THRESHOLDS[model],
        curatedThreshold: CURATED_MATCH_THRESHOLDS[model],
      },
      { questions, liked, disliked, curated },
    );
  }
}
