import { z } from 'zod';
import { BUILD_STAGE_KEYS } from './build-stages';
import { ZAgentType, ZEmbeddingModel, ZPipelineStatus, type TAgentType } from './enums';
import { ZBuildEvaluation } from './evaluation';
import { ZPipelineConfig } from './pipelines';
import { routePath } from './routes';

/**
 * Builds: the job the gateway enqueues, the stages the worker reports, and what the build
 * screen reads back. The worker writes stages to Postgres (the record) and to the job's progress
 * (the live feed); both use these shapes.
 */

/** Job name on the `builds` queue. Persisted in Redis with every job: never rename. */
export const BUILD_AGENT_JOB = 'build-agent' as const;

/** Every job name the `builds` queue carries: the worker refuses to start without a handler for each. */
export const BUILDS_QUEUE_JOBS = [BUILD_AGENT_JOB] as const;
export type TBuildsQueueJob = (typeof BUILDS_QUEUE_JOBS)[number];

/** Job data carries ids only — never configuration, never secrets. */
export const ZBuildJob = z.object({ buildId: z.uuid() });
export type TBuildJob = z.infer<typeof ZBuildJob>;

/** Job options in one place: the build id is the job id, so a double click enqueues once. */
export const BUILD_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/**
 * Work counted inside a stage: chunks embedded so far of those that need a vector, rows of a
 * table read so far, pages of a site fetched. `of` is 0 while the total is not known yet.
 */
export const ZStageWork = z.object({
  done: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  unit: z.enum(['chunks', 'rows', 'pages']),
  /** The source being read, when the stage reads several. */
  source: z.string().optional(),
});
export type TStageWork = z.infer<typeof ZStageWork>;

/** A stage's key (BUILD_STAGE_KEYS): what rows and events carry; the web maps it to its label. */
export const ZBuildStageKey = z.enum(BUILD_STAGE_KEYS);

export const ZBuildStage = z.object({
  key: ZBuildStageKey,
  started_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
  /** The stage's counted work, while and after it runs (chunks embedded). */
  work: ZStageWork.optional(),
});
export type TBuildStage = z.infer<typeof ZBuildStage>;
export const ZBuildStages = z.array(ZBuildStage);

/**
 * What a job reports as progress when a stage starts or ends, and while a long stage works
 * (`progress`, with `work`), relayed live to the browser.
 */
export const ZBuildProgress = z.object({
  buildId: z.uuid(),
  stage: ZBuildStageKey,
  /** Position of the stage in buildStagesOf(type). */
  index: z.number().int(),
  total: z.number().int(),
  state: z.enum(['started', 'progress', 'finished']),
  work: ZStageWork.optional(),
  at: z.iso.datetime(),
});
export type TBuildProgress = z.infer<typeof ZBuildProgress>;

/**
 * Something the owner should know about a Built build that still works: today, that the chosen
 * embedding model could not be used, so the agent searches by keywords only. `fix` is the change
 * that removes it when the agent can make it now (its key is OpenAI's): switch the embedding
 * model, then build again.
 */
export const ZBuildWarning = z.object({
  code: z.enum(['keyword_search']),
  detail: z.string(),
  fix: z.object({ embedding_model: ZEmbeddingModel, label: z.string() }).nullable(),
});
export type TBuildWarning = z.infer<typeof ZBuildWarning>;

export const ZBuildView = z.object({
  build_id: z.uuid(),
  session_id: z.uuid(),
  agent_type: ZAgentType,
  status: ZPipelineStatus,
  /** Every stage of this agent type, in order, by key. */
  stage_keys: z.array(ZBuildStageKey),
  /** The stages reached so far, with their times. */
  stages: ZBuildStages,
  error: z.string().nullable(),
  created_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
  /** Path of the zip on the gateway once the build is Built. */
  download_url: z.string().nullable(),
  warnings: z.array(ZBuildWarning),
});
export type TBuildView = z.infer<typeof ZBuildView>;

/**
 * The build calls (docs/product.md#the-calls-behind-the-screens): start (form-encoded session_id),
 * read the latest, download.
 */
export const BUILD_ROUTES = {
  start: { rag: '/rag/api/build/agent', sql: '/sql/build/api/build/agent' },
  view: '/builds/:sessionId',
  history: '/pipelines/:id/builds',
  download: { rag: '/rag/builds/:sessionId/download', sql: '/sql/builds/:sessionId/download' },
} as const satisfies Record<string, string | Record<TAgentType, string>>;

