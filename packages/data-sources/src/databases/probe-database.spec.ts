import type { TDatabaseSourceType } from '@agentloom/contracts';
import fs from 'node:fs';
import { parseDatabaseUri } from './database-uri';
import { InvalidDataSourceError, UnreachableDataSourceError } from './errors';
import { probeDatabase } from './probe-database';
import { probe, rejectionOf } from './probe-database.spec-helper';
import { listen } from '../testing/tcp-forwarder';

// The Postgres and MariaDB cases, against real servers, are in probe-database-postgres.e2e-spec.ts
// and probe-database-mariadb.e2e-spec.ts (database tier).

const TIMEOUT_MS = 300;

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = await listen(() => undefined);
  await server.close();
  return server.port;
}

describe('probeDatabase', () => {
  let silent: { port: number; close: () => Promise<void> };

  beforeAll(async () => {
    // Accepts the TCP connection, then never says a word.
    silent = await listen(() => undefined);
  });

  afterAll(() => silent.close());

  describe('a server that accepts TCP but never answers', () => {
    it.each<[TDatabaseSourceType, string, string]>([
      ['postgres', 'postgresql://u:p@127.0.0.1:{port}/db', 'PostgreSQL'],
      ['mysql', 'mysql://u:p@127.0.0.1:{port}/db', 'MySQL'],
      ['mongo', 'mongodb://u:p@127.0.0.1:{port}/db', 'MongoDB'],
    ])('%s gives up within timeoutMs', async (type, template, label) => {
      const started = Date.now();
      const error = await rejectionOf(
        probe(
          type,
          template.replace('{port}', String(silent.port)),
          { database: 'db', table: 't' },
          TIMEOUT_MS,
        ),
      );
      const elapsed = Date.now() - started;
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(
        `Could not connect to the ${label} server at 127.0.0.1:${silent.port}. Check the host, port, user name and password, and that the server accepts connections from this server.`,
      );
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 300);
    });
  });

  describe('MongoDB', () => {
    it('reports a closed port quickly, without the password', async () => {
      const port = await closedPort();
      const started = Date.now();
      const error = await rejectionOf(
        probe(
          'mongo',
          `mongodb://app:M0ngo-Secret@127.0.0.1:${port}/app`,
          { database: 'app', table: 'events' },
          TIMEOUT_MS,
        ),
      );
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 300);
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(
        `Could not connect to the MongoDB server at 127.0.0.1:${port}. Check the host, port, user name and password, and that the server accepts connections from this server.`,
      );
    });

    it('refuses an authentication mechanism that would use the gateway’s own identity', async () => {
      const error = await rejectionOf(
        probe('mongo', 'mongodb://127.0.0.1:27017/app?authMechanism=MONGODB-AWS', {
          database: 'app',
          table: 'events',
        }),
      );
      expect(error).toBeInstanceOf(InvalidDataSourceError);
    });
  });

  describe('SQLite', () => {
    it('reports nothing and touches no file', async () => {
      const spies = [
        jest.spyOn(fs, 'openSync'),
        jest.spyOn(fs, 'statSync'),
        jest.spyOn(fs, 'existsSync'),
        jest.spyOn(fs.promises, 'open'),
        jest.spyOn(fs.promises, 'stat'),
      ];
      const parsed = parseDatabaseUri('sqlite', 'sqlite:////no/such/dir/app.db');
      await expect(
        probeDatabase(
          parsed,
          { database: 'main', table: 'orders' },
          { timeoutMs: TIMEOUT_MS, addresses: [] },
        ),
      ).resolves.toEqual({ columns: null, approximateRows: null });
      spies.forEach((spy) => {
        expect(spy).not.toHaveBeenCalled();
        spy.mockRestore();
      });
    });
  });

  it('asks for the database and table names', async () => {
    const parsed = parseDatabaseUri('mysql', 'mysql://u:p@127.0.0.1/db');
    const options = {
      timeoutMs: TIMEOUT_MS,
      addresses: [{ host: '127.0.0.1', port: 3306, address: '127.0.0.1' }],
    };
    await expect(
      probeDatabase(parsed, { database: ' ', table: 'orders' }, options),
    ).rejects.toThrow(InvalidDataSourceError);
    await expect(probeDatabase(parsed, { database: 'db', table: '' }, options)).rejects.toThrow(
      InvalidDataSourceError,
    );
  });
});
