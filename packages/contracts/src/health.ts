import { z } from 'zod';

export const ZDependencyState = z.enum(['up', 'down']);

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  database: ZDependencyState,
  redis: ZDependencyState,
});
export type THealth = z.infer<typeof ZHealth>;
