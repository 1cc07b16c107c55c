import { metricsAccess, startMetricsServer, type MetricsServer } from './metrics-server';

const source = {
  contentType: 'text/plain; version=0.0.4; charset=utf-8',
  metrics: () => Promise.resolve('# HELP up Whether it serves.\nup 1\n'),
};

describe('startMetricsServer', () => {
  let server: MetricsServer;
  let base: string;

  beforeAll(async () => {
    server = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      token: 'a-token-of-twenty-chars',
      source,
    });
    base = `http://127.0.0.1:${server.port}`;
  });

  afterAll(() => server.close());

  it('serves the metrics to the token, as Prometheus text', async () => {
    const res = await fetch(`${base}/metrics`, {
      headers: { authorization: 'Bearer a-token-of-twenty-chars' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(source.contentType);
    expect(await res.text()).toBe('# HELP up Whether it serves.\nup 1\n');
  });

  it.each([undefined, 'Bearer another-token-entirely', 'a-token-of-twenty-chars'])(
    'refuses the authorization %s with 401 and a detail',
    async (authorization) => {
      const res = await fetch(`${base}/metrics`, {
        headers: authorization ? { authorization } : {},
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ detail: expect.stringContaining('METRICS_TOKEN') });
    },
  );

  it('serves nothing else', async () => {
    const other = await fetch(`${base}/health`);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: 'Only /metrics is served on this port.' });
    const posted = await fetch(`${base}/metrics`, { method: 'POST' });
    expect(posted.status).toBe(405);
  });
});

describe('metricsAccess', () => {
  it('is open without a token and needs the exact bearer token with one', () => {
    expect(metricsAccess(undefined, undefined)).toBe(true);
    expect(metricsAccess('sixteen-chars-ok', 'bearer sixteen-chars-ok')).toBe(true);
    expect(metricsAccess('sixteen-chars-ok', 'Bearer sixteen-chars-o')).toBe(false);
    expect(metricsAccess('sixteen-chars-ok', 'Basic sixteen-chars-ok')).toBe(false);
  });
});
