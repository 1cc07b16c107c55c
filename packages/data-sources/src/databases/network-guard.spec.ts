import type { TDatabaseSourceType } from '@agentloom/contracts';
import { parseDatabaseUri } from './database-uri';
import { RefusedDataSourceError, UnreachableDataSourceError } from './errors';
import { checkDataSourceTarget, NetworkGuardOptions } from './network-guard';

const PLATFORM_MESSAGE =
  "This address belongs to Agentloom's own database or cache and cannot be used as a data source.";
const METADATA_MESSAGE = 'Cloud metadata addresses cannot be used as a data source.';
const PRIVATE_MESSAGE = 'Private and loopback addresses are not allowed on this server.';
const COMPATIBLE_MESSAGE =
  'IPv4-compatible IPv6 addresses (::a.b.c.d) are obsolete and cannot be used as a data source. Write the IPv4 address itself.';

async function expectError(
  promise: Promise<unknown>,
  type: typeof RefusedDataSourceError | typeof UnreachableDataSourceError,
  message: string,
): Promise<void> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(type);
  expect(error).toHaveProperty('message', message);
}

/** DNS as a table, so no test needs the network; an unknown name fails like ENOTFOUND. */
function fakeLookup(table: Record<string, string[]>): (host: string) => Promise<string[]> {
  return (host) => {
    const addresses = table[host];
    return addresses
      ? Promise.resolve(addresses)
      : Promise.reject(
          Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }),
        );
  };
}

const DNS = fakeLookup({
  localhost: ['127.0.0.1', '::1'],
  'cache.internal': ['10.20.0.7'],
  'alias-of-cache.example': ['10.20.0.7'],
  'sneaky.example': ['169.254.169.254'],
  'db.example.com': ['93.184.216.34'],
  'dual.example.com': ['2606:2800:220:1:248:1893:25c8:1946', '93.184.216.34'],
  'mixed.example.com': ['93.184.216.34', '10.0.0.5'],
  'shard-00.example.net': ['93.184.216.34'],
  'shard-01.example.net': ['93.184.216.35'],
  'shard-02.example.net': ['192.168.7.7'],
  'empty.example': [],
  // What a DNS64 resolver answers for names that have only IPv4 addresses.
  'nat64-private.example': ['64:ff9b::a00:5'],
  'nat64-local-use.example': ['64:ff9b:1::c0a8:707'],
  'nat64-public.example': ['64:ff9b:1::5db8:d822'],
  'compatible.example': ['::a00:1'],
});

/** The platform as the test environment runs it: Postgres and Redis on this machine. */
const PLATFORM = [
  { host: '127.0.0.1', port: 5432 },
  { host: 'localhost', port: 6379 },
  { host: 'cache.internal', port: 6380 },
];

function check(
  uri: string,
  options: Partial<NetworkGuardOptions> = {},
  type: TDatabaseSourceType = 'postgres',
): ReturnType<typeof checkDataSourceTarget> {
  return checkDataSourceTarget(parseDatabaseUri(type, uri), {
    strict: false,
    platformEndpoints: PLATFORM,
    lookup: DNS,
    ...options,
  });
}

