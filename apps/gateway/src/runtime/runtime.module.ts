import { DynamicModule, Module } from '@nestjs/common';
import { loggerOptions } from '@agentloom/server-kit';
import { LoggerModule } from 'nestjs-pino';
import { ApiKeyListCache } from '../api-keys/api-key-list.cache';
import { ApiKeysRepository } from '../api-keys/api-keys.repository';
import { ApiKeysService } from '../api-keys/api-keys.service';
import { BuildsRepository } from '../builds/builds.repository';
import { ConfigModule } from '../config/config.module';
import type { AppConfig } from '../config/env';
import { PipelineSecrets } from '../pipelines/pipeline-secrets';
import { PipelineStorage } from '../pipelines/pipeline-storage';
import { PipelinesRepository } from '../pipelines/pipelines.repository';
import { PipelinesService } from '../pipelines/pipelines.service';
import { HostedIndexes } from '../previews/hosted-indexes';
import { PreviewAgentLoader } from '../previews/preview-agents';
import { PreviewSessions } from '../previews/preview-sessions';
import { PrismaModule } from '../prisma/prisma.module';
import { MetricsModule } from '../metrics/metrics.module';
import { LocalAnswers } from '../published/local-answers';
import { PublishedRepository } from '../published/published.repository';
import { RedisModule } from '../redis/redis.module';
import { DataSourcesService } from '../sources/data-sources.service';
import { VaultModule } from '../vault/vault.module';
import { RuntimeController } from './runtime.controller';

/**
 * A runtime replica (runtime-main.ts): what answering for a published agent needs — the build's
 * agent, its provider key from the vault, its data source — and none of the gateway's routes.
 * The providers are listed one by one rather than importing the gateway's modules, because
 * those modules bring their controllers, and a replica serves no public route.
 */
@Module({})
export class RuntimeModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: RuntimeModule,
      imports: [
        ConfigModule.forRoot(config),
        // No request logging: the gateway logs the caller's request; this hop adds nothing.
        LoggerModule.forRoot({ pinoHttp: { ...loggerOptions(config), autoLogging: false } }),
        PrismaModule,
        RedisModule,
        VaultModule,
        MetricsModule.register('agent-runtime'),
      ],
      controllers: [RuntimeController],
      providers: [
        PipelinesRepository,
        PipelinesService,
        PipelineSecrets,
        PipelineStorage,
        BuildsRepository,
        ApiKeysRepository,
        ApiKeysService,
        ApiKeyListCache,
        DataSourcesService,
        PreviewAgentLoader,
        HostedIndexes,
        PreviewSessions,
        PublishedRepository,
        LocalAnswers,
      ],
    };
  }
}
