import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';

/** The repository's root (this file runs from packages/test-kit/dist). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

/**
 * Drops the database `url` names (with its connections) and creates it again through the
 * project's own `scripts/db-migrate.mjs`, so the tests also prove the migrations apply from zero:
 * each suite's test database (global setup), and any spec that wants a database of its own so it
 * never collides with the other suites.
 */
export async function freshDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const name = decodeURIComponent(target.pathname.slice(1)).replaceAll('"', '""');
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/db-migrate.mjs')], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: url },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`Migrating ${target.pathname} failed:\n${result.stdout}\n${result.stderr}`);
  }
}
