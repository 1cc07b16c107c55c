import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';

/**
 * A fresh test database for every run, migrated with the project's own command
 * (`scripts/db-migrate.mjs`), so the tests also prove the migrations apply from zero.
 */
export default async function globalSetup(): Promise<void> {
  const url = new URL(
    process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/agentloom_test',
  );
  const name = url.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();

  const root = path.resolve(__dirname, '../../../..');
  const result = spawnSync(process.execPath, [path.join(root, 'scripts/db-migrate.mjs')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url.toString() },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`Migrating the test database failed:\n${result.stdout}\n${result.stderr}`);
  }
}
