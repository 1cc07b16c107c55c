import {
  OBJECT_STORE,
  storeKeys,
  type ObjectStore,
  type StoreFolderLocation,
} from '@agentloom/server-kit';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';

/**
 * A pipeline's files in the object store (DATA_DIR or S3, shared by every gateway and worker):
 * its uploaded source, its builds' zips and their hosted indexes (server-kit's storeKeys). Keys are built only from ids the server made, never from anything a client sent.
 */
@Injectable()
export class PipelineStorage {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  /** The upload as a local file (the preview's SQL engine reads it), or null when it is gone. */
  uploadFile(pipelineId: string, storedName: string): Promise<string | null> {
    return this.store.localPath(storeKeys.upload(pipelineId, storedName));
  }

  /** Stores a checked upload (the temporary file is taken) and returns its server-made name. */
  async keepUpload(pipelineId: string, temporaryPath: string, extension: string): Promise<string> {
    const storedName = `${randomUUID()}${extension}`;
    await this.store.putFile(storeKeys.upload(pipelineId, storedName), temporaryPath);
    return storedName;
  }

  async removeUpload(pipelineId: string, storedName: string | null | undefined): Promise<void> {
    if (storedName) await this.store.remove(storeKeys.upload(pipelineId, storedName));
  }

  /** A build's zip, written by the builder-worker: streamed for downloads. */
  openArtifact(pipelineId: string, artifact: string) {
    return this.store.open(storeKeys.artifact(pipelineId, artifact));
  }

  /** A build's zip as a local file (the preview reads entries from it), or null. */
  artifactFile(pipelineId: string, artifact: string): Promise<string | null> {
    return this.store.localPath(storeKeys.artifact(pipelineId, artifact));
  }

  /** Where a RAG build's hosted index lies, for LanceDB to open on this machine. */
  hostedIndexLocation(pipelineId: string, buildId: string): StoreFolderLocation {
    return this.store.folderLocation(storeKeys.hostedIndex(pipelineId, buildId));
  }

  /** One segment of the pipeline's hosted index (docs/knowledge.md). */
  segmentLocation(pipelineId: string, segmentId: string): StoreFolderLocation {
    return this.store.folderLocation(storeKeys.indexSegment(pipelineId, segmentId));
  }

  /** Everything the pipeline left in storage: its uploads, build artifacts and hosted indexes. */
  async removeAll(pipelineId: string): Promise<void> {
    await this.store.removeAll(storeKeys.uploads(pipelineId));
    await this.store.removeAll(storeKeys.artifacts(pipelineId));
    await this.store.removeAll(storeKeys.hostedIndexes(pipelineId));
  }
}
