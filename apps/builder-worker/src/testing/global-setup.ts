import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';

/** A fresh, migrated database for the worker's tests (its own name: suites never collide). */
export default async function globalSetup(): Promise<void> {
  const url = new URL(
    process.env.WORKER_TEST_DATABASE_URL ??
      'postgresql://postgres@127.0.0.1:5432/agentloom_worker_test',
  );
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${url.pathname.slice(1)}" WITH (FORCE)`);
  await client.end();
  const root = path.resolve(__dirname, '../../../..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/db-migrate.mjs')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url.toString() },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(
      `Migrating the worker test database failed:\n${result.stdout}\n${result.stderr}`,
    );
  }
}
