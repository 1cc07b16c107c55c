import { z } from 'zod';
import { routePath } from './routes';
import {
  ZDatabaseSourceType,
  ZUploadedFile,
  type TDatabaseSource,
  type TUploadedFile,
} from './sources';
import { zText } from './text';

/**
 * An agent's knowledge: the list of sources a RAG agent answers from — files (each with its
 * versions), database tables and web pages. The wizard's source step makes the first one; the
 * Knowledge panel and the API below add, replace, refresh and remove the others. Each change is a
 * build, and a build embeds only the chunks whose (content hash, embedding model) has no vector
 * yet: docs/knowledge.md says how.
 */

export const KNOWLEDGE_KINDS = ['file', 'table', 'web'] as const;
export const ZKnowledgeKind = z.enum(KNOWLEDGE_KINDS);
export type TKnowledgeKind = z.infer<typeof ZKnowledgeKind>;

/**
 * `waiting`: recorded, read when the agent's running build ends. `indexing`: being read and
 * embedded. `ready`: the agent answers from it. `failed`: its last change failed (`error` says
 * why; the agent answers from its last good build). `paused`: scheduled refreshes failed three
 * times in a row and stopped.
 */
export const KNOWLEDGE_STATUSES = ['waiting', 'indexing', 'ready', 'failed', 'paused'] as const;
export const ZKnowledgeStatus = z.enum(KNOWLEDGE_STATUSES);
export type TKnowledgeStatus = z.infer<typeof ZKnowledgeStatus>;

export const REFRESH_SCHEDULES = ['off', 'hourly', 'daily'] as const;
export const ZRefreshSchedule = z.enum(REFRESH_SCHEDULES);
export type TRefreshSchedule = z.infer<typeof ZRefreshSchedule>;

/** How often a scheduled refresh runs. */
export const REFRESH_EVERY_MS: Record<Exclude<TRefreshSchedule, 'off'>, number> = {
  hourly: 60 * 60_000,
  daily: 24 * 60 * 60_000,
};

/** Scheduled refreshes that fail this many times in a row pause the schedule. */
export const MAX_FAILED_REFRESHES = 3;

/**
 * The files an agent's knowledge takes, by kind, with the extensions each is known by: the
 * wizard's four, and prose documents (Word, Markdown, HTML), read into cited sections.
 */
export const KNOWLEDGE_FILE_TYPES = {
  pdf: ['.pdf'],
  csv: ['.csv'],
  excel: ['.xlsx'],
  text_file: ['.txt'],
  docx: ['.docx'],
  markdown: ['.md', '.markdown'],
  html: ['.html', '.htm'],
} as const;
export type TKnowledgeFileType = keyof typeof KNOWLEDGE_FILE_TYPES;

/** The kind of file an agent's knowledge reads a name as, by its extension, or undefined. */
export function knowledgeFileTypeOf(name: string): TKnowledgeFileType | undefined {
  const lower = name.toLowerCase();
  return (Object.entries(KNOWLEDGE_FILE_TYPES) as [TKnowledgeFileType, readonly string[]][]).find(
    ([, extensions]) => extensions.some((extension) => lower.endsWith(extension)),
  )?.[0];
}

/** Web sources: the most pages one source may hold. */
export const WEB_SOURCE_MAX_PAGES = 500;

export const ZTableSourceDetails = z.object({
  type: ZDatabaseSourceType,
  /** The connection URI with its password replaced by `****`. */
  uri: zText(),
  database: zText(),
  table: zText(),
  approximate_rows: z.number().int().nullable(),
});
export type TTableSourceDetails = z.infer<typeof ZTableSourceDetails>;

export const ZWebSourceDetails = z.object({
  url: zText(),
  /** 1: just this page; more: same-site links followed up to this many pages. */
  max_pages: z.number().int().positive(),
  /** Whether `url` is a sitemap whose pages are read. */
  sitemap: z.boolean(),
  /** Pages read by the last successful change. */
  pages: z.number().int().nonnegative(),
});
export type TWebSourceDetails = z.infer<typeof ZWebSourceDetails>;

/** While a source is read: how far. */
export const ZSourceProgress = z.object({
  done: z.number().int().nonnegative(),
  of: z.number().int().nonnegative(),
  unit: z.enum(['rows', 'pages', 'chunks']),
});
export type TSourceProgress = z.infer<typeof ZSourceProgress>;

