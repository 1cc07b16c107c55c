import { freshDatabase } from '@agentloom/test-kit';
import { SYSTEM_DATABASE_URL } from './system-database';

/** A fresh, migrated database for the system tests. */
export default async function globalSetup(): Promise<void> {
  // LanceDB's native logs (the hosted indexes) read the real environment, which test workers inherit.
  process.env.LANCEDB_LOG ??= 'error';
  await freshDatabase(SYSTEM_DATABASE_URL);
}
