import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadDotEnv } from '@agentloom/server-kit';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { loadConfig } from './config/env';
import { RuntimeModule } from './runtime/runtime.module';

/**
 * A runtime replica: answers questions to published agents for the gateway
 * (PUBLISHED_RUNTIME_URLS), on RUNTIME_PORT. Start as many as the answers need.
 */
async function bootstrap(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  if (!config.RUNTIME_SHARED_SECRET) {
    throw new ConfigError(
      'Missing setting RUNTIME_SHARED_SECRET: required by a runtime replica (32+ random characters, the same as the gateway).',
    );
  }
  const app = await NestFactory.create<NestExpressApplication>(RuntimeModule.register(config), {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.useBodyParser('json', { limit: '1mb' });
  app.useGlobalFilters(new HttpExceptionFilter());
  app.enableShutdownHooks();
  await app.listen(config.RUNTIME_PORT, config.HOST);
  app.get(Logger).log(`Agent runtime listening on http://${config.HOST}:${config.RUNTIME_PORT}`);
}

bootstrap().catch((error: unknown) => {
  const message =
    error instanceof ConfigError ? error.message : ((error as Error)?.stack ?? String(error));
  console.error(`Agentloom agent runtime cannot start: ${message}`);
  process.exit(1);
});
