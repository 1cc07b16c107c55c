import { z } from 'zod';

/** up: answered quickly; slow: answered, but past the slow threshold; down: no answer in time. */
export const ZDependencyState = z.enum(['up', 'slow', 'down']);
export type TDependencyState = z.infer<typeof ZDependencyState>;

export const ZHealth = z.object({
  /** ok: everything up; degraded: something slow or down (503 when the database or Redis is down). */
  status: z.enum(['ok', 'degraded']),
  database: ZDependencyState,
  redis: ZDependencyState,
  /**
   * Whether the last e-mail (a password reset) reached the SMTP server: `down` tells the operator
   * that reset links go nowhere (the log says why). Not needed to serve, so never a 503.
   */
  mail: z.enum(['up', 'down', 'unknown']),
});
export type THealth = z.infer<typeof ZHealth>;
