import type { DynamicModule } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { APP_CONFIG, AppConfig } from '../config/env';
import { incomingDiskStorage } from './data-dirs';

/**
 * Multer for a feature that takes uploads: files streamed to DATA_DIR/incoming under server-made
 * names (see incomingDiskStorage), with the form-field limits the feature's forms need. The
 * file-size limit is each route's own (SingleFileUpload).
 */
export function incomingUploadsModule(limits: {
  fields: number;
  fieldSize: number;
  parts: number;
}): DynamicModule {
  return MulterModule.registerAsync({
    inject: [APP_CONFIG],
    useFactory: (config: AppConfig) => ({ storage: incomingDiskStorage(config), limits }),
  });
}