describe('checkDataSourceTarget', () => {
  describe("the platform's own services (any mode)", () => {
    it.each([
      'postgresql://u:p@127.0.0.1:5432/db',
      'postgresql://u:p@localhost:5432/db',
      'postgresql://u:p@[::1]:5432/db',
      'postgresql://u:p@[::ffff:127.0.0.1]:5432/db',
      'postgresql://u:p@127.0.0.2:5432/db',
      'postgresql://u:p@0.0.0.0:5432/db',
    ])('refuses %s when the platform Postgres is 127.0.0.1:5432', async (uri) => {
      await expectError(check(uri), RefusedDataSourceError, PLATFORM_MESSAGE);
    });

    it.each([
      'postgresql://u:p@127.0.0.1:6379/db',
      'postgresql://u:p@[::1]:6379/db',
      'postgresql://u:p@10.20.0.7:6380/db',
      'postgresql://u:p@alias-of-cache.example:6380/db',
    ])('refuses the Redis endpoint %s, compared by resolved address', async (uri) => {
      await expectError(check(uri), RefusedDataSourceError, PLATFORM_MESSAGE);
    });

    it('allows another port on the same machine when not strict', async () => {
      await expect(check('mysql://u:p@127.0.0.1:3306/db', {}, 'mysql')).resolves.toEqual([
        { host: '127.0.0.1', port: 3306, address: '127.0.0.1' },
      ]);
      await expect(check('postgresql://u:p@10.20.0.7:5432/db')).resolves.toHaveLength(1);
    });
  });

  describe('cloud metadata (any mode)', () => {
    it.each([
      'postgresql://u:p@169.254.169.254:80/db',
      'postgresql://u:p@169.254.170.2:5432/db',
      'postgresql://u:p@[fd00:ec2::254]:5432/db',
      'postgresql://u:p@100.100.100.200:5432/db',
      'postgresql://u:p@[::ffff:169.254.169.254]:5432/db',
      'postgresql://u:p@[64:ff9b::a9fe:a9fe]:5432/db',
      'postgresql://u:p@sneaky.example:5432/db',
    ])('refuses %s in non-strict mode', async (uri) => {
      await expectError(check(uri), RefusedDataSourceError, METADATA_MESSAGE);
    });

    it.each(['metadata.google.internal', 'METADATA', 'metadata.google.internal.'])(
      'refuses the host name %s without resolving it',
      async (host) => {
        const lookup = jest.fn(DNS);
        await expectError(
          check(`postgresql://u:p@${host}:5432/db`, { lookup }),
          RefusedDataSourceError,
          METADATA_MESSAGE,
        );
        expect(lookup).not.toHaveBeenCalledWith(host);
      },
    );
  });

  describe('strict mode', () => {
    it.each([
      'postgresql://u:p@10.0.0.5:5432/db',
      'postgresql://u:p@192.168.1.1:5432/db',
      'postgresql://u:p@172.16.4.4:5432/db',
      'postgresql://u:p@127.0.0.1:3306/db',
      'postgresql://u:p@[fe80::1]:5432/db',
      'postgresql://u:p@[fd12:3456::1]:5432/db',
      'postgresql://u:p@100.64.0.1:5432/db',
      'postgresql://u:p@0.0.0.0:5433/db',
      'postgresql://u:p@localhost:5433/db',
      'postgresql://u:p@mixed.example.com:5432/db',
    ])('refuses %s', async (uri) => {
      await expectError(check(uri, { strict: true }), RefusedDataSourceError, PRIVATE_MESSAGE);
    });

    it('lets allowlisted on-premises hosts through: a name, an address, a range', async () => {
      const allowedHosts = ['db.internal.example', '192.168.1.1', '10.0.0.0/8'];
      for (const uri of [
        'postgresql://u:p@192.168.1.1:5432/db',
        'postgresql://u:p@10.20.30.40:5432/db',
        'postgresql://u:p@[::ffff:10.1.1.1]:5432/db',
      ]) {
        await expect(check(uri, { strict: true, allowedHosts })).resolves.toHaveLength(1);
      }
      await expectError(
        check('postgresql://u:p@172.16.4.4:5432/db', { strict: true, allowedHosts }),
        RefusedDataSourceError,
        PRIVATE_MESSAGE,
      );
      // The platform's own database stays refused even when its address is allowlisted.
      await expectError(
        check('postgresql://u:p@127.0.0.1:5432/db', { strict: true, allowedHosts: ['127.0.0.1'] }),
        RefusedDataSourceError,
        PLATFORM_MESSAGE,
      );
    });

    it('allows a public address and returns it to connect to', async () => {
      await expect(
        check('postgresql://u:p@db.example.com:5432/db', { strict: true }),
      ).resolves.toEqual([{ host: 'db.example.com', port: 5432, address: '93.184.216.34' }]);
    });

    it('returns every address of a host, IPv4 first', async () => {
      const targets = await check('postgresql://u:p@dual.example.com/db', { strict: true });
      expect(targets.map((target) => target.address)).toEqual([
        '93.184.216.34',
        '2606:2800:220:1:248:1893:25c8:1946',
      ]);
    });
  });

  describe('MongoDB', () => {
    it('checks every host of a seed list', async () => {
      const uri = 'mongodb://u:p@shard-00.example.net,shard-02.example.net:27018/app';
      await expectError(
        check(uri, { strict: true }, 'mongo'),
        RefusedDataSourceError,
        PRIVATE_MESSAGE,
      );
      await expect(check(uri, { strict: false }, 'mongo')).resolves.toEqual([
        { host: 'shard-00.example.net', port: 27017, address: '93.184.216.34' },
        { host: 'shard-02.example.net', port: 27018, address: '192.168.7.7' },
      ]);
    });

    it('resolves the SRV record of a mongodb+srv host and checks each target', async () => {
      const resolveSrv = jest.fn((name: string) =>
        Promise.resolve(
          name === '_mongodb._tcp.cluster0.example.net'
            ? [
                { name: 'shard-00.example.net', port: 27017 },
                { name: 'shard-01.example.net', port: 27017 },
              ]
            : [],
        ),
      );
      const uri = 'mongodb+srv://u:p@cluster0.example.net/app';
      await expect(check(uri, { strict: true, resolveSrv }, 'mongo')).resolves.toEqual([
        { host: 'shard-00.example.net', port: 27017, address: '93.184.216.34' },
        { host: 'shard-01.example.net', port: 27017, address: '93.184.216.35' },
      ]);
    });

    it('refuses an SRV record that points at a private or metadata host', async () => {
      const uri = 'mongodb+srv://u:p@cluster0.example.net/app';
      const privateSrv = (): Promise<{ name: string; port: number }[]> =>
        Promise.resolve([{ name: 'shard-02.example.net', port: 27017 }]);
      await expectError(
        check(uri, { strict: true, resolveSrv: privateSrv }, 'mongo'),
        RefusedDataSourceError,
        PRIVATE_MESSAGE,
      );
      const metadataSrv = (): Promise<{ name: string; port: number }[]> =>
        Promise.resolve([{ name: 'metadata.google.internal', port: 80 }]);
      await expectError(
        check(uri, { resolveSrv: metadataSrv }, 'mongo'),
        RefusedDataSourceError,
        METADATA_MESSAGE,
      );
    });

    it('reports a mongodb+srv host without an SRV record', async () => {
      const resolveSrv = (): Promise<never> => Promise.reject(new Error('queryNoData'));
      await expectError(
        check('mongodb+srv://u:p@nothing.example.net/app', { resolveSrv }, 'mongo'),
        UnreachableDataSourceError,
        'No MongoDB SRV record was found for nothing.example.net.',
      );
    });
  });

  // Issue 42, finding 3: these were allowed in strict mode, and [::127.0.0.1]:5432 passed the
  // own-database check, so a connection was attempted. Only the decision is tested: the guard
  // runs before any connection, and DNS is the table above.
  describe('IPv4 addresses inside IPv6 ones, and ranges that are not the public internet', () => {
    it.each([
      ['postgresql://u@[::127.0.0.1]:5432/d', PLATFORM_MESSAGE],
      ['postgresql://u@[::7f00:1]:6379/d', PLATFORM_MESSAGE],
      ['postgresql://u@[64:ff9b:1::7f00:1]:5432/d', PLATFORM_MESSAGE],
      ['postgresql://u@[64:ff9b::7f00:1]:5432/d', PLATFORM_MESSAGE],
      ['postgresql://u@[::169.254.169.254]:5432/d', METADATA_MESSAGE],
      ['postgresql://u@[64:ff9b:1::a9fe:a9fe]:5432/d', METADATA_MESSAGE],
    ])('judges %s by its IPv4 address in any mode', async (uri, message) => {
      await expectError(check(uri), RefusedDataSourceError, message);
      await expectError(check(uri, { strict: true }), RefusedDataSourceError, message);
    });

    it.each([
      'postgresql://u@[::10.0.0.1]:5432/d',
      'postgresql://u@[64:ff9b:1::a00:1]:5432/d',
      'postgresql://u@[64:ff9b:1::7f00:1]:5433/d',
      'postgresql://u@[64:ff9b::c0a8:101]:5432/d',
      'postgresql://u@198.18.0.1:5432/d',
      'postgresql://u@198.19.255.254:5432/d',
      'postgresql://u@[::ffff:198.18.0.1]:5432/d',
      'postgresql://u@[fec0::1]:5432/d',
      'postgresql://u@[100::1]:5432/d',
      'postgresql://u@nat64-private.example:5432/d',
      'postgresql://u@nat64-local-use.example:5432/d',
      'postgresql://u@compatible.example:5432/d',
    ])('refuses %s in strict mode', async (uri) => {
      await expectError(check(uri, { strict: true }), RefusedDataSourceError, PRIVATE_MESSAGE);
    });

    it.each(['postgresql://u@[::10.0.0.1]:5432/d', 'postgresql://u@compatible.example:5432/d'])(
      'refuses the obsolete IPv4-compatible form %s in any mode',
      async (uri) => {
        await expectError(check(uri), RefusedDataSourceError, COMPATIBLE_MESSAGE);
      },
    );

    it('lets a public IPv4 address through a NAT64 prefix, and returns the IPv6 address to use', async () => {
      for (const [uri, address] of [
        ['postgresql://u@[64:ff9b::5db8:d822]:5432/d', '64:ff9b::5db8:d822'],
        ['postgresql://u@[64:ff9b:1::5db8:d822]:5432/d', '64:ff9b:1::5db8:d822'],
        ['postgresql://u@nat64-public.example:5432/d', '64:ff9b:1::5db8:d822'],
      ] as const) {
        const [target] = await check(uri, { strict: true });
        expect(target?.address).toBe(address);
      }
    });

    it('judges every IPv4 address a local-use NAT64 prefix can carry (RFC 6052 lengths)', async () => {
      // 64:ff9b:1::a:0:100:0 carries 10.0.0.1 behind a /64 prefix (bits 64-71 are skipped);
      // its last 32 bits read 1.0.0.0, a public address, so judging only those would let it by.
      const uri = 'postgresql://u@[64:ff9b:1::a:0:100:0]:5432/d';
      await expectError(check(uri, { strict: true }), RefusedDataSourceError, PRIVATE_MESSAGE);
      await expect(check(uri)).resolves.toHaveLength(1);
    });

    it('keeps 198.18.0.0/15 usable outside strict mode and through the allowlist', async () => {
      await expect(check('postgresql://u@198.18.0.1:5432/d')).resolves.toHaveLength(1);
      await expect(
        check('postgresql://u@198.18.0.1:5432/d', {
          strict: true,
          allowedHosts: ['198.18.0.0/15'],
        }),
      ).resolves.toHaveLength(1);
    });
  });

  it.each(['db.example', 'empty.example'])('reports an unresolvable host (%s)', async (host) => {
    await expectError(
      check(`postgresql://u:p@${host}:5432/db`),
      UnreachableDataSourceError,
      `The host ${host} could not be resolved.`,
    );
  });

  it('has nothing to check for SQLite', async () => {
    await expect(check('sqlite:///data/app.db', {}, 'sqlite')).resolves.toEqual([]);
  });

  it('uses the system resolver by default', async () => {
    const parsed = parseDatabaseUri('postgres', 'postgresql://u:p@localhost:5432/db');
    await expect(
      checkDataSourceTarget(parsed, { strict: false, platformEndpoints: [] }),
    ).resolves.toContainEqual({ host: 'localhost', port: 5432, address: '127.0.0.1' });
  });
});
