import type { PrismaClient } from '@agentloom/db';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
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
  config: AppConfig;
  prisma: PrismaClient;
  redis: RedisService;
  close: () => Promise<void>;
}

/** Boots the real AppModule with the real setup (filters, pipes, helmet, CORS, Swagger). */
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
  await app.init();
  const redis = app.get(RedisService);
  return {
    app,
    http: request(app.getHttpServer()),
    config,
    prisma: app.get(PrismaService).client,
    redis,
    close: () => app.close(),
  };
}

export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
  token: string;
  auth: { Authorization: string };
}

/** Signs a fresh, unique user up and in through the public API. */
export async function signUpAndLogIn(http: TestAgent, prefix = 'user'): Promise<TestUser> {
  const suffix = randomUUID().slice(0, 8);
  const username = `${prefix}_${suffix}`;
  const email = `${username}@example.com`;
  const password = 'correct horse battery';
  await http
    .post('/auth/signup')
    .send({ username, email, password, confirm_password: password })
    .expect(201);
  const login = await http.post('/auth/login').send({ email, password }).expect(200);
  const token = login.body.access_token as string;
  return {
    id: login.body.user.id as string,
    username,
    email,
    password,
    token,
    auth: { Authorization: `Bearer ${token}` },
  };
}

/** Clears the login and password-reset counters so tests that hit them start from zero. */
export async function resetLoginThrottle(redis: RedisService): Promise<void> {
  const keys = await redis.client.keys('agentloom:auth-throttle:*');
  if (keys.length > 0) await redis.client.del(...keys);
}
