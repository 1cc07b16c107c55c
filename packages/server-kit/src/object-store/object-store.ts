import type { Readable } from 'node:stream';

/**
 * Where uploads, profile pictures and build zips live: one interface, two drivers — a folder
 * (the default: DATA_DIR, as before) and S3-compatible object storage, which lets gateways and
 * workers on different machines share them with no shared folder (README, "Storage").
 *
 * Keys are paths the server makes from its own ids (`uploads/<pipelineId>/<uuid>.csv`), never
 * from anything a client sent; both drivers refuse anything else.
 */
export interface ObjectStore {
  /** Stores a local file under `key`, replacing any object there. Takes the file: it is gone after. */
  putFile(key: string, file: string): Promise<void>;
  /** The object as a stream with its size, or null when there is none. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  /**
   * A local file with the object's content, for code that needs a path (zip readers, spreadsheet
   * parsers); null when there is no such object. Objects are never changed in place once read
   * (new content gets a new key), so the S3 driver keeps its copies in a cache folder.
   */
  localPath(key: string): Promise<string | null>;
  remove(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix/` (a pipeline's files). */
  removeAll(prefix: string): Promise<void>;
}

const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Refuses keys with `..`, empty segments, absolute paths or unusual characters. */
export function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`Refusing the storage key ${JSON.stringify(key)}.`);
  return key;
}

/** The Nest injection token of the app's ObjectStore (each app's ConfigModule provides it). */
export const OBJECT_STORE = Symbol('OBJECT_STORE');
