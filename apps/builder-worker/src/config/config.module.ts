import { createObjectStore, OBJECT_STORE } from '@agentloom/server-kit';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { WORKER_CONFIG, WorkerConfig } from './env';

/** Makes the configuration validated at boot (main.ts) injectable as WORKER_CONFIG, and the object store it chooses. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: WorkerConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: WORKER_CONFIG, useValue: config },
        // Uploads, profile pictures and build zips: DATA_DIR or S3 (STORAGE_DRIVER).
        { provide: OBJECT_STORE, useValue: createObjectStore(config, config.DATA_DIR) },
      ],
      exports: [WORKER_CONFIG, OBJECT_STORE],
    };
  }
}
