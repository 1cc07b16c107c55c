import {
  configureHostedIndexCache,
  openHostedIndex,
  openSegmentedIndex,
  type Embedder,
  type KeywordOnly,
  type RetrievalIndex,
} from '@agentloom/agent-runtime';
import { ZHostedIndex, type THostedIndex } from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import {
  Inject,
  Injectable,
  ServiceUnavailableException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { APP_CONFIG, AppConfig } from '../config/env';
import { KnowledgeQueue } from '../knowledge/knowledge-queue';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { AgentsRepository } from './agents.repository';

/** How long a question waits for a worker to index a build made before builds indexed. */
const WAIT_MS = 30_000;

export const INDEX_STILL_MAKING =
  'This agent’s index is still being made from its data. Ask again in a minute.';

/**
 * The hosted indexes previews and published agents answer from. Only the builder worker makes
 * them, at build time (every source of the agent, files and database tables alike); here they
 * are opened: a build's segments (each process keeps one copy of a segment for every build that
 * lists it), or the one table of a build made before segments. A build recorded with no index
 * at all (made before builds indexed themselves) is handed to a worker once, and waited for.
 */
@Injectable()
export class HostedIndexes {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly agents: AgentsRepository,
    private readonly storage: PipelineStorage,
    private readonly queue: KnowledgeQueue,
  ) {
    configureHostedIndexCache(config.HOSTED_INDEX_CACHE_MB * 1024 * 1024);
  }

  /**
   * The build's index, opened. `embedder` gives the agent's model (or why it cannot be used); it
   * is not asked for an index recorded as full-text, and an index recorded with embeddings
   * cannot be searched without its model: that is the agent's 422, in the note's words.
   */
  async open(
    pipeline: Pipeline,
    build: Build,
    embedder: () => Promise<Embedder | KeywordOnly>,
  ): Promise<RetrievalIndex> {
    const parsed = ZHostedIndex.safeParse(build.hostedIndex);
    const recorded = parsed.success ? parsed.data : await this.indexedByWorker(build);
    let model: Embedder | undefined;
    if (recorded.mode === 'embeddings') {
      const chosen = await embedder();
      if ('keywordBecause' in chosen) {
        throw new UnprocessableEntityException(chosen.keywordBecause.replace(/, so .*$/, '.'));
      }
      model = chosen;
    }
    if (recorded.segments) {
      return openSegmentedIndex(
        recorded,
        recorded.segments.map((segment) => ({
          segment,
          location: this.storage.segmentLocation(pipeline.id, segment.id),
        })),
        model,
      );
    }
    return openHostedIndex(
      this.storage.hostedIndexLocation(pipeline.id, build.id),
      recorded,
      model,
    );
  }

  /**
   * A build made before builds indexed themselves: a worker indexes it (one job per build, so
   * many questions at once ask once) and records the index with the build.
   */
  private async indexedByWorker(build: Build): Promise<THostedIndex> {
    await this.queue.indexBuild(build.id).catch(() => {
      throw new ServiceUnavailableException(INDEX_STILL_MAKING);
    });
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      const recorded = ZHostedIndex.safeParse(await this.agents.hostedIndexOf(build.id));
      if (recorded.success) return recorded.data;
      await sleep(500);
    }
    throw new ServiceUnavailableException(INDEX_STILL_MAKING);
  }
}
