import type { FeatureExtractionPipeline } from '@huggingface/transformers';
import type { TEmbeddingModel } from '@agentloom/contracts';

type LocalEmbeddingModel = Exclude<TEmbeddingModel, 'text-embedding-ada-002'>;

interface LocalModelSpec {
  /** The ONNX port transformers.js downloads. */
  repository: string;
  /** BGE is trained to read its CLS token; the sentence-transformers models average tokens. */
  pooling: 'mean' | 'cls';
  /** E5 was trained with these prefixes and ranks noticeably worse without them. */
  queryPrefix: string;
  passagePrefix: string;
}

const LOCAL_MODELS: Record<LocalEmbeddingModel, LocalModelSpec> = {
  'all-MiniLM-L6-v2': plain('Xenova/all-MiniLM-L6-v2'),
  'all-MiniLM-L12-v2': plain('Xenova/all-MiniLM-L12-v2'),
  'sentence-t5-base': plain('Xenova/sentence-t5-base'),
  'bge-small-en': { ...plain('Xenova/bge-small-en-v1.5'), pooling: 'cls' },
  'e5-small-v2': {
    repository: 'Xenova/e5-small-v2',
    pooling: 'mean',
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
  },
};

function plain(repository: string): LocalModelSpec {
  return { repository, pooling: 'mean', queryPrefix: '', passagePrefix: '' };
}

/** Texts per ONNX run: large enough to batch well, small enough to keep peak memory modest. */
const BATCH_SIZE = 32;

export interface Embedder {
  embedPassages(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array>;
}

/**
 * One pipeline per model per process: a model's weights take tens to hundreds of MB, and every
 * preview that uses it shares them. A failed load is forgotten, so a later preview can try again
 * (say, once the network is back).
 */
const pipelines = new Map<LocalEmbeddingModel, Promise<FeatureExtractionPipeline>>();

/**
 * A local sentence-embedding model through transformers.js (ONNX Runtime). The weights are
 * downloaded into `cacheDir` on first use and read from there afterwards; this rejects when they
 * can be neither found nor downloaded.
 */
export async function localEmbedder(
  model: LocalEmbeddingModel,
  cacheDir: string,
): Promise<Embedder> {
  const spec = LOCAL_MODELS[model];
  let loading = pipelines.get(model);
  if (!loading) {
    loading = loadPipeline(spec.repository, cacheDir);
    pipelines.set(model, loading);
    loading.catch(() => pipelines.delete(model));
  }
  const extractor = await loading;
  const embed = async (texts: string[], signal?: AbortSignal): Promise<Float32Array[]> => {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      signal?.throwIfAborted();
      const output = await extractor(texts.slice(start, start + BATCH_SIZE), {
        pooling: spec.pooling,
        normalize: true,
      });
      const [rows = 0, dimensions = 0] = output.dims;
      const data = output.data as Float32Array;
      for (let row = 0; row < rows; row++) {
        vectors.push(data.slice(row * dimensions, (row + 1) * dimensions));
      }
    }
    return vectors;
  };
  return {
    embedPassages: (texts, signal) =>
      embed(
        texts.map((text) => spec.passagePrefix + text),
        signal,
      ),
    embedQuery: async (text, signal) => {
      const [vector] = await embed([spec.queryPrefix + text], signal);
      if (!vector) throw new Error('The embedding model returned no vector.');
      return vector;
    },
  };
}

async function loadPipeline(
  repository: string,
  cacheDir: string,
): Promise<FeatureExtractionPipeline> {
  // Loaded on demand: ONNX Runtime is a large native module that most previews never need.
  const { env, pipeline } = await import('@huggingface/transformers');
  env.cacheDir = cacheDir;
  // Weights come from the cache folder or the hub, never from a folder inside node_modules.
  env.allowLocalModels = false;
  return pipeline('feature-extraction', repository, { dtype: 'fp32' });
}

export function isLocalModel(model: TEmbeddingModel): model is LocalEmbeddingModel {
  return model in LOCAL_MODELS;
}
