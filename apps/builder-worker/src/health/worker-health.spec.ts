import { judgeHealth, type WorkerHealth } from './worker-health';

const fresh: WorkerHealth = { at: 1_000_000, database: 'up', redis: 'up', consuming: true };

describe('judgeHealth (the container healthcheck)', () => {
  it('passes a fresh file whose checks all passed', () => {
    expect(judgeHealth(fresh, 10_000, fresh.at + 5_000)).toBeNull();
  });

  it('fails a missing file, a stale one (a stuck worker stops writing), and each failed check', () => {
    expect(judgeHealth(null, 10_000)).toBe('no health file yet');
    expect(judgeHealth(fresh, 10_000, fresh.at + 33_000)).toBe('health file is 33 s old');
    expect(judgeHealth({ ...fresh, database: 'down' }, 10_000, fresh.at)).toBe(
      'Postgres does not answer',
    );
    expect(judgeHealth({ ...fresh, redis: 'down' }, 10_000, fresh.at)).toBe(
      'Redis does not answer',
    );
    expect(judgeHealth({ ...fresh, consuming: false }, 10_000, fresh.at)).toBe(
      'the build consumer is not running',
    );
  });
});