/** GET /agents/{id}/sources: one source as the owner sees it. */
export const ZKnowledgeSource = z.object({
  id: z.uuid(),
  kind: ZKnowledgeKind,
  /**
   * What it is read as: a file type (pdf, csv, excel, text_file, docx, markdown, html), a
   * database (postgres, mysql, sqlite, mongo), or `web`.
   */
  source_type: zText(),
  /** How the owner and citations name it: the file's name, the table, the page's address. */
  name: zText(),
  /** The source the wizard's source step set: changed there or replaced here, not removed. */
  primary: z.boolean(),
  status: ZKnowledgeStatus,
  /** Why its last change failed, in plain words; null once a change succeeds. */
  error: zText().nullable(),
  /** Passages the agent answers from, as of its last successful change. */
  chunks: z.number().int().nonnegative(),
  refresh: ZRefreshSchedule,
  /** Whether it can be refreshed (tables and web pages are read again; a file is replaced). */
  refreshable: z.boolean(),
  /** What its last change did, in words: "added", "12 rows changed", "no changes found". */
  last_change: zText().nullable(),
  /** While it is read: rows, pages or chunks done of all (0 while the total is unknown). */
  progress: ZSourceProgress.nullable(),
  last_changed_at: z.iso.datetime().nullable(),
  last_refreshed_at: z.iso.datetime().nullable(),
  created_at: z.iso.datetime(),
  /** Files: the upload (its latest version) and how many versions there have been. */
  file: ZUploadedFile.nullable(),
  version: z.number().int().positive(),
  table: ZTableSourceDetails.nullable(),
  web: ZWebSourceDetails.nullable(),
});
export type TKnowledgeSource = z.infer<typeof ZKnowledgeSource>;

export const ZKnowledgeSources = z.object({
  sources: z.array(ZKnowledgeSource),
  /** The build being made now (its live stages are on the build screen), if any. */
  building_build_id: z.uuid().nullable(),
});
export type TKnowledgeSources = z.infer<typeof ZKnowledgeSources>;

const zUrl = zText()
  .trim()
  .min(1, { error: 'Enter the address of the page.' })
  .max(2000, { error: 'The address can be at most 2000 characters.' });

/** POST /agents/{id}/sources with JSON: a database table, or web pages. (Files are multipart.) */
export const ZAddSourceRequest = z.discriminatedUnion(
  'kind',
  [
    z.object({
      kind: z.literal('table'),
      source_type: ZDatabaseSourceType,
      uri: zText().trim().min(1, { error: 'Enter the connection URI.' }).max(2000),
      database: zText().trim().min(1, { error: 'Enter the name of the database.' }).max(128),
      collection_or_table: zText()
        .trim()
        .min(1, { error: 'Enter the table (or collection) to read.' })
        .max(256),
    }),
    z.object({
      kind: z.literal('web'),
      url: zUrl,
      max_pages: z
        .number()
        .int()
        .min(1, { error: 'max_pages must be at least 1.' })
        .max(WEB_SOURCE_MAX_PAGES, {
          error: `A web source can hold at most ${WEB_SOURCE_MAX_PAGES} pages.`,
        })
        .optional(),
    }),
  ],
  { error: 'kind must be "table" or "web" (send a file as multipart form data).' },
);
export type TAddSourceRequest = z.infer<typeof ZAddSourceRequest>;

/** PATCH /agents/{id}/sources/{sourceId}: how often the source is read again. */
export const ZSourceScheduleRequest = z.object({
  refresh: ZRefreshSchedule,
});
export type TSourceScheduleRequest = z.infer<typeof ZSourceScheduleRequest>;

// ---- the knowledge queue's jobs ----

/** Job names on the knowledge queue. Persisted in Redis with every job: never rename. */
export const REFRESH_SOURCE_JOB = 'refresh-source' as const;
export const INDEX_BUILD_JOB = 'index-build' as const;
export const KNOWLEDGE_QUEUE_JOBS = [REFRESH_SOURCE_JOB, INDEX_BUILD_JOB] as const;
export type TKnowledgeQueueJob = (typeof KNOWLEDGE_QUEUE_JOBS)[number];

/** refresh-source: read one table or web source again. Ids only, never settings or secrets. */
export const ZRefreshSourceJob = z.object({ sourceId: z.uuid() });
export type TRefreshSourceJob = z.infer<typeof ZRefreshSourceJob>;

/** index-build: make the hosted index of a Built build that has none (built before indexes). */
export const ZIndexBuildJob = z.object({ buildId: z.uuid() });
export type TIndexBuildJob = z.infer<typeof ZIndexBuildJob>;

