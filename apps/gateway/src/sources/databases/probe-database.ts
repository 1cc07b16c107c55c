import { ParsedDatabaseUri } from './database-uri';
import { InvalidDataSourceError } from './errors';
import { probeMongo } from './probe-mongo';
import { probeMysql } from './probe-mysql';
import { probePostgres } from './probe-postgres';
import { DatabaseProbeReport, ProbeOptions, ProbeTarget } from './probe-support';

export type { DatabaseProbeReport, ProbeOptions, ProbeTarget } from './probe-support';

/**
 * Connects to the first checked address (IPv4 first), confirms the table or collection exists and
 * reports its columns and approximate row count. Call checkDataSourceTarget first and pass its
 * result as `addresses`: the probe never resolves a name itself.
 */
export async function probeDatabase(
  parsed: ParsedDatabaseUri,
  target: ProbeTarget,
  options: ProbeOptions,
): Promise<DatabaseProbeReport> {
  if (parsed.type === 'sqlite') {
    // The path names a file where the generated agent runs, not on the gateway: nothing to open.
    return { columns: null, approximateRows: null };
  }
  const checked = checkTarget(target);
  const endpoint = options.addresses[0];
  if (!endpoint) {
    throw new Error('probeDatabase needs the addresses returned by checkDataSourceTarget.');
  }
  switch (parsed.type) {
    case 'postgres':
      return probePostgres(parsed, checked, options, endpoint);
    case 'mysql':
      return probeMysql(parsed, checked, options, endpoint);
    case 'mongo':
      return probeMongo(parsed, checked, options, endpoint);
  }
}

function checkTarget(target: ProbeTarget): ProbeTarget {
  const database = target.database.trim();
  const table = target.table.trim();
  if (!database) {
    throw new InvalidDataSourceError('Enter the name of the database.');
  }
  if (!table) {
    throw new InvalidDataSourceError('Enter the name of the table or collection.');
  }
  return { database, table };
}
