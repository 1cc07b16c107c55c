import type { PrismaClient } from '@agentloom/db';
import { storeKeys } from '@agentloom/server-kit';
import { spawnSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { WorkerConfig } from './builder-worker';

export interface HeldSource {
  /** Lets the build read its source (the next reader of the pipe gets `content`). */
  release(): void;
  /** Cleanup: stops waiting for a reader. */
  close(): Promise<void>;
}

/**
 * Replaces a pipeline's uploaded file by a named pipe, so a test can hold a build at the stage
 * that reads its source ("training embeddings") for as long as it needs: a worker opening the
 * pipe blocks until there is a writer. Once released, the first reader gets `content` through
 * the pipe; as soon as that reader has the pipe open, the path becomes a regular file with the
 * same content, so later steps (zipping the file into data/) see an ordinary upload.
 */
export async function holdSource(
  prisma: PrismaClient,
  config: WorkerConfig,
  pipelineId: string,
  content: string,
): Promise<HeldSource> {
  if (Buffer.byteLength(content) > 32 * 1024) {
    // Larger than a pipe's buffer, the write could block on a reader that went away.
    throw new Error('A held source must stay under 32 KB.');
  }
  const { sourceFile } = await prisma.pipeline.findUniqueOrThrow({ where: { id: pipelineId } });
  const file = path.join(config.DATA_DIR, storeKeys.upload(pipelineId, sourceFile!));
  await rm(file);
  const made = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`mkfifo ${file} failed: ${made.stderr}`);

  let closing = false;
  let serving: Promise<void> | undefined;
  const serve = async () => {
    const writer = await open(file, 'w'); // returns once a reader has opened the pipe
    try {
      if (closing) return;
      // The reader holds the pipe itself; the path can now become the ordinary file.
      await rm(file);
      await writeFile(file, content);
      await writer.writeFile(content);
    } finally {
      await writer.close();
    }
  };
  return {
    release() {
      serving ??= serve();
    },
    async close() {
      if (!serving) return;
      closing = true;
      // A reader of our own lets a writer still waiting for one go on (and see it is closing).
      const reader = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(
        () => undefined,
      );
      try {
        await serving.catch(() => undefined);
      } finally {
        await reader?.close();
      }
    },
  };
}
