import {
  describeProviderError,
  embedderOrKeyword,
  providerErrorReason,
  type Embedder,
  type KeywordOnly,
} from '@agentloom/agent-runtime';
import {
  chunkingKey,
  chunkingOf,
  DEFAULT_EMBEDDING_MODEL,
  embeddingSpec,
  readBuildInputs,
  ZKnowledgeChanges,
  type TBuildSource,
  type TChunkLine,
  type TEmbeddingModel,
  type THostedIndex,
  type TKnowledgeChange,
  type TStageWork,
} from '@agentloom/contracts';
import { Prisma, type KnowledgeSource } from '@agentloom/db';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ArtifactStore } from '../builds/artifact-store';
import { BuildError } from '../builds/build-error';
import type { BuildPlan } from '../builds/build-plan';
import { BuildSecrets } from '../builds/build-secrets';
import { projectSourceKey } from '../builds/project-sources';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import { writeChunksJsonl } from '../generator';
import { KnowledgeRepository, type Segment } from './knowledge.repository';
import { carriedChunks } from './segment-chains';
import { SourceError, SourceIndexer, type IndexContext } from './source-indexer';

/** What indexing a build reads of it (a build's plan, or a Built build indexed afterwards). */
export type IndexedBuild = Pick<BuildPlan, 'build' | 'pipeline' | 'config' | 'chunksFile'>;

/**
 * "training embeddings" of a RAG build: every knowledge source of the build made ready to answer
 * from — its segments found (nothing embedded: a rebuild after a prompt edit, a source nobody
 * touched) or written now, embedding only what this model has not embedded before — and the
 * build's hosted index assembled from them. A source that fails for a reason of its own (a file
 * that no longer reads, a table gone) keeps answering from the version it had and shows the
 * error; the embedding model failing fails the build.
 */
