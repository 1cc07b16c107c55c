import type { TEmbeddingModel } from './enums';

/**
 * The one embedding catalogue: what each model the wizard offers is, for every process that
 * embeds with it — the web app (labels), the gateway (vector sizes), the builder worker (the
 * hosted index made at build time), the agent runtime (the query embedding of previews and
 * published agents) and the generator (the downloaded agent's Python). A query must be embedded
 * exactly as the passages were, so a model's ids, pooling and prefixes are written here once.
 */
export interface EmbeddingModelSpec {
  /**
   * What the wizard shows: the model's name, OpenAI's with "(OpenAI)" after it
   * (docs/product.md#the-wizard-embedding-model).
   */
  readonly label: string;
  /** `openai`: OpenAI's embeddings API with the owner's key. `local`: run on our own CPU. */
  readonly backend: 'openai' | 'local';
  /** The id OpenAI's API takes, or the Hugging Face repository sentence-transformers loads. */
  readonly modelId: string;
  /**
   * Local models only: the ONNX port of the same weights that transformers.js loads in the worker
   * and the runtime (the parity test holds the two to cosine ≥ 0.99).
   */
  readonly onnxModelId?: string;
  readonly dimensions: number;
  /** Local models: how token vectors become one (BGE reads its CLS token; the rest average). */
  readonly pooling: 'mean' | 'cls';
  /** Text put before queries / passages, for models trained that way (e5, BGE). */
  readonly queryPrefix: string;
  readonly passagePrefix: string;
  /**
   * Local models: the tokens a text is cut to, as sentence-transformers cuts it (the model's
   * sentence_bert_config.json `max_seq_length`). transformers.js would otherwise read the
   * tokenizer's 512, and an 800-character chunk of numbers (474 tokens for MiniLM) would embed
   * differently in the zip (cosine 0.84, measured by the parity test's MiniLM-L6 check).
   * MiniLM-L6's value is checked against its real files there; the others are their models'
   * published values, which no machine without a model hub can check.
   */
  readonly maxTokens?: number;
}

const openai = (modelId: string, dimensions: number): EmbeddingModelSpec => ({
  label: `${modelId} (OpenAI)`,
  backend: 'openai',
  modelId,
  dimensions,
  pooling: 'mean',
  queryPrefix: '',
  passagePrefix: '',
});

const local = (
  label: string,
  modelId: string,
  onnxModelId: string,
  dimensions: number,
  maxTokens: number,
  extra: Partial<Pick<EmbeddingModelSpec, 'pooling' | 'queryPrefix' | 'passagePrefix'>> = {},
): EmbeddingModelSpec => ({
  label,
  backend: 'local',
  modelId,
  onnxModelId,
  dimensions,
  maxTokens,
  pooling: 'mean',
  queryPrefix: '',
  passagePrefix: '',
  ...extra,
});

export const EMBEDDING_CATALOG = {
  'text-embedding-ada-002': openai('text-embedding-ada-002', 1536),
  'text-embedding-3-small': openai('text-embedding-3-small', 1536),
  'text-embedding-3-large': openai('text-embedding-3-large', 3072),
  'all-MiniLM-L6-v2': local(
    'all-MiniLM-L6-v2',
    'sentence-transformers/all-MiniLM-L6-v2',
    'Xenova/all-MiniLM-L6-v2',
    384,
    256,
  ),
  'all-MiniLM-L12-v2': local(
    'all-MiniLM-L12-v2',
    'sentence-transformers/all-MiniLM-L12-v2',
    'Xenova/all-MiniLM-L12-v2',
    384,
    128,
  ),
  'sentence-t5-base': local(
    'sentence-t5-base',
    'sentence-transformers/sentence-t5-base',
    'Xenova/sentence-t5-base',
    768,
    256,
  ),
  // The wizard's "bge-small-en" is served by BGE v1.5, the release BAAI recommends (better ranking,
  // the same size); both sides load v1.5 and put BAAI's retrieval instruction before queries.
  'bge-small-en': local(
    'bge-small-en',
    'BAAI/bge-small-en-v1.5',
    'Xenova/bge-small-en-v1.5',
    384,
    512,
    {
      pooling: 'cls',
      queryPrefix: 'Represent this sentence for searching relevant passages: ',
    },
  ),
  // E5 was trained with these prefixes and ranks noticeably worse without them.
  'e5-small-v2': local('e5-small-v2', 'intfloat/e5-small-v2', 'Xenova/e5-small-v2', 384, 512, {
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
  }),
} as const satisfies Record<TEmbeddingModel, EmbeddingModelSpec>;

/** The model an agent embeds with when its wizard chose none: local, so it needs no key. */
export const DEFAULT_EMBEDDING_MODEL: TEmbeddingModel = 'all-MiniLM-L6-v2';

export function embeddingSpec(model: TEmbeddingModel): EmbeddingModelSpec {
  return EMBEDDING_CATALOG[model];
}

/** The models run on our own CPU (transformers.js here, sentence-transformers in the zip). */
export function isLocalEmbeddingModel(model: TEmbeddingModel): boolean {
  return EMBEDDING_CATALOG[model].backend === 'local';
}

/** The length of the vectors each embedding model makes: the vector store's dimensions. */
export const EMBEDDING_DIMENSIONS = Object.fromEntries(
  Object.entries(EMBEDDING_CATALOG).map(([model, spec]) => [model, spec.dimensions]),
) as Record<TEmbeddingModel, number>;
