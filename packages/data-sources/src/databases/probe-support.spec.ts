import { UnreachableDataSourceError } from './errors';
import { ProbedServer, runProbe } from './probe-support';

const SERVER: ProbedServer = {
  label: 'PostgreSQL',
  endpoint: { host: 'db.example.com', port: 5432, address: '93.184.216.34' },
  credentials: { password: 'Pr0be-S3cret!', rawPassword: 'Pr0be-S3cret%21' },
};

const COULD_NOT_CONNECT =
  'Could not connect to the PostgreSQL server at db.example.com:5432. Check the host, port, user name and password, and that the server accepts connections from this server.';

async function failureOf(work: () => Promise<unknown>, timeoutMs = 1000): Promise<Error> {
  const release = jest.fn(() => Promise.resolve());
  const error = await runProbe(SERVER, { timeoutMs }, work, release).then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason as Error,
  );
  expect(release).toHaveBeenCalledWith(false);
  return error;
}

describe('runProbe', () => {
  it('enforces the deadline on work that never settles, and releases the connection', async () => {
    const started = Date.now();
    const error = await failureOf(() => new Promise(() => undefined), 300);
    expect(Date.now() - started).toBeLessThan(500);
    expect(error).toBeInstanceOf(UnreachableDataSourceError);
    expect(error.message).toBe(COULD_NOT_CONNECT);
  });

  it('answers every failure to connect alike, so no answer maps which ports listen', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 93.184.216.34:5432'), {
      code: 'ECONNREFUSED',
    });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const closed = new Error('Connection terminated unexpectedly');
    const denied = new Error('password authentication failed for user "u"');
    for (const failure of [refused, reset, closed, denied]) {
      const error = await failureOf(() => Promise.reject(failure));
      expect(error.message).toBe(COULD_NOT_CONNECT);
    }
  });

  it('scrubs the raw and encoded password from driver messages', async () => {
    const leaky = new Error('bad URI postgresql://u:Pr0be-S3cret%21@h and again Pr0be-S3cret!');
    const error = await failureOf((...args: unknown[]) => {
      (args[0] as { connected: boolean }).connected = true;
      return Promise.reject(leaky);
    });
    expect(error.message).toBe(
      'The PostgreSQL server at db.example.com:5432 could not be inspected: bad URI postgresql://u:****@h and again ****.',
    );
  });

  it('words failures after sign-in as an inspection problem', async () => {
    const error = await failureOf((...args: unknown[]) => {
      const step = args[0] as { connected: boolean };
      step.connected = true;
      return Promise.reject(new Error('permission denied for table sales'));
    });
    expect(error.message).toBe(
      'The PostgreSQL server at db.example.com:5432 could not be inspected: permission denied for table sales.',
    );
  });

  it('releases with success once the work is done', async () => {
    const release = jest.fn(() => Promise.resolve());
    await expect(
      runProbe(SERVER, { timeoutMs: 1000 }, () => Promise.resolve(42), release),
    ).resolves.toBe(42);
    expect(release).toHaveBeenCalledWith(true);
  });
});
