import { existsSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';

/** A setting is missing or malformed; the message names it. The app prints it and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates the environment against `schema`, naming the first bad setting. */
export function parseEnvironment<T extends z.ZodType>(
  schema: T,
  source: NodeJS.ProcessEnv,
): z.infer<T> {
  const parsed = schema.safeParse(source);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ConfigError(`Invalid setting ${issue.path.join('.')}: ${issue.message}`);
}

/** The checkout's root (where turbo.json is), or null when running outside one (containers). */
export function findRepoRoot(from = process.cwd()): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'turbo.json'))) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}

/** `.data/` at the repository root, so the gateway and the worker share one folder. */
export function defaultDataDir(): string {
  return path.join(findRepoRoot() ?? process.cwd(), '.data');
}

/**
 * Loads `.env` from the repository root when there is one. Variables already set in the
 * environment win, so a deployment's settings are never overridden by a stray file.
 */
export function loadDotEnv(): void {
  const root = findRepoRoot();
  const file = root && path.join(root, '.env');
  if (file && existsSync(file)) process.loadEnvFile(file);
}
