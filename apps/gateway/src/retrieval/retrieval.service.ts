import { citationOf, isRelevant, type Hit } from '@agentloom/agent-runtime';
import {
  chunkingKey,
  chunkingOf,
  DEFAULT_EMBEDDING_MODEL,
  OVERLAP_TOO_LARGE,
  readBuildInputs,
  RELEVANCE_THRESHOLDS,
  retrievalOf,
  storedAnswers,
  type TRetrievalSettings,
  type TRetrievalSettingsRequest,
  type TRetrievalSettingsView,
  type TRetrievalTestResult,
  type TRetrievedPassage,
} from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import {
  BadRequestException,
  ConflictException,
  Injectable,
  NotFoundException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { AgentLoader } from '../agents/agent-loader';
import { BuildsRepository } from '../builds/builds.repository';
import { readConfig } from '../pipelines/pipeline-view';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { PIPELINE_NOT_FOUND, PipelinesService } from '../pipelines/pipelines.service';

export const ONLY_RAG_AGENTS_RETRIEVE =
  'Only RAG agents search passages: a SQL agent answers by querying its table.';
export const TEST_NEEDS_BUILD =
  'Build the agent first: the test searches the passages a build has indexed.';
export const SETTINGS_WHILE_BUILDING =
  'This agent is being built. Wait for the build to finish before changing its settings.';
const NEW_CUT_NOTE =
  'These passages are cut as the last build cut them: the passage size you chose applies from the next build.';

/**
 * How a RAG agent finds its passages, for its owner: the retrieval settings (saved in the
 * agent's configuration, applied from its next build) and the retrieval test (the passages a
 * question would read, searched in the newest build with the current settings, before anything
 * is built again). Another owner's agent answers 404.
 */
@Injectable()
export class RetrievalService {
  constructor(
    private readonly pipelines: PipelinesService,
    private readonly pipelineRows: PipelinesRepository,
    private readonly builds: BuildsRepository,
    private readonly loader: AgentLoader,
  ) {}

  async settings(userId: string, agentId: string): Promise<TRetrievalSettingsView> {
    const pipeline = await this.ragAgent(userId, agentId);
    return this.viewOf(pipeline, await this.builds.latestBuiltOwned(pipeline.id, userId));
  }

  async update(
    userId: string,
    agentId: string,
    request: TRetrievalSettingsRequest,
  ): Promise<TRetrievalSettingsView> {
    const pipeline = await this.ragAgent(userId, agentId);
    if (pipeline.status === 'Building') throw new ConflictException(SETTINGS_WHILE_BUILDING);
    const config = readConfig(pipeline);
    if (config.agent_type !== 'rag') {
      throw new UnprocessableEntityException(ONLY_RAG_AGENTS_RETRIEVE);
    }
    const settings = { ...retrievalOf(config), ...request };
    if (settings.chunk_overlap * 2 > settings.chunk_size) {
      throw new BadRequestException(OVERLAP_TOO_LARGE);
    }
    const updated = await this.pipelineRows.updateOwned(pipeline.id, userId, {
      config: storedAnswers({ ...config, retrieval: settings }),
    });
    if (!updated) throw new NotFoundException(PIPELINE_NOT_FOUND);
    return this.viewOf(updated, await this.builds.latestBuiltOwned(pipeline.id, userId));
  }

  /** The passages an answer to `question` would read, each with its score, finder and source. */
  async test(userId: string, agentId: string, question: string): Promise<TRetrievalTestResult> {
    const pipeline = await this.ragAgent(userId, agentId);
    const build = await this.builds.latestBuiltOwned(pipeline.id, userId);
    if (!build) throw new UnprocessableEntityException(TEST_NEEDS_BUILD);
    const settings = retrievalOf(readConfig(pipeline));
    const built = this.builtSettings(pipeline, build);
    const index = await this.loader.openIndex(pipeline, build, settings.search);
    const hits = await index.search(question, settings.top_k);
    const threshold = RELEVANCE_THRESHOLDS[built.model];
    const passages = hits.map((hit) => passageOf(hit, isRelevant(hit, question, threshold)));
    return {
      build_id: build.id,
      settings,
      passages,
      answers: !settings.answer_only_from_sources || passages.some((p) => p.relevant),
      relevance_threshold: threshold,
      note: sameCut(settings, built.settings) ? null : NEW_CUT_NOTE,
    };
  }

  /** The caller's RAG agent: 404 for another owner's, 422 for a SQL agent. */
  async ragAgent(userId: string, agentId: string): Promise<Pipeline> {
    const pipeline = await this.pipelines.findOwned(userId, agentId);
    if (pipeline.agentType !== 'rag')
      throw new UnprocessableEntityException(ONLY_RAG_AGENTS_RETRIEVE);
    return pipeline;
  }

  /** The settings and embedding model a build was made with (its snapshot's configuration). */
  private builtSettings(pipeline: Pipeline, build: Build) {
    const config =
      readBuildInputs(build.snapshot, pipeline.agentType)?.config ?? readConfig(pipeline);
    const model =
      (config.agent_type === 'rag' && config.embedding_model) || DEFAULT_EMBEDDING_MODEL;
    return { settings: retrievalOf(config), model };
  }

  private viewOf(pipeline: Pipeline, build: Build | null): TRetrievalSettingsView {
    const settings = retrievalOf(readConfig(pipeline));
    const built = build ? this.builtSettings(pipeline, build).settings : null;
    return {
      settings,
      built,
      build_needed: built !== null && !sameSettings(settings, built),
      reembeds_everything: built !== null && !sameCut(settings, built),
    };
  }
}

function sameCut(a: TRetrievalSettings, b: TRetrievalSettings): boolean {
  return chunkingKey(chunkingOf({ retrieval: a })) === chunkingKey(chunkingOf({ retrieval: b }));
}

function sameSettings(a: TRetrievalSettings, b: TRetrievalSettings): boolean {
  return (Object.keys(a) as (keyof TRetrievalSettings)[]).every((key) => a[key] === b[key]);
}

function passageOf(hit: Hit, relevant: boolean): TRetrievedPassage {
  const { chunk } = hit;
  return {
    id: chunk.id,
    citation: citationOf(chunk),
    source: chunk.source,
    page: chunk.page ?? null,
    row: chunk.row ?? null,
    ref: chunk.ref ?? null,
    url: chunk.url ?? null,
    section: chunk.section ?? null,
    text: chunk.text,
    score: hit.score,
    similarity: hit.similarity ?? null,
    word_score: hit.wordScore ?? null,
    found_by: hit.found ?? (hit.similarity !== undefined ? 'meaning' : 'words'),
    relevant,
  };
}
