import { Vault } from '@agentloom/vault';
import { DynamicModule, Module } from '@nestjs/common';
import { loggerOptions } from '@agentloom/server-kit';
import { LoggerModule } from 'nestjs-pino';
import { ArtifactStore } from './builds/artifact-store';
import { BuildProcessor } from './builds/build.processor';
import { BuildPlanner } from './builds/build-plan';
import { BuildRunner } from './builds/build-runner.service';
import { BuildSecrets } from './builds/build-secrets';
import { BuildSteps } from './builds/build-steps';
import { BuildsRepository } from './builds/builds.repository';
import { ConfigModule } from './config/config.module';
import { WORKER_CONFIG, type WorkerConfig } from './config/env';
import { ConnectivityService } from './connectivity/connectivity.service';
import { WorkerHealthService } from './health/worker-health.service';
import { BuildEvaluator } from './evaluation/build-evaluator';
import { EvaluationRepository } from './evaluation/evaluation.repository';
import { KnowledgeBuilds } from './knowledge/knowledge-builds';
import { KnowledgeIndex } from './knowledge/knowledge-index';
import { KnowledgeProcessor } from './knowledge/knowledge.processor';
import { KnowledgeRepository } from './knowledge/knowledge.repository';
import { SourceIndexer } from './knowledge/source-indexer';
import { SourceUnits } from './knowledge/source-units';
import { WorkerMetrics } from './metrics/worker-metrics.service';
import { PrismaService } from './prisma/prisma.service';
import { RedisService } from './redis/redis.service';

@Module({})
export class WorkerModule {
  static register(config: WorkerConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        // No HTTP here: pinoHttp only carries the pino options for the application logger.
        LoggerModule.forRoot({ pinoHttp: loggerOptions(config) }),
      ],
      providers: [
        RedisService,
        PrismaService,
        ConnectivityService,
        BuildProcessor,
        BuildRunner,
        BuildPlanner,
        BuildSteps,
        BuildSecrets,
        KnowledgeIndex,
        BuildEvaluator,
        EvaluationRepository,
        SourceIndexer,
        SourceUnits,
        KnowledgeRepository,
        KnowledgeBuilds,
        KnowledgeProcessor,
        BuildsRepository,
        ArtifactStore,
        WorkerHealthService,
        WorkerMetrics,
        {
          provide: Vault,
          inject: [WORKER_CONFIG],
          useFactory: (c: WorkerConfig) => new Vault(c.VAULT_MASTER_KEY),
        },
      ],
    };
  }
}
