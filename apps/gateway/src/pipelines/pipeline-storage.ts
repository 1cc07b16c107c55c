import { OBJECT_STORE, type ObjectStore } from '@agentloom/server-kit';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import path from 'node:path';

/**
 * A pipeline's files in the object store (DATA_DIR or S3, shared by every gateway and worker):
 * `uploads/<pipelineId>/<server-made name>` for its source and `artifacts/<pipelineId>/` for its
 * builds. Keys are built only from ids the server made, never from anything a client sent.
 */
@Injectable()
export class PipelineStorage {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  private uploadKey(pipelineId: string, storedName: string): string {
    return `uploads/${pipelineId}/${path.basename(storedName)}`;
  }

  private artifactKey(pipelineId: string, artifact: string): string {
    return `artifacts/${pipelineId}/${path.basename(artifact)}`;
  }

  /** The upload as a local file (the preview's SQL engine reads it), or null when it is gone. */
  uploadFile(pipelineId: string, storedName: string): Promise<string | null> {
    return this.store.localPath(this.uploadKey(pipelineId, storedName));
  }

  /** Stores a checked upload (the temporary file is taken) and returns its server-made name. */
  async keepUpload(pipelineId: string, temporaryPath: string, extension: string): Promise<string> {
    const storedName = `${randomUUID()}${extension}`;
    await this.store.putFile(this.uploadKey(pipelineId, storedName), temporaryPath);
    return storedName;
  }

  async removeUpload(pipelineId: string, storedName: string | null | undefined): Promise<void> {
    if (storedName) await this.store.remove(this.uploadKey(pipelineId, storedName));
  }

  /** A build's zip, written by the builder-worker: streamed for downloads. */
  openArtifact(pipelineId: string, artifact: string) {
    return this.store.open(this.artifactKey(pipelineId, artifact));
  }

  /** A build's zip as a local file (the preview reads entries from it), or null. */
  artifactFile(pipelineId: string, artifact: string): Promise<string | null> {
    return this.store.localPath(this.artifactKey(pipelineId, artifact));
  }

  /** Everything the pipeline left in storage: its uploads and its build artifacts. */
  async removeAll(pipelineId: string): Promise<void> {
    await this.store.removeAll(`uploads/${pipelineId}`);
    await this.store.removeAll(`artifacts/${pipelineId}`);
  }
}
