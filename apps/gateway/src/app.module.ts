import { DynamicModule, Module } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { ZodValidationPipe } from 'nestjs-zod';
import { loggerOptions } from '@agentloom/server-kit';
import { LoggerModule } from 'nestjs-pino';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuthModule } from './auth/auth.module';
import { ConfigModule } from './config/config.module';
import type { AppConfig } from './config/env';
import { HealthController } from './health/health.controller';
import { HealthService } from './health/health.service';
import { MailModule } from './mail/mail.module';
import { MetricsModule } from './metrics/metrics.module';
import { PrismaModule } from './prisma/prisma.module';
import { RedisModule } from './redis/redis.module';
import { BuildsModule } from './builds/builds.module';
import { PipelinesModule } from './pipelines/pipelines.module';
import { AgentFilesModule } from './agent-files/agent-files.module';
import { ImageAgentModule } from './image-agent/image-agent.module';
import { KnowledgeModule } from './knowledge/knowledge.module';
import { RetrievalModule } from './retrieval/retrieval.module';
import { PassagesModule } from './passages/passages.module';
import { CuratedAnswersModule } from './curated/curated-answers.module';
import { InsightsModule } from './insights/insights.module';
import { PreviewsModule } from './previews/previews.module';
import { PublishedModule } from './published/published.module';
import { UsersModule } from './users/users.module';
import { WizardModule } from './wizard/wizard.module';
import { VaultModule } from './vault/vault.module';

@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            ...loggerOptions(config),
            // A request is logged as method, path and id only. Headers carry bearer tokens and
            // query strings carry e-mail addresses (forgot-password), so neither is serialized;
            // keeping the bindings this small is also what keeps per-request logging cheap
            // (pino serializes a child logger's bindings eagerly, even when the level is off).
            serializers: {
              req: (request: { id: unknown; method: string; url: string }) => ({
                id: request.id,
                method: request.method,
                // A preview link's token is its access: log the route, not the token.
                path: (request.url.split('?', 1)[0] ?? '').replace(/^\/p\/[^/]+/, '/p/:token'),
              }),
              res: (response: { statusCode: number }) => ({ statusCode: response.statusCode }),
            },
            // Probes and Prometheus scrapes come every few seconds: not worth a line each.
            autoLogging: { ignore: (request) => /^\/(health|metrics)\b/.test(request.url ?? '') },
          },
        }),
        PrismaModule,
        RedisModule,
        VaultModule,
        AuthModule,
        UsersModule,
        ApiKeysModule,
        PipelinesModule,
        WizardModule,
        AgentFilesModule,
        BuildsModule,
        PreviewsModule,
        ImageAgentModule,
        KnowledgeModule,
        RetrievalModule,
        PassagesModule,
        CuratedAnswersModule,
        InsightsModule,
        // /health reports the last e-mail delivery (the same MailService the auth flow uses).
        MailModule,
        PublishedModule,
        MetricsModule.register('gateway'),
      ],
      controllers: [HealthController],
      providers: [{ provide: APP_PIPE, useClass: ZodValidationPipe }, HealthService],
    };
  }
}
