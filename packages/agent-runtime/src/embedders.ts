import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import { embeddingSpec, type EmbeddingModelSpec, type TEmbeddingModel } from '@agentloom/contracts';
import { embedMany } from 'ai';
import { openAiBase64Embeddings } from './openai-embeddings';
import { observedEmbeddingModel, observedRun } from './provider-calls';

/**
 * Embeds passages (once, when a build makes its index) and queries (once per question), both
 * exactly as the contracts' catalogue says: the same model id, pooling and prefixes on every side.
 */
export interface Embedder {
  readonly model: TEmbeddingModel;
  readonly dimensions: number;
  /** `onBatch(done)`: called after each batch with the texts embedded so far. */
  embedPassages(
    texts: string[],
    signal?: AbortSignal,
    onBatch?: (done: number) => void | Promise<void>,
  ): Promise<Float32Array[]>;
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
}

/** The owner's OpenAI access: the key, and another endpoint (a proxy, the tests' stand-in). */
export interface OpenAiAccess {
  apiKey: string;
  baseUrl?: string;
}

export interface EmbedderOptions {
  /** Needed for OpenAI's models. */
  openai?: OpenAiAccess;
  /** Where local models' weights are downloaded on first use and read from afterwards. */
  cacheDir: string;
}

/**
 * The embedder of a catalogue model. Local models load their weights here (and reject when they
 * can be neither found nor downloaded); OpenAI's need the owner's key.
 */
export async function embedderFor(model: TEmbeddingModel, o: EmbedderOptions): Promise<Embedder> {
  const spec = embeddingSpec(model);
  if (spec.backend === 'local') return localEmbedder(model, spec, o.cacheDir);
  if (!o.openai?.apiKey) {
    throw new Error(`The embedding model ${model} needs an OpenAI API key.`);
  }
  return openAiEmbedder(model, spec, o.openai);
}

/** Why an index is full-text only, as its preview shows it. */
export interface KeywordOnly {
  keywordBecause: string;
}

const KEYWORD = 'so this agent answers with keyword (full-text) search.';

/**
 * The agent's embedding model, or why it cannot be used: an OpenAI model with no OpenAI key (the
 * agent's provider is another), or a local model whose weights cannot be had here. `openaiKey` is
 * the agent's key when its provider is OpenAI.
 */
export async function embedderOrKeyword(
  model: TEmbeddingModel,
  o: { openaiKey: string | null; baseUrl?: string; cacheDir: string },
): Promise<Embedder | KeywordOnly> {
  if (embeddingSpec(model).backend === 'openai') {
    if (!o.openaiKey) {
      return {
        keywordBecause: `The embedding model ${model} needs an OpenAI API key and this agent's provider is not OpenAI, ${KEYWORD}`,
      };
    }
    return embedderFor(model, {
      openai: { apiKey: o.openaiKey, baseUrl: o.baseUrl },
      cacheDir: o.cacheDir,
    });
  }
  try {
    return await embedderFor(model, { cacheDir: o.cacheDir });
  } catch (error) {
    const reason = (error as Error).message.replace(/\.$/, '').slice(0, 200);
    return {
      keywordBecause: `The embedding model ${model} could not be loaded (${reason}), ${KEYWORD}`,
    };
  }
}

/** Texts per embeddings request: OpenAI takes up to 2,048; chunk-sized texts stay far below its token cap. */
const OPENAI_BATCH = 512;
/** Requests in flight at once while a build embeds: fast, and polite to the owner's rate limit. */
const OPENAI_PARALLEL = 4;
/** 429 and 5xx are retried with exponential backoff (the AI SDK's, from 2 s): 1 + 5 tries. */
const OPENAI_RETRIES = 5;

