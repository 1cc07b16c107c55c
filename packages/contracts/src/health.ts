import { z } from 'zod';

/** up: answered quickly; slow: answered, but past the slow threshold; down: no answer in time. */
export const ZDependencyState = z.enum(['up', 'slow', 'down']);
export type TDependencyState = z.infer<typeof ZDependencyState>;

export const ZHealth = z.object({
  /** ok: everything up; degraded: something slow or down (503 when anything is down). */
  status: z.enum(['ok', 'degraded']),
  database: ZDependencyState,
  redis: ZDependencyState,
});
export type THealth = z.infer<typeof ZHealth>;
