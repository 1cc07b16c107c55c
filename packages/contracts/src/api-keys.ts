import { z } from 'zod';
import { zText } from './text';
import { LLM_PROVIDERS, ZLlmProvider } from './enums';

export const ZApiKey = z.object({
  id: z.uuid(),
  provider: ZLlmProvider,
  name: zText().nullable(),
  /** Masked: first 8 characters, `...`, last 4. The secret is fetched separately. */
  key: zText(),
  created_at: z.iso.datetime(),
});
export type TApiKey = z.infer<typeof ZApiKey>;

export const ZApiKeyList = z.array(ZApiKey);

export const API_KEY_MIN_LENGTH = 16;

export const ZCreateApiKeyRequest = z.object({
  provider: zText({ error: 'Provider is required.' })
    .trim()
    .toLowerCase()
    .pipe(
      z.enum(LLM_PROVIDERS, {
        error: `Provider must be one of: ${LLM_PROVIDERS.join(', ')}.`,
      }),
    ),
  key: zText({ error: 'Key is required.' })
    .trim()
    .min(API_KEY_MIN_LENGTH, { error: `Key must be at least ${API_KEY_MIN_LENGTH} characters.` })
    .max(512, { error: 'Key must be at most 512 characters.' })
    .regex(/^\S+$/, { error: 'Key must not contain spaces.' }),
  name: zText()
    .trim()
    .max(100, { error: 'Name must be at most 100 characters.' })
    .transform((value) => (value === '' ? null : value))
    .nullish(),
});
export type TCreateApiKeyRequest = z.infer<typeof ZCreateApiKeyRequest>;

/**
 * GET /apikeys/{id}/usage: the agents set up with a vault key, so deleting it can name them and
 * say what happens to each (published agents serve on until their next load, then stop).
 */
export const ZApiKeyUsage = z.object({
  agents: z.array(
    z.object({
      id: z.uuid(),
      name: zText(),
      status: z.string(),
      published: z.boolean(),
    }),
  ),
});
export type TApiKeyUsage = z.infer<typeof ZApiKeyUsage>;

export const ZApiKeySecret = z.object({ key: zText() });
export type TApiKeySecret = z.infer<typeof ZApiKeySecret>;

/**
 * The display mask (docs/product.md#the-dashboard-api-keys): first 8 characters, an ellipsis, the
 * last 4; `********` if none.
 */
export function maskApiKey(key: string | null | undefined): string {
  if (!key) return '********';
  if (key.length <= 12) return '********';
  return `${key.slice(0, 8)}...${key.slice(-4)}`;
}
