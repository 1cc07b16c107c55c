import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
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
  return diskStorage({
    destination: incoming,
    filename: (_request, _file, done) => done(null, randomUUID()),
  });
}
