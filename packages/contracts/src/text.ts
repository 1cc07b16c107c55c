import { z } from 'zod';

export const NUL_REFUSED = 'must not contain NUL characters.';

/**
 * Every text a client sends: Postgres cannot store a NUL character (it would fail the write
 * with a server error), and no name, prompt or question needs one.
 */
export const zText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine((text) => !text.includes('\0'), { error: NUL_REFUSED });

/**
 * A file or server name from an agent's name: ASCII letters, digits and dashes, lower case —
 * "Rose bakery helper" saves as rose-bakery-helper-build-2.zip, not as an id nobody recognises.
 */
export function agentSlug(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase()
      .slice(0, 60) || 'agent'
  );
}
