import { z } from 'zod';
import type { TEmbeddingModel } from './enums';
import { routePath } from './routes';
import { zText } from './text';

/**
 * How a RAG agent finds the passages an answer reads, in words an owner can set: how much text a
 * passage holds, how many passages an answer reads, and whether to search by meaning, by words,
 * or both. Part of the agent's configuration, so of every build's snapshot, and of the downloaded
 * project's agent.json.
 */
export const SEARCH_MODES = ['meaning', 'words', 'both'] as const;
export const ZSearchMode = z.enum(SEARCH_MODES);
export type TSearchMode = z.infer<typeof ZSearchMode>;

export const RETRIEVAL_LIMITS = {
  chunkSize: { min: 200, max: 4000 },
  topK: { min: 1, max: 12 },
} as const;

export const ZRetrievalSettings = z.object({
  /** Characters a passage holds (the source is cut into passages of about this size). */
  chunk_size: z
    .number()
    .int()
    .min(RETRIEVAL_LIMITS.chunkSize.min, {
      error: `A passage holds at least ${RETRIEVAL_LIMITS.chunkSize.min} characters.`,
    })
    .max(RETRIEVAL_LIMITS.chunkSize.max, {
      error: `A passage holds at most ${RETRIEVAL_LIMITS.chunkSize.max} characters.`,
    }),
  /** Characters two neighbouring passages share, so a sentence cut in two is found whole. */
  chunk_overlap: z.number().int().min(0),
  /** Passages an answer reads. */
  top_k: z
    .number()
    .int()
    .min(RETRIEVAL_LIMITS.topK.min, { error: 'An answer reads at least one passage.' })
    .max(RETRIEVAL_LIMITS.topK.max, {
      error: `An answer reads at most ${RETRIEVAL_LIMITS.topK.max} passages.`,
    }),
  search: ZSearchMode,
  /**
   * When no passage clears the relevance threshold, the agent says it does not know (in the
   * question's language) instead of answering from nothing, and the question is flagged.
   */
  answer_only_from_sources: z.boolean(),
});
export type TRetrievalSettings = z.infer<typeof ZRetrievalSettings>;

/**
 * What an agent searches with when its owner set nothing: the generated project's defaults.
 * Answering only from the sources is off here, for the agents made before the switch existed
 * (they keep answering as they did); every new RAG agent starts with it on (NEW_RAG_RETRIEVAL).
 */
export const DEFAULT_RETRIEVAL: TRetrievalSettings = {
  chunk_size: 800,
  chunk_overlap: 100,
  top_k: 4,
  search: 'both',
  answer_only_from_sources: false,
};

/** What a new RAG agent's configuration starts with. */
export const NEW_RAG_RETRIEVAL: Partial<TRetrievalSettings> = { answer_only_from_sources: true };

export const OVERLAP_TOO_LARGE =
  'Neighbouring passages can share at most half a passage: lower the overlap or raise the size.';

/**
 * PUT /pipelines/{id}/retrieval: any of the settings; the others keep their value. The overlap is
 * checked against the size in the request, or the default size (the service checks the result
 * against the agent's own).
 */
export const ZRetrievalSettingsRequest = ZRetrievalSettings.partial().superRefine(
  (settings, context) => {
    const size = settings.chunk_size ?? DEFAULT_RETRIEVAL.chunk_size;
    if (settings.chunk_overlap !== undefined && settings.chunk_overlap * 2 > size) {
      context.addIssue({
        code: 'custom',
        path: ['chunk_overlap'],
        message: OVERLAP_TOO_LARGE,
      });
    }
  },
);
export type TRetrievalSettingsRequest = z.infer<typeof ZRetrievalSettingsRequest>;

/** The settings an agent searches with: its own, each missing one at its default. */
export function retrievalOf(config: RetrievalConfig): TRetrievalSettings {
  return { ...DEFAULT_RETRIEVAL, ...config.retrieval };
}

/** An agent's configuration, of either kind (a SQL agent searches no passage: the defaults). */
export interface RetrievalConfig {
  agent_type?: string;
  retrieval?: Partial<TRetrievalSettings>;
}

