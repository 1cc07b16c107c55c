import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { ConfigError, loadDotEnv } from '@agentloom/server-kit';
import { loadConfig } from './config/env';

async function bootstrap(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config), {
    bufferLogs: true,
    bodyParser: false,
  });
  app.useLogger(app.get(Logger));
  configureApp(app, config);
  await app.listen(config.PORT, config.HOST).catch((error: NodeJS.ErrnoException) => {
    // The one start failure a developer meets most (a second npm start, another app on 8000).
    if (error.code === 'EADDRINUSE')
      throw new ConfigError(`port ${config.PORT} is already in use; set PORT to a free port.`);
    throw error;
  });
  app.get(Logger).log(`Gateway listening on http://${config.HOST}:${config.PORT} (docs at /docs)`);
}

bootstrap().catch((error: unknown) => {
  const message =
    error instanceof ConfigError ? error.message : ((error as Error)?.stack ?? String(error));
  console.error(`Agentloom gateway cannot start: ${message}`);
  process.exit(1);
});
