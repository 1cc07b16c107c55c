import { Inject, Injectable } from '@nestjs/common';
import archiver from 'archiver';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { WORKER_CONFIG, WorkerConfig } from '../config/env';

export interface ArtifactFile {
  /** POSIX path inside the project folder; never absolute, never with `..`. */
  path: string;
  content: string | Buffer;
  mode?: number;
  /** Added from disk instead of memory (e.g. the uploaded source file). */
  sourcePath?: string;
}

/**
 * Build zips on the shared data volume: `artifacts/<pipelineId>/<buildId>.zip`. The name depends
 * only on the build, and the zip is written to a temporary name then renamed, so a build that
 * runs again after a crash replaces its own zip: exactly one artifact per build, never a torn one.
 */
@Injectable()
export class ArtifactStore {
  constructor(@Inject(WORKER_CONFIG) private readonly config: WorkerConfig) {}

  sourcePath(pipelineId: string, storedName: string): string {
    return path.join(this.config.DATA_DIR, 'uploads', pipelineId, path.basename(storedName));
  }

  async writeZip(
    pipelineId: string,
    buildId: string,
    folder: string,
    files: ArtifactFile[],
  ): Promise<{ name: string; bytes: number }> {
    const dir = path.join(this.config.DATA_DIR, 'artifacts', pipelineId);
    await mkdir(dir, { recursive: true });
    const name = `${buildId}.zip`;
    const temporary = path.join(dir, `.${buildId}.${process.pid}.partial`);
    try {
      await zipTo(temporary, folder, files);
      await rename(temporary, path.join(dir, name));
    } finally {
      await rm(temporary, { force: true });
    }
    return { name, bytes: (await stat(path.join(dir, name))).size };
  }
}

function safeEntry(folder: string, file: string): string {
  const normalized = path.posix.normalize(file);
  if (
    path.posix.isAbsolute(normalized) ||
    normalized.startsWith('..') ||
    normalized.includes('\0')
  ) {
    throw new Error(`Refusing to write ${JSON.stringify(file)} outside the project folder.`);
  }
  return path.posix.join(folder, normalized);
}

async function zipTo(target: string, folder: string, files: ArtifactFile[]): Promise<void> {
  const output = createWriteStream(target);
  const archive = archiver('zip', { zlib: { level: 6 } });
  const done = new Promise<void>((resolve, reject) => {
    output.on('close', resolve);
    output.on('error', reject);
    archive.on('error', reject);
    archive.on('warning', reject);
  });
  archive.pipe(output);
  for (const file of files) {
    const name = safeEntry(folder, file.path);
    const options = { name, mode: file.mode ?? 0o644, date: new Date('2026-01-01T00:00:00Z') };
    if (file.sourcePath) archive.file(file.sourcePath, options);
    else archive.append(file.content, options);
  }
  await archive.finalize();
  await done;
}
