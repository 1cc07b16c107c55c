import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadDotEnv } from '@agentloom/server-kit';
import { loadWorkerConfig } from './config/env';
import { DependencyUnavailableError } from './connectivity/connectivity.service';
import { WorkerModule } from './worker.module';

async function bootstrap(): Promise<void> {
  loadDotEnv();
  const config = loadWorkerConfig();
  const app = await NestFactory.createApplicationContext(WorkerModule.register(config), {
    bufferLogs: true,
    // Reject instead of aborting the process, so the failure is reported below.
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  // On SIGTERM/SIGINT Nest closes the context (destroy hooks close Redis and Postgres), then
  // exits 0 through process.exit so pino flushes its last lines.
  app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
}

bootstrap().catch((error: unknown) => {
  const expected = error instanceof ConfigError || error instanceof DependencyUnavailableError;
  const message = expected ? error.message : ((error as Error)?.stack ?? String(error));
  console.error(`Agentloom builder-worker cannot start: ${message}`);
  process.exit(1);
});