function openAiEmbedder(
  model: TEmbeddingModel,
  spec: EmbeddingModelSpec,
  access: OpenAiAccess,
): Embedder {
  const embedding = observedEmbeddingModel(openAiBase64Embeddings(spec.modelId, access), 'openai');
  const embed = async (values: string[], signal?: AbortSignal, maxRetries = OPENAI_RETRIES) => {
    const { embeddings } = await embedMany({
      model: embedding,
      values,
      abortSignal: signal,
      maxRetries,
      maxParallelCalls: OPENAI_PARALLEL,
    });
    // Typed number[][] by the AI SDK, but our model made them Float32Arrays (openai-embeddings.ts)
    // and embedMany hands them on untouched.
    return embeddings as unknown as Float32Array[];
  };
  return {
    model,
    dimensions: spec.dimensions,
    async embedPassages(texts, signal, onBatch) {
      const vectors: Float32Array[] = [];
      // A batch of batches at a time: the SDK sends OPENAI_PARALLEL requests of OPENAI_BATCH texts.
      const step = OPENAI_BATCH * OPENAI_PARALLEL;
      for (let start = 0; start < texts.length; start += step) {
        vectors.push(...(await embed(texts.slice(start, start + step), signal)));
        await onBatch?.(vectors.length);
      }
      return vectors;
    },
    async embedQuery(text, signal) {
      // A question waits on this: one retry, not a minute of backoff.
      const [vector] = await embed([text], signal, 1);
      if (!vector) throw new Error('The embeddings endpoint returned no vector.');
      return vector;
    },
  };
}

/** Texts per ONNX run: large enough to batch well, small enough to keep peak memory modest. */
const LOCAL_BATCH = 32;

/**
 * One pipeline per model per process: a model's weights take tens to hundreds of MB, and every
 * agent that uses it shares them. A failed load is forgotten, so a later try can succeed (say,
 * once the network is back).
 */
const pipelines = new Map<string, Promise<FeatureExtractionPipeline>>();

async function localEmbedder(
  model: TEmbeddingModel,
  spec: EmbeddingModelSpec,
  cacheDir: string,
): Promise<Embedder> {
  const repository = spec.onnxModelId ?? spec.modelId;
  const key = `${cacheDir}\0${repository}`;
  let loading = pipelines.get(key);
  if (!loading) {
    loading = loadPipeline(repository, cacheDir, spec.maxTokens);
    pipelines.set(key, loading);
    loading.catch(() => pipelines.delete(key));
  }
  const extractor = await loading;
  const embed = async (texts: string[], signal?: AbortSignal) => {
    signal?.throwIfAborted();
    const output = await observedRun('embeddings', 'local', () =>
      extractor(texts, { pooling: spec.pooling, normalize: true }),
    );
    const [rows = 0, dimensions = 0] = output.dims;
    const data = output.data as Float32Array;
    return Array.from({ length: rows }, (_, row) =>
      data.slice(row * dimensions, (row + 1) * dimensions),
    );
  };
  return {
    model,
    dimensions: spec.dimensions,
    async embedPassages(texts, signal, onBatch) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += LOCAL_BATCH) {
        const batch = texts.slice(start, start + LOCAL_BATCH).map((t) => spec.passagePrefix + t);
        vectors.push(...(await embed(batch, signal)));
        await onBatch?.(vectors.length);
      }
      return vectors;
    },
    async embedQuery(text, signal) {
      const [vector] = await embed([spec.queryPrefix + text], signal);
      if (!vector) throw new Error('The embedding model returned no vector.');
      return vector;
    },
  };
}

async function loadPipeline(
  repository: string,
  cacheDir: string,
  maxTokens: number | undefined,
): Promise<FeatureExtractionPipeline> {
  // Loaded on demand: ONNX Runtime is a large native module that most processes never need.
  const { env, pipeline } = await import('@huggingface/transformers');
  env.cacheDir = cacheDir;
  // Weights come from the cache folder or the hub, never from a folder inside node_modules.
  env.allowLocalModels = false;
  const extractor = await pipeline('feature-extraction', repository, { dtype: 'fp32' });
  // The pipeline truncates at the tokenizer's model_max_length (512 for these ports), while
  // sentence-transformers, which embeds the zip's index, cuts at the model's own shorter length:
  // a long chunk would get two different vectors.
  if (maxTokens) extractor.tokenizer.model_max_length = maxTokens;
  return extractor;
}