@Injectable()
export class KnowledgeIndex {
  private readonly logger = new Logger(KnowledgeIndex.name);

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly knowledge: KnowledgeRepository,
    private readonly indexer: SourceIndexer,
    private readonly secrets: BuildSecrets,
    private readonly artifacts: ArtifactStore,
  ) {}

  async run(
    plan: IndexedBuild,
    report: (work: TStageWork) => Promise<void>,
  ): Promise<{
    hostedIndex: THostedIndex;
    changes: TKnowledgeChange[];
    /** The model the index was made with, for the build's evaluation to embed its questions. */
    embedder: Embedder | KeywordOnly;
  }> {
    const { build, pipeline, config } = plan;
    if (config.agent_type !== 'rag') throw new Error('Only RAG agents have knowledge sources.');
    const sources = await this.sourcesOf(plan);
    if (sources.length === 0) {
      throw new BuildError('The agent has no source to answer from; add one, then build again.');
    }
    const model = config.embedding_model ?? DEFAULT_EMBEDDING_MODEL;
    const ctx: IndexContext = {
      pipeline,
      model,
      embedder: await this.embedderOf(plan, model),
      chunking: chunkingOf(config),
      report,
    };
    const changes: TKnowledgeChange[] = ZKnowledgeChanges.parse(build.knowledgeChanges);
    const chains: Segment[][] = [];
    const failures: string[] = [];
    let embedded = 0;
    for (const { source, version } of sources) {
      const indexed = await this.indexOne(ctx, source, version, failures);
      if (!indexed) continue;
      chains.push(indexed.chain);
      embedded += indexed.embedded;
      if (indexed.change && !changes.some((change) => change.source_id === source.id)) {
        changes.push({ source_id: source.id, name: source.name, change: indexed.change });
      }
    }
    if (chains.length === 0) {
      throw new BuildError(
        failures.length === 1
          ? failures[0]!
          : `None of the agent’s sources could be read: ${failures.join(' ')}`,
      );
    }
    const hostedIndex = this.indexOf(ctx, chains);
    if (plan.chunksFile) await this.writeChunksFile(plan, chains, sources);
    this.logger.log(
      `Build ${build.id}: ${hostedIndex.chunks} chunks from ${chains.length} source(s), ${embedded} embedded now.`,
    );
    return { hostedIndex, changes, embedder: ctx.embedder };
  }

  /** One source's chain for this build, or null when it failed and had nothing before. */
  private async indexOne(
    ctx: IndexContext,
    source: KnowledgeSource,
    version: number,
    failures: string[],
  ) {
    const changing = source.status === 'waiting' || source.status === 'failed';
    if (changing) await this.knowledge.updateSource(source.id, { status: 'indexing' });
    try {
      const indexed = await this.indexer.chainFor(ctx, source, version);
      await this.knowledge.recordPages(source, indexed.pages);
      await this.knowledge.updateSource(source.id, {
        status: 'ready',
        error: null,
        progress: Prisma.DbNull,
        chunks: indexed.chunks,
        ...(indexed.change && {
          lastChange: indexed.change,
          lastChangedAt: new Date(),
          ...(source.kind !== 'file' && { lastRefreshedAt: new Date() }),
        }),
      });
      return indexed;
    } catch (error) {
      if (!(error instanceof SourceError)) {
        if (changing) await this.knowledge.updateSource(source.id, { status: source.status });
        throw this.asBuildError(ctx.model, error);
      }
      // The source's own failure: it answers from what it had, if anything, and says why.
      const previous = await this.knowledge.chain({
        sourceId: source.id,
        model: 'embedPassages' in ctx.embedder ? ctx.model : 'keyword',
        chunking: chunkingKey(ctx.chunking),
      });
      await this.knowledge.updateSource(source.id, {
        status: 'failed',
        error: previous
          ? `${error.message} The agent still answers from its earlier version.`
          : error.message,
      });
      this.logger.warn(`Source ${source.id} failed: ${error.message}`);
      failures.push(error.message);
      return previous
        ? { chain: previous, change: null, embedded: 0, chunks: previous.at(-1)!.segment.live }
        : null;
    }
  }

  /**
   * The sources this build is made of: those its snapshot names, at the content versions it
   * names; builds made before knowledge sources (and wizard builds that named none) answer from
   * the wizard's source, brought up to date first.
   */
  private async sourcesOf(
    plan: IndexedBuild,
  ): Promise<{ source: KnowledgeSource; version: number }[]> {
    const inputs = readBuildInputs(plan.build.snapshot, plan.pipeline.agentType);
    let named: TBuildSource[] | undefined = inputs?.sources;
    if (!named) {
      const primary = await this.knowledge.ensurePrimary(plan.pipeline, plan.config);
      return primary ? [{ source: primary, version: primary.contentVersion }] : [];
    }
    const rows = await this.knowledge.sources(named.map((source) => source.id));
    const byId = new Map(rows.map((row) => [row.id, row]));
    named = named.filter((source) => byId.has(source.id));
    return named.map((source) => ({
      source: byId.get(source.id)!,
      version: source.content_version,
    }));
  }

  /** The agent's embedding model, or why this build's index is full-text only. */
  private async embedderOf(
    plan: IndexedBuild,
    model: TEmbeddingModel,
  ): Promise<Embedder | KeywordOnly> {
    const openai =
      embeddingSpec(model).backend === 'openai' && plan.config.llm?.provider === 'openai';
    const chosen = await embedderOrKeyword(model, {
      openaiKey: openai ? await this.secrets.llmKey(plan.pipeline) : null,
      baseUrl: this.config.OPENAI_BASE_URL,
      cacheDir: this.config.MODEL_CACHE_DIR,
    });
    if ('keywordBecause' in chosen) this.logger.warn(chosen.keywordBecause);
    return chosen;
  }

  private indexOf(ctx: IndexContext, chains: Segment[][]): THostedIndex {
    const segments = chains.flat();
    const first = segments[0]!.segment;
    return {
      engine: 'lancedb',
      mode: first.mode,
      embedding_model: ctx.model,
      dimensions: first.dimensions,
      chunks: chains.reduce((sum, chain) => sum + chain.at(-1)!.segment.live, 0),
      ann: segments.some((segment) => segment.segment.graph),
      ...(segments.some((segment) => segment.segment.graph) && { graph: true }),
      ...(first.note && { note: first.note }),
      segments: segments.map((segment) => ({
        id: segment.id,
        source_id: segment.sourceId,
        role: segment.segment.role,
        chunks: segment.segment.chunks,
        removed: segment.segment.removed,
        graph: segment.segment.graph,
      })),
    };
  }

  /**
   * data/chunks.jsonl of the downloaded project: the passages of every file and web source, as
   * the hosted index holds them, each with its source's key, which the project indexes when it
   * starts (tables it reads itself, and files whose shipped version it no longer has).
   */
  private async writeChunksFile(
    plan: IndexedBuild,
    chains: Segment[][],
    sources: { source: KnowledgeSource }[],
  ): Promise<void> {
    // Each shipped source's passages carry the key the project records them under.
    const shipped = new Map(
      sources
        .filter(({ source }) => source.kind !== 'table')
        .map(({ source }) => [source.id, projectSourceKey(source)]),
    );
    const artifacts = this.artifacts;
    const pipelineId = plan.pipeline.id;
    async function* batches(): AsyncGenerator<Omit<TChunkLine, 'id'>[]> {
      for (const chain of chains) {
        const key = shipped.get(chain[0]!.sourceId);
        if (key === undefined) continue;
        // A web source's chain may hold deltas: only its live chunks are shipped.
        const locate = (id: string) => artifacts.segmentLocation(pipelineId, id);
        for await (const chunks of carriedChunks(chain, new Set(), locate, false)) {
          yield chunks.map(({ text, source, page, row, ref, url, section }) => ({
            text,
            source,
            ...(page !== undefined && { page }),
            ...(row !== undefined && { row }),
            ...(ref !== undefined && { ref }),
            ...(url !== undefined && { url }),
            ...(section !== undefined && { section }),
            source_key: key,
          }));
        }
      }
    }
    await writeChunksJsonl(plan.chunksFile!, batches());
  }

  /** A failed embeddings call, in words that say what to change. */
  private asBuildError(model: TEmbeddingModel, error: unknown): unknown {
    if (error instanceof BuildError) return error;
    if (!(error as { name?: string }).name?.startsWith('AI_')) return error;
    const what = `The source could not be embedded with ${model}`;
    const reason = providerErrorReason(error);
    if (reason === 'key') {
      return new BuildError(
        `${what}: OpenAI rejected the API key. Enter a valid key in the LLM step and build again.`,
      );
    }
    if (reason === 'forbidden' || reason === 'model') {
      return new BuildError(
        `${what}: ${describeProviderError(error)} Choose another embedding model or key, then build again.`,
      );
    }
    if (reason === 'unreachable') {
      return new BuildError(`${what}: OpenAI could not be reached. Build again in a minute.`);
    }
    return new BuildError(`${what}: ${describeProviderError(error)}`);
  }
}
