import { z } from 'zod';
import { DATABASE_SOURCE_IDS } from './database-catalog';

/**
 * What the gateway found in a data source when it was saved: the wizard answers this, and the
 * builder reads it back. Shared by the RAG and SQL wizards.
 */

/** Source types backed by an uploaded file, with the one extension each accepts. */
export const UPLOAD_EXTENSIONS = {
  pdf: '.pdf',
  csv: '.csv',
  excel: '.xlsx',
  text_file: '.txt',
} as const;
export type TUploadKind = keyof typeof UPLOAD_EXTENSIONS;
export const UPLOAD_KINDS = Object.keys(UPLOAD_EXTENSIONS) as TUploadKind[];

export const ZUploadSummary = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pdf'), pages: z.number().int(), characters: z.number().int() }),
  z.object({
    kind: z.literal('text_file'),
    lines: z.number().int(),
    characters: z.number().int(),
  }),
  z.object({ kind: z.literal('csv'), columns: z.array(z.string()), rows: z.number().int() }),
  z.object({
    kind: z.literal('excel'),
    /** The sheet the agent reads (the first one). */
    sheet: z.string(),
    sheets: z.array(z.string()),
    columns: z.array(z.string()),
    rows: z.number().int(),
  }),
  // Prose documents, added as knowledge sources (the wizard's source step takes the kinds above).
  ...(['docx', 'markdown', 'html'] as const).map((kind) =>
    z.object({
      kind: z.literal(kind),
      /** Passages with text, one per section. */
      sections: z.number().int(),
      characters: z.number().int(),
      /** The first headings, in order. */
      headings: z.array(z.string()),
      /** HTML: the page's title. */
      title: z.string().optional(),
    }),
  ),
]);
export type TUploadSummary = z.infer<typeof ZUploadSummary>;

export const ZUploadedFile = z.object({
  /** The uploader's file name, sanitized; display only, never used as a path. */
  original_name: z.string(),
  size_bytes: z.number().int(),
  summary: ZUploadSummary,
  uploaded_at: z.iso.datetime(),
});
export type TUploadedFile = z.infer<typeof ZUploadedFile>;

/** The databases' facts (labels, URI forms, Python packages): database-catalog.ts. */
export const DATABASE_SOURCE_TYPES = DATABASE_SOURCE_IDS;
export const ZDatabaseSourceType = z.enum(DATABASE_SOURCE_TYPES);
export type TDatabaseSourceType = z.infer<typeof ZDatabaseSourceType>;

export const ZDatabaseColumn = z.object({ name: z.string(), type: z.string() });
export type TDatabaseColumn = z.infer<typeof ZDatabaseColumn>;

export const ZDatabaseSource = z.object({
  type: ZDatabaseSourceType,
  /** The connection URI with the password replaced by `****`. */
  uri: z.string(),
  database: z.string(),
  /** Table, or collection for MongoDB. */
  table: z.string(),
  /** Null when the gateway does not open the source (SQLite files live where the agent runs). */
  columns: z.array(ZDatabaseColumn).nullable(),
  approximate_rows: z.number().int().nullable(),
  /**
   * Set when the login can do more than read (write, read server files, superuser): what it can
   * do and how to make a read-only login. Absent in sources saved before the check existed.
   */
  privilege_warning: z.string().nullable().optional(),
  checked_at: z.iso.datetime(),
});
export type TDatabaseSource = z.infer<typeof ZDatabaseSource>;

/**
 * POST /wizard/{session_id}/source/tables: the tables of a database, so the wizard can offer them
 * before it connects. The source type defaults to the agent's; a URI equal to the saved one (its
 * password masked) means the saved connection.
 */
export const ZSourceTablesRequest = z.object({
  source_type: ZDatabaseSourceType.optional(),
  uri: z.string().trim().min(1, 'Enter the connection URI.').max(2000),
  database: z.string().trim().min(1, 'Enter the name of the database.').max(128),
});
export type TSourceTablesRequest = z.infer<typeof ZSourceTablesRequest>;

/** Tables as the source step takes them: `schema.table` outside Postgres's public schema. */
export const ZSourceTables = z.object({ tables: z.array(z.string()) });
export type TSourceTables = z.infer<typeof ZSourceTables>;

/** Whether a source type is backed by an uploaded file (rather than a database connection). */
/**
 * Sources that are tables — spreadsheets and databases — whose retrieved passages are raw rows;
 * PDF and text files are prose.
 */
export function isTableSourceType(type: string | null | undefined): boolean {
  return Boolean(type) && type !== 'pdf' && type !== 'text_file';
}

export function isFileSourceType(type: string | undefined): type is TUploadKind {
  return (UPLOAD_KINDS as readonly string[]).includes(type ?? '');
}

/** GET /wizard/{session_id}/source/sample: the start of the uploaded file, to show it back. */
export const ZSourceSample = z.object({
  kind: z.enum(UPLOAD_KINDS),
  /** "6 rows · 3 columns", "4 pages · 12,345 characters". */
  counts: z.string(),
  /** Tables (CSV, Excel): the header and the first rows. */
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
  /** Texts (PDF, TXT): the first passages, as the agent will read them. */
  passages: z.array(z.string()),
});
export type TSourceSample = z.infer<typeof ZSourceSample>;
