import { DynamicModule, Module } from '@nestjs/common';
import { loggerOptions } from '@agentloom/server-kit';
import { LoggerModule } from 'nestjs-pino';
import { AgentsModule } from '../agents/agents.module';
import { ConfigModule } from '../config/config.module';
import type { AppConfig } from '../config/env';
import { PrismaModule } from '../prisma/prisma.module';
import { MetricsModule } from '../metrics/metrics.module';
import { RedisModule } from '../redis/redis.module';
import { VaultModule } from '../vault/vault.module';
import { RuntimeController } from './runtime.controller';

/**
 * A runtime replica (runtime-main.ts): what answering for a published agent needs — the agents
 * module, which loads a build's agent with its provider key and data — and none of the gateway's
 * routes but its own.
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
        AgentsModule,
        MetricsModule.register('agent-runtime'),
      ],
      controllers: [RuntimeController],
    };
  }
}
