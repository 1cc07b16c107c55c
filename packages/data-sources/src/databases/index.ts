export {
  InvalidDataSourceError,
  RefusedDataSourceError,
  UnreachableDataSourceError,
  UnusableDataSourceError,
} from './errors';
export { parseDatabaseUri, redactSecret, splitDatabaseUri } from './database-uri';
export type { ParsedDatabaseUri } from './database-uri';
export { checkDataSourceTarget } from './network-guard';
export type { CheckedTarget, NetworkGuardOptions } from './network-guard';
export { listDatabaseTables, probeDatabase, readTableRows } from './probe-database';
export type { DatabaseProbeReport, ProbeOptions, ProbeTarget, RowBatch } from './probe-database';
export { MAX_LISTED_TABLES } from './probe-support';
export { readSqliteRows } from './sqlite-rows';
