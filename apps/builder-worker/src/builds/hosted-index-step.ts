import {
  describeProviderError,
  embedderOrKeyword,
  providerErrorReason,
  writeHostedIndex,
  type Chunk,
  type Embedder,
  type KeywordOnly,
} from '@agentloom/agent-runtime';
import { embeddingSpec, type TEmbeddingModel, type THostedIndex } from '@agentloom/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';
import { ArtifactStore } from './artifact-store';
import { BuildError } from './build-error';
import type { BuildPlan } from './build-plan';
import { BuildSecrets } from './build-secrets';

/** Chunks read from chunks.jsonl per batch. */
const READ_BATCH = 1024;

/** What the build reports while it embeds: chunks done of all of them. */
export type EmbeddingProgress = (done: number, of: number) => Promise<void>;

/**
 * "training embeddings", second half: every chunk the build wrote is embedded once with the
 * agent's own model — OpenAI's with the owner's key, a local model here in the worker — and
 * stored in the build's hosted index (LanceDB, in the object store), which previews and the
 * published agent open instead of embedding the source again.
 */
@Injectable()
export class HostedIndexStep {
  private readonly logger = new Logger(HostedIndexStep.name);

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    private readonly artifacts: ArtifactStore,
    private readonly secrets: BuildSecrets,
  ) {}

  async run(plan: BuildPlan, total: number, progress: EmbeddingProgress): Promise<THostedIndex> {
    const { build, pipeline, config, chunksFile } = plan;
    if (!chunksFile) throw new Error('A hosted index is made from the chunks the build wrote.');
    if (config.agent_type !== 'rag') throw new Error('Only RAG agents have a hosted index.');
    const model = config.embedding_model ?? 'all-MiniLM-L6-v2';
    const embedder = await this.embedderOf(plan, model);
    try {
      const index = await writeHostedIndex({
        location: this.artifacts.hostedIndexLocation(pipeline.id, build.id),
        model,
        embedder,
        chunks: readChunkBatches(chunksFile),
        onProgress: (done) => progress(done, total),
      });
      this.logger.log(
        `Build ${build.id}: ${index.chunks} chunks indexed (${index.mode}${index.ann ? ', HNSW' : ''}).`,
      );
      return index;
    } catch (error) {
      if (error instanceof BuildError) throw error;
      if ((error as { name?: string }).name?.startsWith('AI_')) {
        throw new BuildError(embeddingFailure(model, error));
      }
      throw error;
    }
  }

  /** The agent's embedding model, or why this build's index is full-text only. */
  private async embedderOf(
    { pipeline, config }: BuildPlan,
    model: TEmbeddingModel,
  ): Promise<Embedder | KeywordOnly> {
    const openai = embeddingSpec(model).backend === 'openai' && config.llm?.provider === 'openai';
    const chosen = await embedderOrKeyword(model, {
      openaiKey: openai ? await this.secrets.llmKey(pipeline) : null,
      baseUrl: this.config.OPENAI_BASE_URL,
      cacheDir: this.config.MODEL_CACHE_DIR,
    });
    if ('keywordBecause' in chosen) this.logger.warn(chosen.keywordBecause);
    return chosen;
  }
}

/** A failed embeddings call, in words that say what to change. */
function embeddingFailure(model: TEmbeddingModel, error: unknown): string {
  const what = `The source could not be embedded with ${model}`;
  const reason = providerErrorReason(error);
  if (reason === 'key') {
    return `${what}: OpenAI rejected the API key. Enter a valid key in the LLM step and build again.`;
  }
  if (reason === 'forbidden' || reason === 'model') {
    return `${what}: ${describeProviderError(error)} Choose another embedding model or key, then build again.`;
  }
  if (reason === 'unreachable')
    return `${what}: OpenAI could not be reached. Build again in a minute.`;
  return `${what}: ${describeProviderError(error)}`;
}

/** The build's chunks.jsonl (written by this worker a moment ago), in batches. */
async function* readChunkBatches(file: string): AsyncGenerator<Chunk[]> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let batch: Chunk[] = [];
  for await (const line of lines) {
    if (!line) continue;
    batch.push(JSON.parse(line) as Chunk);
    if (batch.length === READ_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
