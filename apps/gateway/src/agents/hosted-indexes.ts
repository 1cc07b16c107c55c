import {
  configureHostedIndexCache,
  openHostedIndex,
  writeHostedIndex,
  type Chunk,
  type Embedder,
  type KeywordOnly,
  type RetrievalIndex,
} from '@agentloom/agent-runtime';
import { ZHostedIndex, type TEmbeddingModel, type THostedIndex } from '@agentloom/contracts';
import type { Build, Pipeline } from '@agentloom/db';
import {
  Inject,
  Injectable,
  Logger,
  ServiceUnavailableException,
  UnprocessableEntityException,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { RedisService } from '../redis/redis.service';
import { AgentsRepository } from './agents.repository';

/** How long one replica may take to index a build before another may try. */
const LOCK_MS = 10 * 60_000;
const WAIT_MS = 2 * 60_000;

export const INDEX_STILL_MAKING =
  'This agent’s index is still being made from its data. Ask again in a minute.';

/** Where an index's chunks come from when the build did not make one. */
export type ChunkSource = () => Promise<Chunk[]>;

/**
 * The hosted indexes previews and published agents answer from. A RAG build over a file makes
 * its index in the worker; a build over a database table (which only the gateway may connect to,
 * through its network guard), or one from before builds made indexes, gets its index made once
 * here, the first time it is asked — by one replica, the others wait for it — and recorded with
 * the build, so no load, restart or other replica embeds it again.
 */
@Injectable()
export class HostedIndexes {
  private readonly logger = new Logger(HostedIndexes.name);
  private readonly making = new Map<string, Promise<THostedIndex>>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly builds: AgentsRepository,
    private readonly storage: PipelineStorage,
    private readonly redis: RedisService,
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
    model: TEmbeddingModel,
    embedder: () => Promise<Embedder | KeywordOnly>,
    chunks: ChunkSource,
  ): Promise<RetrievalIndex> {
    const location = this.storage.hostedIndexLocation(pipeline.id, build.id);
    const parsed = ZHostedIndex.safeParse(build.hostedIndex);
    const recorded = parsed.success ? parsed.data : null;
    if (recorded?.mode === 'keyword') return openHostedIndex(location, recorded);
    const chosen = await embedder();
    if (recorded && 'keywordBecause' in chosen) {
      throw new UnprocessableEntityException(chosen.keywordBecause.replace(/, so .*$/, '.'));
    }
    const info =
      recorded ??
      (await this.makeOnce(build.id, () => this.make(build.id, location, model, chosen, chunks)));
    return openHostedIndex(location, info, 'embedPassages' in chosen ? chosen : undefined);
  }

  private makeOnce(buildId: string, make: () => Promise<THostedIndex>): Promise<THostedIndex> {
    let found = this.making.get(buildId);
    if (!found) {
      found = make().finally(() => this.making.delete(buildId));
      this.making.set(buildId, found);
    }
    return found;
  }

  private async make(
    buildId: string,
    location: ReturnType<PipelineStorage['hostedIndexLocation']>,
    model: TEmbeddingModel,
    embedder: Embedder | KeywordOnly,
    chunks: ChunkSource,
  ): Promise<THostedIndex> {
    const lock = `agentloom:hosted-index:${buildId}`;
    const token = randomUUID();
    const claimed = await this.redis.run((client) => client.set(lock, token, 'PX', LOCK_MS, 'NX'));
    if (claimed !== 'OK') return this.waitForOther(buildId);
    try {
      const source = await chunks();
      const info = await writeHostedIndex({ location, model, embedder, chunks: [source] });
      await this.builds.recordHostedIndex(buildId, info);
      this.logger.log(`Build ${buildId}: ${info.chunks} chunks indexed on first use.`);
      return info;
    } finally {
      await this.redis
        .run(async (client) => {
          if ((await client.get(lock)) === token) await client.del(lock);
        })
        .catch(() => undefined);
    }
  }

  /** Another replica is making this index: its record appears in the build row when done. */
  private async waitForOther(buildId: string): Promise<THostedIndex> {
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      await sleep(500);
      const recorded = ZHostedIndex.safeParse(await this.builds.hostedIndexOf(buildId));
      if (recorded.success) return recorded.data;
    }
    throw new ServiceUnavailableException(INDEX_STILL_MAKING);
  }
}
