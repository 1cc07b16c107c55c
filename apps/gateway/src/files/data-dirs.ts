import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { diskStorage, type StorageEngine } from 'multer';
import type { AppConfig } from '../config/env';

/**
 * This machine's folder for uploads in flight (DATA_DIR/incoming): a file lands here, and goes to
 * the object store (PipelineStorage, AvatarStorage) once its content is checked.
 */
const incomingDir = (config: AppConfig) => path.join(config.DATA_DIR, 'incoming');

/**
 * Multer storage for every upload: streamed to disk under a server-made name, so the client's
 * file name never touches the file system and nothing is held whole in memory.
 */
export function incomingDiskStorage(config: AppConfig): StorageEngine {
  const incoming = incomingDir(config);
  mkdirSync(incoming, { recursive: true });
  const names = new WeakMap<Express.Multer.File, string>();
  const disk = diskStorage({
    destination: incoming,
    filename: (_request, file, done) => done(null, names.get(file) ?? randomUUID()),
  });
  return {
    // Multer forgets a file whose write failed (a full disk, say) and leaves what was written;
    // the name is chosen here so that partial file can be removed.
    _handleFile(request, file, done) {
      const name = randomUUID();
      names.set(file, name);
      disk._handleFile(request, file, (error, info) => {
        if (!error) return done(null, info);
        void rm(path.join(incoming, name), { force: true }).finally(() => done(error));
      });
    },
    _removeFile: (request, file, done) => disk._removeFile(request, file, done),
  };
}