/** A built agent's project folder inside its zip, and the zip's name: `rag-agent-<id>`. */
export const agentProjectName = (type: TAgentType, sessionId: string) =>
  `${type}-agent-${sessionId}`;

export const buildPaths = {
  start: (type: TAgentType) => BUILD_ROUTES.start[type],
  view: (sessionId: string) => routePath(BUILD_ROUTES.view, { sessionId }),
  history: (pipelineId: string) => routePath(BUILD_ROUTES.history, { id: pipelineId }),
  /** The zip of the agent's latest Built build, or of `buildId` from its build list. */
  download: (type: TAgentType, sessionId: string, buildId?: string) =>
    routePath(BUILD_ROUTES.download[type], { sessionId }) +
    (buildId === undefined ? '' : `?build=${encodeURIComponent(buildId)}`),
};

export const ZBuildStarted = z.object({
  session_id: z.uuid(),
  build_id: z.uuid(),
  status: ZPipelineStatus,
  message: z.string(),
});
export type TBuildStarted = z.infer<typeof ZBuildStarted>;

// ---- live build events (Socket.IO) ----

/** Socket.IO namespace of live build progress. The client authenticates with `auth: { token }`. */
export const BUILDS_NAMESPACE = '/builds';

/** Event names of the builds namespace; the web app and the gateway both use these. */
export const BUILD_EVENTS = {
  /** client → server, `{ sessionId }`; acknowledged with `{ ok: true }` or `{ ok: false, detail }`. */
  subscribe: 'subscribe',
  /** server → client right after subscribing: the latest build (or null when there is none). */
  snapshot: 'build:snapshot',
  /** server → client: a stage started or finished (TBuildProgress plus session_id). */
  stage: 'build:stage',
  /** server → client: the build is Built; the zip can be downloaded. */
  completed: 'build:completed',
  /** server → client: the build ended Failed; `error` says why. */
  failed: 'build:failed',
} as const;

export const ZBuildSubscribe = z.object({ sessionId: z.uuid() });
export type TBuildSubscribe = z.infer<typeof ZBuildSubscribe>;

export type TBuildSubscribeAck = { ok: true } | { ok: false; detail: string };

export const ZBuildSnapshot = z.object({ session_id: z.uuid(), build: ZBuildView.nullable() });
export type TBuildSnapshot = z.infer<typeof ZBuildSnapshot>;

export type TBuildStageEvent = TBuildProgress & { session_id: string };

export const ZBuildCompletedEvent = z.object({
  session_id: z.uuid(),
  build_id: z.uuid(),
  download_url: z.string(),
});
export type TBuildCompletedEvent = z.infer<typeof ZBuildCompletedEvent>;

export const ZBuildFailedEvent = z.object({
  session_id: z.uuid(),
  build_id: z.uuid(),
  error: z.string(),
});
export type TBuildFailedEvent = z.infer<typeof ZBuildFailedEvent>;

// ---- the hosted index a RAG build makes ----

/**
 * The index a RAG build made of its source for previews and published agents (LanceDB, under
 * `indexes/<pipelineId>/<buildId>/` of the object store), recorded with the build.
 */
/** One segment of a hosted index, as a build lists it (IndexSegment rows hold the rest). */
export const ZHostedSegment = z.object({
  id: z.uuid(),
  source_id: z.uuid(),
  /** base: all of a source's chunks; delta: what a refresh changed on top of earlier ones. */
  role: z.enum(['base', 'delta']),
  chunks: z.number().int().nonnegative(),
  /** Chunks of earlier segments of the same source this delta replaces or removes. */
  removed: z.number().int().nonnegative(),
  /** Whether the segment has its own search graph (above the exact-search size). */
  graph: z.boolean(),
});
export type THostedSegment = z.infer<typeof ZHostedSegment>;

export const ZHostedIndex = z.object({
  engine: z.literal('lancedb'),
  /** embeddings: the agent's own model. keyword: full-text search, `note` saying why. */
  mode: z.enum(['embeddings', 'keyword']),
  embedding_model: ZEmbeddingModel,
  dimensions: z.number().int().positive(),
  chunks: z.number().int().nonnegative(),
  /** Whether search goes through an approximate (HNSW) index; small agents search exactly. */
  ann: z.boolean(),
  /**
   * The approximate index is the search graph stored beside the table (graph.usearch and the
   * passages). Absent on builds made before graphs, whose HNSW index is LanceDB's own.
   */
  graph: z.boolean().optional(),
  note: z.string().optional(),
  /**
   * Builds with knowledge sources: the segments the agent answers from, each source's base and
   * its deltas in order (under `indexes/<pipelineId>/segments/<id>/`). `chunks` is then the live
   * total. Absent on builds whose index is one table under `indexes/<pipelineId>/<buildId>/`.
   */
  segments: z.array(ZHostedSegment).optional(),
});
export type THostedIndex = z.infer<typeof ZHostedIndex>;

