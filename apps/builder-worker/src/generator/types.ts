import type { TChunkLine, TPipelineConfig } from '@agentloom/contracts';

/**
 * A piece of the source the worker already extracted, with what is needed to cite it. Its id
 * is given when it is written (`writeChunksJsonl`): `chunk-000000`, `chunk-000001`, … in order,
 * as agent/chunking.py numbers them, so ids are unique without remembering them.
 */
export type SourceChunk = Omit<TChunkLine, 'id'>;

/** A unit the source gives (a PDF page, a CSV row, a whole text file), before chunking. */
export interface SourceDocument {
  text: string;
  source: string;
  page?: number;
  row?: number;
  ref?: string;
}

export interface ProjectInput {
  /** The pipeline's session id (a UUID). */
  sessionId: string;
  agentType: 'rag' | 'sql';
  /** The user's agent name: any string at all. It only ever travels as data. */
  name: string;
  /** The stored configuration, complete for its type. */
  config: TPipelineConfig;
  /** File sources: the uploaded file on disk, shipped as `data/<dataFileName>`. */
  sourceFile?: { path: string; dataFileName: string };
  /**
   * RAG only: chunks already extracted and written with `writeChunksJsonl`, shipped as
   * `data/chunks.jsonl`. A file, not an array, so a large source never sits in memory.
   */
  chunksFile?: string;
  /**
   * RAG: every knowledge source of the build, the wizard's first (`primary`). Absent: the
   * wizard's source alone, as `config` and `sourceFile` describe it.
   */
  sources?: ProjectSource[];
  /**
   * The owner's curated answers the build captured, shipped as data/curated_answers.json. Like
   * the name, user strings that only ever travel as data.
   */
  curatedAnswers?: ProjectCuratedAnswer[];
}

/** A curated answer: a question close to `question` is answered with `answer`, word for word. */
export interface ProjectCuratedAnswer {
  id: string;
  question: string;
  answer: string;
}

/** One knowledge source of a build, as the project ships it. */
export interface ProjectSource {
  /** The knowledge source's id: the key its passages are recorded under. */
  key: string;
  /** How citations name it: the file's name, the table, the page's address. */
  name: string;
  /** The wizard's source: its file is `sourceFile`. */
  primary?: boolean;
  /** Files: the version on disk (an empty path when it could not be fetched) and its digest. */
  file?: { type: string; path: string; sha256?: string; sheet?: string };
  table?: { type: string; database: string; table: string };
  web?: { url: string; max_pages: number; sitemap: boolean };
}

/**
 * One file of the project. `path` is POSIX, relative, and never contains `..`. Large files
 * (the uploaded source, the chunks) stay on disk and are copied from `sourcePath` when zipped.
 */
export type GeneratedFile =
  | { path: string; content: string | Buffer; mode?: number }
  | { path: string; sourcePath: string; mode?: number };

/** The input cannot produce a working project (incomplete or inconsistent configuration). */
export class ProjectInputError extends Error {
  override name = 'ProjectInputError';
}
