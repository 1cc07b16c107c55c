import { prettyFactory } from 'pino-pretty';
import { loggerOptions } from './logging';

describe('loggerOptions', () => {
  it('writes one JSON object a line in production and in tests (compose sets production)', () => {
    expect(loggerOptions({ NODE_ENV: 'production', LOG_LEVEL: 'info' })).toEqual({ level: 'info' });
    expect(loggerOptions({ NODE_ENV: 'test', LOG_LEVEL: 'warn' })).toEqual({ level: 'warn' });
  });

  it('writes one readable line an event in development (npm start)', () => {
    const options = loggerOptions({ NODE_ENV: 'development', LOG_LEVEL: 'info' });
    expect(options).toMatchObject({ level: 'info', transport: { target: 'pino-pretty' } });
    // The transport's own formatter, with the options the apps hand it.
    const pretty = prettyFactory({ ...options.transport!.options, colorize: false });
    const line = pretty({
      level: 30,
      time: Date.UTC(2026, 10, 27, 17, 5, 0),
      pid: 4242,
      hostname: 'builder-1',
      context: 'BuildRunner',
      msg: 'Build 1c2d built (5120 bytes).',
      req: { id: 7, method: 'GET', path: '/builds/x' },
    });
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(line).toContain('INFO');
    expect(line).toContain('[BuildRunner] Build 1c2d built (5120 bytes).');
    expect(line).toContain('"path":"/builds/x"');
    expect(line).not.toContain('4242');
    expect(line).not.toContain('builder-1');
  });

  it('lets LOG_FORMAT choose either way', () => {
    expect(
      loggerOptions({ NODE_ENV: 'development', LOG_LEVEL: 'info', LOG_FORMAT: 'json' }),
    ).toEqual({ level: 'info' });
    expect(
      loggerOptions({ NODE_ENV: 'production', LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' }).transport,
    ).toMatchObject({ target: 'pino-pretty' });
  });
});
