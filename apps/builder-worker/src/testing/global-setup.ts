import { freshDatabase } from '@agentloom/test-kit';

/** A fresh, migrated database for the worker's tests (its own name: suites never collide). */
export default async function globalSetup(): Promise<void> {
  // LanceDB's native logs (the hosted indexes) read the real environment, which test workers inherit.
  process.env.LANCEDB_LOG ??= 'error';
  await freshDatabase(
    process.env.WORKER_TEST_DATABASE_URL ??
      'postgresql://postgres@127.0.0.1:5432/agentloom_worker_test',
  );
}
