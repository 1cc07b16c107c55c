import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { diskStorage, type StorageEngine } from 'multer';
import type { AppConfig } from '../config/env';

/**
 * Folders under DATA_DIR (shared by gateway replicas and workers). Uploads land in `incoming/`
 * and move once their content is checked; a pipeline's files live under its own folder.
 */
export const dataDirs = (config: AppConfig) => ({
  incoming: path.join(config.DATA_DIR, 'incoming'),
  avatars: path.join(config.DATA_DIR, 'avatars'),
  uploads: path.join(config.DATA_DIR, 'uploads'),
  artifacts: path.join(config.DATA_DIR, 'artifacts'),
});

/**
 * Multer storage for every upload: streamed to disk under a server-made name, so the client's
 * file name never touches the file system and nothing is held whole in memory.
 */
export function incomingDiskStorage(config: AppConfig): StorageEngine {
  const incoming = dataDirs(config).incoming;
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
