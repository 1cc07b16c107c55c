import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** A setting is missing or malformed; the message names it. The app prints it and exits 1. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Validates the environment against `schema`, naming the first bad setting. Any setting may
 * instead be read from a file named by `<SETTING>_FILE` (Docker Swarm and Kubernetes mount
 * secrets as files: `JWT_SECRET_FILE=/run/secrets/jwt_secret`); one trailing newline is dropped.
 */
export function parseEnvironment<T extends z.ZodType>(
  schema: T,
  source: NodeJS.ProcessEnv,
): z.infer<T> {
  const parsed = schema.safeParse(withSettingFiles(schema, source));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ConfigError(`Invalid setting ${issue.path.join('.')}: ${issue.message}`);
}

/** `source` with each `<SETTING>_FILE` of the schema's settings read into `<SETTING>`. */
function withSettingFiles(schema: z.ZodType, source: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!(schema instanceof z.ZodObject)) return source;
  const names = Object.keys(schema.shape);
  const resolved = { ...source };
  for (const name of names) {
    const fileSetting = `${name}_FILE`;
    const file = source[fileSetting];
    // A setting whose own name ends in _FILE (WORKER_HEALTH_FILE) is a setting, not a pointer.
    if (file === undefined || names.includes(fileSetting)) continue;
    if (source[name] !== undefined) {
      throw new ConfigError(`Set ${name} or ${fileSetting}, not both.`);
    }
    try {
      resolved[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new ConfigError(`Invalid setting ${fileSetting}: cannot read ${file} (${reason})`);
    }
  }
  return resolved;
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
