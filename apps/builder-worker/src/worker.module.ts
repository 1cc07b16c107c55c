import { DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule } from './config/config.module';
import type { WorkerConfig } from './config/env';
import { ConnectivityService } from './connectivity/connectivity.service';
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
        LoggerModule.forRoot({ pinoHttp: { level: config.LOG_LEVEL } }),
      ],
      providers: [RedisService, PrismaService, ConnectivityService],
    };
  }
}
