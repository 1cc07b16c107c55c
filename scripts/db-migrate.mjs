#!/usr/bin/env node
// Creates the database when it does not exist yet, then applies pending Prisma migrations
// (`prisma migrate deploy`). Used by `npm run db:migrate`, `npm start` and the test setup.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (existsSync(path.join(root, '.env'))) process.loadEnvFile(path.join(root, '.env'));
// DATABASE_URL_FILE names a file holding it instead (a Swarm or Kubernetes secret), as the apps
// read every setting (packages/server-kit, parseEnvironment).
const databaseUrl =
  process.env.DATABASE_URL ??
  (process.env.DATABASE_URL_FILE
    ? readFileSync(process.env.DATABASE_URL_FILE, 'utf8').replace(/\r?\n$/, '')
    : 'postgresql://postgres@127.0.0.1:5432/agentloom');

export async function ensureDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database.');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({
    connectionString: admin.toString(),
    connectionTimeoutMillis: 5000,
  });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Cannot reach Postgres at ${target.host}: ${error.message}`);
  }
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      console.log(`Created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

export function migrate(url) {
  const prisma = path.join(root, 'node_modules', '.bin', 'prisma');
  const result = spawnSync(prisma, ['migrate', 'deploy'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  });
  if (result.status !== 0) throw new Error('prisma migrate deploy failed');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await ensureDatabase(databaseUrl);
    migrate(databaseUrl);
  } catch (error) {
    console.error(`Database migration failed: ${error.message}`);
    process.exit(1);
  }
}
