import { metricsAccess, METRICS_TOKEN_REFUSED, processMetrics } from '@agentloom/server-kit';
import {
  Controller,
  Get,
  Headers,
  Inject,
  NotFoundException,
  Res,
  UnauthorizedException,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../common/public.decorator';
import { APP_CONFIG, AppConfig } from '../config/env';

export const METRICS_ON_OWN_PORT =
  'Metrics are served on a port of their own here (METRICS_PORT), not on this one.';
export const METRICS_NEED_A_TOKEN =
  'In production, metrics are served on this port only with METRICS_TOKEN set, or on a port of their own (METRICS_PORT).';

/**
 * GET /metrics on the API port (the gateway's, or a runtime replica's): Prometheus text. It needs
 * no access token of a user (@Public) but its own, METRICS_TOKEN; in production it is not served
 * here without one. The web origin never forwards it (apps/web refuses the path).
 */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get()
  async metrics(
    @Headers('authorization') authorization: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    if (this.config.METRICS_PORT) throw new NotFoundException(METRICS_ON_OWN_PORT);
    if (this.config.NODE_ENV === 'production' && !this.config.METRICS_TOKEN) {
      throw new NotFoundException(METRICS_NEED_A_TOKEN);
    }
    if (!metricsAccess(this.config.METRICS_TOKEN, authorization)) {
      response.setHeader('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedException(METRICS_TOKEN_REFUSED);
    }
    const { registry } = processMetrics();
    response.setHeader('Content-Type', registry.contentType);
    response.setHeader('Cache-Control', 'no-store');
    response.send(await registry.metrics());
  }
}
