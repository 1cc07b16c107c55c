import { z } from 'zod';

export const NUL_REFUSED = 'must not contain NUL characters.';

/**
 * Every text a client sends: Postgres cannot store a NUL character (it would fail the write
 * with a server error), and no name, prompt or question needs one.
 */
export const zText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((text) => !text.includes('\0'), { error: NUL_REFUSED });
