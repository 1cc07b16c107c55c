import type { TPipelineConfig } from '@agentloom/contracts';

/** A piece of the source the worker already extracted, with what is needed to cite it. */
export interface SourceChunk {
  id: string;
  text: string;
  source: string;
  page?: number;
  row?: number;
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
  /** RAG only: chunks already extracted, shipped as `data/chunks.jsonl`. */
  chunks?: SourceChunk[];
}

/** One file of the project. `path` is POSIX, relative, and never contains `..`. */
export interface GeneratedFile {
  path: string;
  content: string | Buffer;
  mode?: number;
}

/** The input cannot produce a working project (incomplete or inconsistent configuration). */
export class ProjectInputError extends Error {
  override name = 'ProjectInputError';
}
