/** Each live check gets this long (the worker's own connections wait for ever, by design). */
export const CHECK_DEADLINE_MS = 2_000;

/** What the worker writes to its health file, and how the healthcheck judges it. */
export interface WorkerHealth {
  /** When the checks ran (ms since the epoch). */
  at: number;
  database: 'up' | 'down';
  redis: 'up' | 'down';
  /** The BullMQ consumer is running (not closed or crashed). */
  consuming: boolean;
}

/**
 * Healthy when the file is fresh (written within three intervals plus one check's deadline: a
 * stuck event loop stops writing it) and every check passed. A reason in plain words otherwise.
 */
export function judgeHealth(
  health: WorkerHealth | null,
  intervalMs: number,
  now = Date.now(),
): string | null {
  if (!health) return 'no health file yet';
  if (now - health.at > 3 * intervalMs + CHECK_DEADLINE_MS) {
    return `health file is ${Math.round((now - health.at) / 1000)} s old`;
  }
  if (health.database !== 'up') return 'Postgres does not answer';
  if (health.redis !== 'up') return 'Redis does not answer';
  if (!health.consuming) return 'the build consumer is not running';
  return null;
}
