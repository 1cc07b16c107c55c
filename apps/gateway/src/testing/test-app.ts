import type { PrismaClient } from '@agentloom/db';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { AppModule } from '../app.module';
import { configureApp } from '../app.setup';
import { AppConfig, loadConfig } from '../config/env';
import { PrismaService } from '../prisma/prisma.service';
import { RedisService } from '../redis/redis.service';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  /** Where the app listens (http://127.0.0.1:<port>), for the test kit's API driver. */
  url: string;
  config: AppConfig;
  prisma: PrismaClient;
  redis: RedisService;
  close: () => Promise<void>;
}

/**
 * Boots the real AppModule with the real setup (filters, pipes, helmet, CORS, Swagger),
 * listening on a free loopback port: supertest drives it in process, and `url` lets the test
 * kit, Socket.IO clients and plain fetch reach it as any client would.
 */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig({ ...process.env, ...overrides }, () => undefined);
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.register(config)],
  }).compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    logger: false,
  });
  configureApp(app, config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const redis = app.get(RedisService);
  return {
    app,
    http: request(app.getHttpServer()),
    url: `http://127.0.0.1:${port}`,
    config,
    prisma: app.get(PrismaService).client,
    redis,
    close: () => app.close(),
  };
}

/** Clears the login and password-reset counters so tests that hit them start from zero. */
export async function resetLoginThrottle(redis: RedisService): Promise<void> {
  const keys = await redis.client.keys('agentloom:auth-throttle:*');
  if (keys.length > 0) await redis.client.del(...keys);
}
