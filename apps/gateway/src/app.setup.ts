import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { cleanupOpenApiDoc } from 'nestjs-zod';
import type { AppConfig } from './config/env';
import { trustProxy } from './common/client-address';
import { ConfiguredIoAdapter } from './common/configured-io.adapter';
import { HttpExceptionFilter } from './common/http-exception.filter';

/** A host name, an IPv4 address or a bracketed IPv6 address, with an optional port. */
const HOST_HEADER = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)(?::\d{1,5})?$/i;

/**
 * `Host: a b` was answered 200: nothing here builds links from Host (PUBLIC_URL does), but the
 * same-origin check of published chat pages compares it, and a request that cannot name a host
 * is no request this API serves. HTTP/1.0 requests without one still pass.
 */
function refuseMalformedHost(request: Request, response: Response, next: NextFunction): void {
  const host = request.headers.host;
  if (host === undefined || HOST_HEADER.test(host)) return next();
  response.status(400).json({
    detail:
      'The Host header is not a valid host name. Send the address you called, such as agents.example.com.',
  });
}

/**
 * Everything around the routes: security headers, CORS, body limits, the error format and the
 * OpenAPI document. main.ts and the tests both call this, so tests exercise the real setup.
 */
export function configureApp(app: NestExpressApplication, config: AppConfig): INestApplication {
  // Client addresses for rate limits: exactly the product's own proxy hops (client-address.ts).
  app.set('trust proxy', trustProxy(config.TRUST_PROXY_HOPS, config.TRUSTED_PROXIES));
  app.disable('x-powered-by');
  app.use(refuseMalformedHost);
  app.use(
    helmet({
      // Profile pictures are shown by the web app, which runs on another origin.
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    }),
  );
  app.enableCors({ origin: config.CORS_ORIGINS, credentials: false, maxAge: 600 });
  app.useBodyParser('json', { limit: '1mb' });
  app.useBodyParser('urlencoded', { limit: '1mb', extended: false });
  app.useGlobalFilters(new HttpExceptionFilter());
  app.useWebSocketAdapter(new ConfiguredIoAdapter(app, config.CORS_ORIGINS));
  app.enableShutdownHooks();

  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Agentloom API')
      .setDescription(
        'Accounts, profile and the API-key vault of Agentloom. Errors are `{ "detail": "..." }`.',
      )
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, cleanupOpenApiDoc(document), { jsonDocumentUrl: 'docs-json' });
  return app;
}
