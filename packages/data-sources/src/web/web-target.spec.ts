import {
  InvalidDataSourceError,
  RefusedDataSourceError,
  UnreachableDataSourceError,
} from '../databases';
import { checkWebSource, type WebSourceSettings } from './web-target';

/**
 * The network guard's decisions on web addresses, made before anything connects: names resolve
 * through an injected table, so no test sends a packet anywhere (the addresses below that are
 * not loopback are never connected to, only judged).
 */

const DNS: Record<string, string[]> = {
  'docs.example.com': ['93.184.216.34'],
  'intranet.example.com': ['10.1.2.3'],
  'rebind.example.com': ['93.184.216.34', '169.254.169.254'],
  'v6.example.com': ['::ffff:a9fe:a9fe'],
  localhost: ['127.0.0.1'],
};

function settings(overrides: Partial<WebSourceSettings> = {}): WebSourceSettings {
  return {
    platformUrls: {
      database: 'postgresql://postgres@127.0.0.1:5432/agentloom',
      redis: 'redis://127.0.0.1:6379',
    },
    platformHttpUrls: ['http://127.0.0.1:8000', 'https://agentloom.example.com'],
    strict: false,
    allowedHosts: [],
    timeoutMs: 2000,
    lookup: (host) =>
      DNS[host] ? Promise.resolve(DNS[host]) : Promise.reject(new Error(`ENOTFOUND ${host}`)),
    ...overrides,
  };
}

async function refusal(url: string, options?: Partial<WebSourceSettings>): Promise<unknown> {
  return checkWebSource(url, settings(options)).then(
    () => new Error(`${url} was allowed`),
    (error: unknown) => error,
  );
}

describe('checkWebSource', () => {
  it('allows a public page, normalised, with the address a connection will use', async () => {
    await expect(
      checkWebSource('  HTTPS://Docs.Example.com:443/guide?x=1#intro ', settings()),
    ).resolves.toEqual({
      url: 'https://docs.example.com/guide?x=1',
      targets: [{ host: 'docs.example.com', port: 443, address: '93.184.216.34' }],
    });
  });

  it.each([
    ['not a url', 'That is not a web address.'],
    ['ftp://docs.example.com/file', 'Only http:// and https:// addresses can be read, not ftp://.'],
    ['file:///etc/passwd', 'Only http:// and https:// addresses can be read, not file://.'],
    ['https://user:secret@docs.example.com/', 'may not contain a user name or password'],
  ])('refuses the form of %s', async (url, message) => {
    const error = await refusal(url);
    expect(error).toBeInstanceOf(InvalidDataSourceError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('secret');
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://rebind.example.com/', // one of its addresses is metadata
    'http://v6.example.com/',
  ])('always refuses cloud metadata: %s', async (url) => {
    const error = await refusal(url);
    expect(error).toBeInstanceOf(RefusedDataSourceError);
    expect((error as Error).message).toBe(
      'Cloud metadata addresses cannot be used as a data source.',
    );
  });

  it.each([
    'http://127.0.0.1:5432/',
    'http://localhost:6379/',
    'http://localhost:8000/admin',
    'http://[::1]:8000/',
  ])("always refuses the platform's own services: %s", async (url) => {
    const error = await refusal(url);
    expect(error).toBeInstanceOf(RefusedDataSourceError);
    expect((error as Error).message).toContain("Agentloom's own database or cache");
  });

  it('in strict mode refuses loopback and private addresses unless allowed', async () => {
    for (const url of [
      'http://127.0.0.1:9000/',
      'http://intranet.example.com/',
      'http://[::1]:9000/',
    ]) {
      const error = await refusal(url, { strict: true });
      expect(error).toBeInstanceOf(RefusedDataSourceError);
      expect((error as Error).message).toBe(
        'Private and loopback addresses are not allowed on this server.',
      );
    }
    await expect(
      checkWebSource(
        'http://intranet.example.com/',
        settings({ strict: true, allowedHosts: ['10.0.0.0/8'] }),
      ),
    ).resolves.toMatchObject({ targets: [{ address: '10.1.2.3' }] });
    // The platform's own services stay refused even when their range is allowed.
    expect(
      await refusal('http://127.0.0.1:8000/', { strict: true, allowedHosts: ['127.0.0.1'] }),
    ).toBeInstanceOf(RefusedDataSourceError);
  });

  it('says when a name does not resolve', async () => {
    const error = await refusal('http://nowhere.example.com/');
    expect(error).toBeInstanceOf(UnreachableDataSourceError);
    expect((error as Error).message).toBe('The host nowhere.example.com could not be resolved.');
  });
});
