import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where uploads, profile pictures and build zips live: one interface, two drivers — a folder
 * (the default: DATA_DIR, as before) and S3-compatible object storage, which lets gateways and
 * workers on different machines share them with no shared folder (docs/operating.md, "Storage").
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
  /**
   * Where a folder of objects that an embedded engine reads and writes itself lives (a build's
   * LanceDB index): a path under the folder driver's root, or an s3:// URI with the settings
   * LanceDB's object store needs. Every machine that reads the store reads the same folder. Files
   * that are read by path (a memory-mapped search graph) go in and out of it as objects.
   */
  folderLocation(prefix: string): StoreFolderLocation;
}

export interface StoreFolderLocation {
  uri: string;
  storageOptions?: Record<string, string>;
  /** Stores a local file in the folder as `name` (takes the file), for files read by path. */
  putFile(name: string, file: string): Promise<void>;
  /** A local copy of the folder's file `name` (see `localPath`), or null when there is none. */
  localPath(name: string): Promise<string | null>;
}

/** The top-level folders of the object store, one per kind of file. */
export const storeFolders = {
  uploads: 'uploads',
  artifacts: 'artifacts',
  indexes: 'indexes',
  avatars: 'avatars',
} as const;

/**
 * The object-store keys: their one home, used by the gateway (which serves and deletes them),
 * the builder worker (which writes them) and the tests and scripts that look at a store.
 */
export const storeKeys = {
  /** A profile picture, under the server-made name the user row keeps. */
  avatar: (name: string) => `${storeFolders.avatars}/${path.basename(name)}`,
  /** A pipeline's uploaded source, under the server-made name the pipeline row keeps. */
  upload: (pipelineId: string, storedName: string) =>
    `${storeFolders.uploads}/${pipelineId}/${path.basename(storedName)}`,
  uploads: (pipelineId: string) => `${storeFolders.uploads}/${pipelineId}`,
  /** The file name of a build's zip, kept in the build row (`artifact`). */
  artifactName: (buildId: string) => `${buildId}.zip`,
  /** A build's zip, by the file name the build row keeps. */
  artifact: (pipelineId: string, artifact: string) =>
    `${storeFolders.artifacts}/${pipelineId}/${path.basename(artifact)}`,
  artifacts: (pipelineId: string) => `${storeFolders.artifacts}/${pipelineId}`,
  /** The folder of a RAG build's hosted index (a LanceDB table). */
  hostedIndex: (pipelineId: string, buildId: string) =>
    `${storeFolders.indexes}/${pipelineId}/${buildId}`,
  /**
   * One segment of a pipeline's hosted index (a knowledge source's chunks, or a refresh's
   * changes): written once, shared by every build that lists it.
   */
  indexSegment: (pipelineId: string, segmentId: string) =>
    `${storeFolders.indexes}/${pipelineId}/segments/${segmentId}`,
  /** All of a pipeline's hosted indexes. */
  hostedIndexes: (pipelineId: string) => `${storeFolders.indexes}/${pipelineId}`,
} as const;

const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Refuses keys with `..`, empty segments, absolute paths or unusual characters. */
export function checkedKey(key: string): string {
  if (!SAFE_KEY.test(key)) throw new Error(`Refusing the storage key ${JSON.stringify(key)}.`);
  return key;
}

/** The Nest injection token of the app's ObjectStore (each app's ConfigModule provides it). */
export const OBJECT_STORE = Symbol('OBJECT_STORE');
