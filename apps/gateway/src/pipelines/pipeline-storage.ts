import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { APP_CONFIG, AppConfig } from '../config/env';
import { dataDirs } from '../files/data-dirs';

/**
 * A pipeline's files on the shared data volume: `uploads/<pipelineId>/<server-made name>` for its
 * source and `artifacts/<pipelineId>/` for its builds. Paths are built only from ids the server
 * made, never from anything a client sent.
 */
@Injectable()
export class PipelineStorage {
  private readonly dirs: ReturnType<typeof dataDirs>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.dirs = dataDirs(config);
  }

  uploadPath(pipelineId: string, storedName: string): string {
    return path.join(this.dirs.uploads, pipelineId, path.basename(storedName));
  }

  /** Moves a checked upload into the pipeline's folder and returns its new server-made name. */
  async keepUpload(pipelineId: string, temporaryPath: string, extension: string): Promise<string> {
    const storedName = `${randomUUID()}${extension}`;
    await mkdir(path.join(this.dirs.uploads, pipelineId), { recursive: true });
    await rename(temporaryPath, this.uploadPath(pipelineId, storedName));
    return storedName;
  }

  async removeUpload(pipelineId: string, storedName: string | null | undefined): Promise<void> {
    if (storedName) await rm(this.uploadPath(pipelineId, storedName), { force: true });
  }

  /** A build's zip, written by the builder-worker under the same shared folder. */
  artifactPath(pipelineId: string, artifact: string): string {
    return path.join(this.dirs.artifacts, pipelineId, path.basename(artifact));
  }

  /** Everything the pipeline left on disk: its uploads and its build artifacts. */
  async removeAll(pipelineId: string): Promise<void> {
    await rm(path.join(this.dirs.uploads, pipelineId), { recursive: true, force: true });
    await rm(path.join(this.dirs.artifacts, pipelineId), { recursive: true, force: true });
  }
}
