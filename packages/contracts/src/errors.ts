import { z } from 'zod';

/** Every error the gateway answers has this body (ARCHITECTURE.md, "Errors are JSON"). */
export const ZErrorBody = z.object({ detail: z.string() });
export type TErrorBody = z.infer<typeof ZErrorBody>;

/** Success answers that carry only a human sentence. */
export const ZMessageResponse = z.object({ message: z.string() });
export type TMessageResponse = z.infer<typeof ZMessageResponse>;