/** The scheduler of a source's refreshes: one per source, so two can never run it twice. */
export const refreshSchedulerId = (sourceId: string) => `refresh:${sourceId}`;

/** Job options: a refresh that fails is not retried by BullMQ (the source counts its failures). */
export const KNOWLEDGE_JOB_OPTIONS = {
  attempts: 1,
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** One change a build made to the agent's knowledge, as the history shows it. */
export const ZKnowledgeChange = z.object({
  source_id: z.uuid(),
  name: zText(),
  /** e.g. "added", "removed", "new version", "10 rows changed", "model changed: re-embedded". */
  change: zText(),
});
export type TKnowledgeChange = z.infer<typeof ZKnowledgeChange>;
export const ZKnowledgeChanges = z.array(ZKnowledgeChange);

export const KNOWLEDGE_ROUTES = {
  list: '/agents/:id/sources',
  add: '/agents/:id/sources',
  one: '/agents/:id/sources/:sourceId',
  refresh: '/agents/:id/sources/:sourceId/refresh',
} as const;

export const knowledgePaths = {
  list: (agentId: string) => routePath(KNOWLEDGE_ROUTES.list, { id: agentId }),
  one: (agentId: string, sourceId: string) =>
    routePath(KNOWLEDGE_ROUTES.one, { id: agentId, sourceId }),
  refresh: (agentId: string, sourceId: string) =>
    routePath(KNOWLEDGE_ROUTES.refresh, { id: agentId, sourceId }),
};

/**
 * What a source is, as `knowledge_sources.settings` keeps it (no secrets: a table's URI is
 * stored encrypted beside it). The gateway writes it; the builder worker reads it.
 */
export const ZKnowledgeSourceSettings = z.object({
  /** Files: the version read now — its server-made name under the agent's uploads, and the upload. */
  file: z
    .object({
      stored_name: z.string(),
      upload: ZUploadedFile,
      /** Excel: the sheet read. */
      sheet: z.string().optional(),
    })
    .optional(),
  table: ZTableSourceDetails.optional(),
  web: ZWebSourceDetails.optional(),
});
export type TKnowledgeSourceSettings = z.infer<typeof ZKnowledgeSourceSettings>;

/** How sources are cut into passages: characters a passage holds, and how many it shares. */
export interface TChunking {
  size: number;
  overlap: number;
}

/** How passages are cut unless the agent says otherwise (the generated project's defaults). */
export const DEFAULT_CHUNKING: TChunking = { size: 800, overlap: 100 };

/** The chunking an index segment is recorded under: another cut means other chunks. */
export const chunkingKey = (chunking: TChunking) => `chars:${chunking.size}/${chunking.overlap}`;

/** A knowledge source's row as the wizard's choices make it (the agent's first source). */
export interface TPrimarySource {
  kind: 'file' | 'table';
  source_type: string;
  name: string;
  settings: TKnowledgeSourceSettings;
  /** Changes whenever the wizard's source does (another upload, table or connection). */
  fingerprint: string;
}

/**
 * The wizard's source of a RAG agent as its first knowledge source, or null while the wizard has
 * none: a file (its stored name and upload) or a database table (its redacted URI; the URI itself
 * stays encrypted on the pipeline). `connectionDigest` is a digest of the stored envelope, so a
 * new password is a new source content without the password being kept.
 */
export function primarySourceOf(
  config: { source_type?: string; file?: TUploadedFile; database?: TDatabaseSource },
  stored: { sourceFile: string | null; connectionDigest: string | null },
): TPrimarySource | null {
  if (config.database) {
    const { type, uri, database, table, approximate_rows } = config.database;
    return {
      kind: 'table',
      source_type: type,
      name: table,
      settings: { table: { type, uri, database, table, approximate_rows } },
      fingerprint: `table:${type}:${database}:${table}:${stored.connectionDigest ?? ''}`,
    };
  }
  if (config.file && stored.sourceFile && config.source_type) {
    const summary = config.file.summary;
    return {
      kind: 'file',
      source_type: config.source_type,
      name: config.file.original_name,
      settings: {
        file: {
          stored_name: stored.sourceFile,
          upload: config.file,
          ...(summary.kind === 'excel' && { sheet: summary.sheet }),
        },
      },
      fingerprint: `file:${stored.sourceFile}`,
    };
  }
  return null;
}
