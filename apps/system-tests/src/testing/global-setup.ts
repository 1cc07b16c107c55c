import { freshDatabase } from '@agentloom/test-kit';
import { SYSTEM_DATABASE_URL } from './system-database';

/** A fresh, migrated database for the system tests. */
export default async function globalSetup(): Promise<void> {
  await freshDatabase(SYSTEM_DATABASE_URL);
}
