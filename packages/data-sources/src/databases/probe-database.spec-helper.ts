// Shared by the probe-database and list-tables specs: the test database, the wizard's probe path.
import type { TDatabaseSourceType } from '@agentloom/contracts';
import { parseDatabaseUri } from './database-uri';
import { checkDataSourceTarget } from './network-guard';
import { DatabaseProbeReport, probeDatabase, ProbeTarget } from './probe-database';

/** The database each spec creates on its server (Postgres or MariaDB) and drops afterwards. */
export const DATABASE = 'agentloom_probe_test';

/** The platform as the tests run it: its Postgres and Redis are on this machine. */
export const PLATFORM = [
  { host: '127.0.0.1', port: 5432 },
  { host: '127.0.0.1', port: 6379 },
];

/** What the wizard's service does: parse, guard, probe. */
export async function probe(
  type: TDatabaseSourceType,
  uri: string,
  target: ProbeTarget,
  timeoutMs = 5000,
): Promise<DatabaseProbeReport> {
  const parsed = parseDatabaseUri(type, uri);
  const addresses = await checkDataSourceTarget(parsed, {
    strict: false,
    platformEndpoints: PLATFORM,
  });
  return probeDatabase(parsed, target, { timeoutMs, addresses });
}

export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}
