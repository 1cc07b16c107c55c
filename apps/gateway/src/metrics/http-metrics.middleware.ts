import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { gatewayMetrics } from './gateway-metrics';

/**
 * Times every request by its route pattern (`/agents/:id/chat`, never the id itself: one series
 * per route, not per agent or token). Requests no route matched share `unmatched`.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  use(request: Request, response: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    response.once('close', () => {
      const pattern = (request.route as { path?: unknown } | undefined)?.path;
      const route = typeof pattern === 'string' ? `${request.baseUrl}${pattern}` : 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      gatewayMetrics().httpRequests.observe(
        { method: request.method, route, status: String(response.statusCode) },
        seconds,
      );
    });
    next();
  }
}
