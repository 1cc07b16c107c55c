import { DynamicModule, Global, Module } from '@nestjs/common';
import { WORKER_CONFIG, WorkerConfig } from './env';

/** Makes the configuration validated at boot (main.ts) injectable as WORKER_CONFIG. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: WorkerConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: WORKER_CONFIG, useValue: config }],
      exports: [WORKER_CONFIG],
    };
  }
}