/**
 * The cosine similarity from which a passage counts as relevant to a question, by embedding
 * model. Models spread their scores differently: OpenAI's ada-002 and E5 rate unrelated texts
 * around 0.7, the others near 0.1. A passage found by the question's own rarer words (a name, a
 * code, a number) counts as relevant whatever its similarity.
 */
export const RELEVANCE_THRESHOLDS: Record<TEmbeddingModel, number> = {
  'text-embedding-ada-002': 0.78,
  'text-embedding-3-small': 0.3,
  'text-embedding-3-large': 0.3,
  'all-MiniLM-L6-v2': 0.3,
  'all-MiniLM-L12-v2': 0.3,
  'sentence-t5-base': 0.7,
  'bge-small-en': 0.6,
  'e5-small-v2': 0.78,
};

// ---- the retrieval test ----

export const ZRetrievalTestRequest = z.object({
  question: zText()
    .trim()
    .min(1, { error: 'Type a question first.' })
    .max(2000, { error: 'A question can be at most 2000 characters.' }),
});
export type TRetrievalTestRequest = z.infer<typeof ZRetrievalTestRequest>;

export const ZRetrievedPassage = z.object({
  /** The passage's id in the build's index (what a citation opens). */
  id: zText(),
  /** Where it comes from, as an answer cites it: "sales.csv, row 13", a page's address… */
  citation: zText(),
  /** The knowledge source's name (a file, a table, a site), and the page, row or key inside it. */
  source: zText(),
  page: z.number().int().nullable(),
  row: z.number().int().nullable(),
  /** A database row's key, e.g. "id=42". */
  ref: zText().nullable(),
  url: zText().nullable(),
  section: zText().nullable(),
  text: zText(),
  /** What the passages are ordered by: both searches' fused rank, or the one search's score. */
  score: z.number(),
  /** Its similarity to the question (0–1, by meaning), when that search found it. */
  similarity: z.number().nullable(),
  /** Its score for the question's words (BM25), when that search found it. */
  word_score: z.number().nullable(),
  found_by: z.enum(['meaning', 'words', 'both']),
  /** Whether it counts as relevant to the question (docs/retrieval.md says how that is judged). */
  relevant: z.boolean(),
});
export type TRetrievedPassage = z.infer<typeof ZRetrievedPassage>;

export const ZRetrievalTestResult = z.object({
  /** The build whose passages were searched: the agent's newest Built build. */
  build_id: z.uuid(),
  /**
   * The settings searched with: the agent's current ones, saved or not yet built (passages are
   * cut as that build cut them; `note` says so when the passage size changed since).
   */
  settings: ZRetrievalSettings,
  passages: z.array(ZRetrievedPassage),
  /** Whether the agent would answer; false: it would say it does not know (and flag it). */
  answers: z.boolean(),
  /** The similarity from which a passage found by meaning counts as relevant. */
  relevance_threshold: z.number(),
  note: zText().nullable(),
});
export type TRetrievalTestResult = z.infer<typeof ZRetrievalTestResult>;

/** GET and PUT /pipelines/{id}/retrieval. */
export const ZRetrievalSettingsView = z.object({
  settings: ZRetrievalSettings,
  /** The settings of the newest Built build (null before the first build). */
  built: ZRetrievalSettings.nullable(),
  /** The settings changed since that build: they apply from the next one. */
  build_needed: z.boolean(),
  /** The next build cuts the passages anew, so it embeds every passage again (paid embeddings). */
  reembeds_everything: z.boolean(),
});
export type TRetrievalSettingsView = z.infer<typeof ZRetrievalSettingsView>;

export const RETRIEVAL_ROUTES = {
  settings: '/pipelines/:id/retrieval',
  test: '/agents/:id/retrieval-test',
} as const;

export const retrievalPaths = {
  settings: (id: string) => routePath(RETRIEVAL_ROUTES.settings, { id }),
  test: (id: string) => routePath(RETRIEVAL_ROUTES.test, { id }),
};