/** What a segment's row records of it (IndexSegment.info). */
export const ZSegmentInfo = z.object({
  mode: z.enum(['embeddings', 'keyword']),
  dimensions: z.number().int().positive(),
  role: z.enum(['base', 'delta']),
  chunks: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  graph: z.boolean(),
  /** The source's live chunks once this segment applies on top of those before it. */
  live: z.number().int().nonnegative(),
  /** Keyword-only segments: why the agent's embedding model could not be used. */
  note: z.string().optional(),
});
export type TSegmentInfo = z.infer<typeof ZSegmentInfo>;

// ---- build history (an agent's builds, newest first) ----

/**
 * What a build was made from, stored with it: the configuration as the wizard left it and
 * fingerprints (digests of the encrypted values) of the key, connection and file, so two builds
 * can be compared without keeping a secret twice.
 */
/** A knowledge source as a build was made from it: which one, and which of its contents. */
export const ZBuildSource = z.object({
  id: z.uuid(),
  kind: z.enum(['file', 'table', 'web']),
  source_type: z.string(),
  name: z.string(),
  content_version: z.number().int().positive(),
  /** A digest of what the source is (file stored, table named, site and page limit). */
  fingerprint: z.string(),
});
export type TBuildSource = z.infer<typeof ZBuildSource>;

/** A curated answer as a build captured it. */
export const ZBuildCuratedAnswer = z.object({
  id: z.uuid(),
  question: z.string(),
  answer: z.string(),
});
export type TBuildCuratedAnswer = z.infer<typeof ZBuildCuratedAnswer>;

export const ZBuildInputs = z.object({
  config: ZPipelineConfig,
  llm_key: z.string().nullable(),
  vector_db_key: z.string().nullable(),
  source_uri: z.string().nullable(),
  source_file: z.string().nullable(),
  /** RAG agents: every knowledge source, the wizard's first. Absent on older builds. */
  sources: z.array(ZBuildSource).optional(),
  /**
   * The owner's curated answers when the build started, oldest first: the downloaded project
   * ships them (data/curated_answers.json). Absent on older builds. Hosted agents read the
   * agent's own, as they are at each question.
   */
  curated_answers: z.array(ZBuildCuratedAnswer).optional(),
});
export type TBuildInputs = z.infer<typeof ZBuildInputs>;

/**
 * The inputs of a stored build; null for a row written before builds kept them. The kind of
 * agent is the pipeline's (snapshots written before the configuration named it lack it). The
 * worker builds from these and previews and published agents serve them: a build is exactly
 * what was asked for when it was started, whatever the draft became since.
 */
export function readBuildInputs(snapshot: unknown, agentType: TAgentType): TBuildInputs | null {
  const parsed = ZBuildInputs.safeParse(
    isRecord(snapshot) && isRecord(snapshot.config)
      ? { ...snapshot, config: { ...snapshot.config, agent_type: agentType } }
      : snapshot,
  );
  return parsed.success ? parsed.data : null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

export const ZBuildHistoryItem = z.object({
  build_id: z.uuid(),
  /** 1 for the agent's first build, counting up: tells builds (and their zips) apart. */
  number: z.number().int(),
  status: ZPipelineStatus,
  created_at: z.iso.datetime(),
  finished_at: z.iso.datetime().nullable(),
  error: z.string().nullable(),
  /**
   * What differs from the build before, in words ("System prompt", "LLM model", "added
   * stations.csv", "refreshed parts: 10 rows changed"…).
   */
  changes: z.array(z.string()),
  /** Why it was made: the owner's Build, a knowledge change, or a refresh that found changes. */
  trigger: z.enum(['wizard', 'knowledge', 'refresh']),
  /** Whether visitors of the published agent are served this build now. */
  published: z.boolean(),
  /** This build's own zip, while it is Built. */
  download_url: z.string().nullable(),
  /**
   * RAG builds: the checks replayed when it was Built (evaluation.ts); null for SQL agents, for
   * builds not Built or made before evaluations, and when evaluating failed.
   */
  evaluation: ZBuildEvaluation.nullable(),
});
export type TBuildHistoryItem = z.infer<typeof ZBuildHistoryItem>;
