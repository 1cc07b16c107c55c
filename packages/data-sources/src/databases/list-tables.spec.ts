import type { TDatabaseSourceType } from '@agentloom/contracts';
import { parseDatabaseUri } from './database-uri';
import { InvalidDataSourceError, UnreachableDataSourceError } from './errors';
import { checkDataSourceTarget } from './network-guard';
import { listDatabaseTables } from './probe-database';
import { rejectionOf } from './probe-database.spec-helper';
import { listen, TestTcpServer } from '../testing/tcp-forwarder';

const TIMEOUT_MS = 300;

/** What the service does: parse, guard, list (the real servers are in source-tables.e2e-spec). */
async function list(type: TDatabaseSourceType, uri: string, database: string): Promise<string[]> {
  const parsed = parseDatabaseUri(type, uri);
  const addresses = await checkDataSourceTarget(parsed, { strict: false, platformEndpoints: [] });
  return listDatabaseTables(parsed, database, { timeoutMs: TIMEOUT_MS, addresses });
}

describe('listDatabaseTables', () => {
  let silent: TestTcpServer;
  beforeAll(async () => {
    silent = await listen(() => undefined);
  });
  afterAll(() => silent.close());

  // The listing shares the probe's deadline and wording: a server that never answers does not
  // hold the request, and says nothing about what listens there.
  it.each<[TDatabaseSourceType, string, string]>([
    ['postgres', 'postgresql://u:Secret-1@127.0.0.1:{port}/db', 'PostgreSQL'],
    ['mysql', 'mysql://u:Secret-1@127.0.0.1:{port}/db', 'MySQL'],
    ['mongo', 'mongodb://u:Secret-1@127.0.0.1:{port}/db', 'MongoDB'],
  ])(
    '%s: a silent server gives up within the timeout, in the probe’s words',
    async (type, template, label) => {
      const error = await rejectionOf(
        list(type, template.replace('{port}', String(silent.port)), 'db'),
      );
      expect(error).toBeInstanceOf(UnreachableDataSourceError);
      expect(error.message).toBe(
        `Could not connect to the ${label} server at 127.0.0.1:${silent.port}. Check the host, port, user name and password, and that the server accepts connections from this server.`,
      );
    },
  );

  it('asks for the database name before connecting', async () => {
    const error = await rejectionOf(list('mysql', `mysql://u:p@127.0.0.1:${silent.port}/db`, ' '));
    expect(error).toBeInstanceOf(InvalidDataSourceError);
    expect(error.message).toBe('Enter the name of the database.');
  });

  it('does not open a SQLite file: it lives where the agent runs', async () => {
    const error = await rejectionOf(list('sqlite', 'sqlite:///data/shop.db', 'main'));
    expect(error).toBeInstanceOf(UnreachableDataSourceError);
  });
});
