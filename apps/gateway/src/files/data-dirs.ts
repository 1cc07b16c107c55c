import path from 'node:path';
import type { AppConfig } from '../config/env';

/** Folders under DATA_DIR. Uploads land in `incoming/` and move once their content is checked. */
export const dataDirs = (config: AppConfig) => ({
  incoming: path.join(config.DATA_DIR, 'incoming'),
  avatars: path.join(config.DATA_DIR, 'avatars'),
});
