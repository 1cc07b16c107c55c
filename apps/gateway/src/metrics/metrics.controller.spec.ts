import { NotFoundException, UnauthorizedException } from '@nestjs/common';
import type { Response } from 'express';
import type { AppConfig } from '../config/env';
import { METRICS_NEED_A_TOKEN, MetricsController } from './metrics.controller';

/** What the controller writes, without a server. */
function recorder() {
  const written: { headers: Record<string, string>; body?: string } = { headers: {} };
  const response = {
    setHeader: (name: string, value: string) => (written.headers[name] = value),
    send: (body: string) => (written.body = body),
  } as unknown as Response;
  return { written, response };
}

const controller = (config: Partial<AppConfig>) =>
  new MetricsController({ NODE_ENV: 'production', ...config } as AppConfig);

describe('MetricsController on the API port', () => {
  it('serves nothing in production without METRICS_TOKEN', async () => {
    const { response } = recorder();
    const refused = controller({}).metrics(undefined, response);
    await expect(refused).rejects.toThrow(NotFoundException);
    await expect(refused).rejects.toThrow(METRICS_NEED_A_TOKEN);
  });

  it('serves production metrics to the token only', async () => {
    const token = 'production-metrics-token-0123456';
    const { written, response } = recorder();
    await expect(
      controller({ METRICS_TOKEN: token }).metrics('Bearer wrong-token-000000000000', response),
    ).rejects.toThrow(UnauthorizedException);
    expect(written.headers['WWW-Authenticate']).toBe('Bearer');
    await controller({ METRICS_TOKEN: token }).metrics(`Bearer ${token}`, response);
    expect(written.body).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });
});
