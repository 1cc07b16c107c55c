import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { MigrationAdapterFactory } from './prisma/migration-adapter';

// prisma.config.ts switches off Prisma's own .env loading, so load it here when present.
const envFile = path.join(__dirname, '.env');
if (existsSync(envFile)) process.loadEnvFile(envFile);

// Without a resolvable DATABASE_URL the CLI falls back to the Rust engine and tries to download it.
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/agentloom';
const databaseUrl = process.env.DATABASE_URL;

export default defineConfig({
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  engine: 'js',
  experimental: { adapter: true },
  adapter: () => Promise.resolve(new MigrationAdapterFactory(databaseUrl)),
});
