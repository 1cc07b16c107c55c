import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

/** The repository's root (this file runs from packages/test-kit/dist or src). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

const MIGRATIONS = path.join(REPO_ROOT, 'prisma', 'migrations');

/** A short fingerprint of every migration's SQL: a new or edited migration changes it. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(MIGRATIONS).sort()) {
    const file = path.join(MIGRATIONS, name, 'migration.sql');
    hash.update(name);
    try {
      hash.update(readFileSync(file));
    } catch {
      // migration_lock.toml and the like: the name is enough.
    }
  }
  return hash.digest('hex').slice(0, 10);
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Drops the database `url` names (with its connections) and creates it again, migrated: each
 * suite's test database (global setup), and any spec that wants a database of its own so it
 * never collides with the other suites. The migrations run once per set of migrations, through
 * the project's own `scripts/db-migrate.mjs` into a template database (`<name>_tpl_<fingerprint>`,
 * so the tests also prove they apply from zero); every run after copies the template, which takes
 * a fraction of a second instead of a migration's many.
 */
export async function freshDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const template = `${name}_tpl_${migrationsFingerprint()}`;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      template,
    ]);
    if (rowCount === 0) {
      // Templates of older migrations are of no more use.
      const stale = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname LIKE $1',
        [`${name.replace(/[\\_%]/g, '\\$&')}\\_tpl\\_%`],
      );
      for (const { datname } of stale.rows) {
        await client.query(`DROP DATABASE IF EXISTS ${quoted(datname)} WITH (FORCE)`);
      }
      // Migrated under another name first: a migration that fails half-way leaves no template.
      const making = `${template}_new`;
      await client.query(`DROP DATABASE IF EXISTS ${quoted(making)} WITH (FORCE)`);
      migrate(url, making);
      await client.query(`ALTER DATABASE ${quoted(making)} RENAME TO ${quoted(template)}`);
    }
    await client.query(`DROP DATABASE IF EXISTS ${quoted(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${quoted(name)} TEMPLATE ${quoted(template)}`);
  } finally {
    await client.end();
  }
}

/** Creates and migrates database `name` on the server of `url`, with the project's command. */
function migrate(url: string, name: string): void {
  const target = new URL(url);
  target.pathname = `/${encodeURIComponent(name)}`;
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts/db-migrate.mjs')], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: target.toString() },
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(`Migrating ${name} failed:\n${result.stdout}\n${result.stderr}`);
  }
}
