import { maskApiKey as maskWithDots } from '@agentloom/contracts';

/** Shown instead of a key that is missing (or too short to mask without giving it away). */
export const HIDDEN_KEY = '********';

/**
 * The display mask (docs/product.md#the-dashboard-api-keys): the first 8 characters, an ellipsis,
 * the last 4; `********` when there is no key, or one of 12 characters or fewer (the rule would
 * show it whole). The rule is the contracts' one the gateway applies; only the ellipsis glyph is
 * the app's.
 */
export function maskApiKey(key: string | null | undefined): string {
  return displayServerMask(maskWithDots(key));
}

/**
 * The gateway lists keys already masked, as `first8...last4` with three dots; shown with the
 * same single ellipsis character the app uses everywhere.
 */
export function displayServerMask(masked: string | null | undefined): string {
  if (!masked) return HIDDEN_KEY;
  return masked.replace('...', '…');
}

/** A key's creation date for display; 'Unknown' when it cannot be parsed. */
export function formatKeyDate(value: string | null | undefined, locale = 'en-US'): string {
  if (!value) return 'Unknown';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return 'Unknown';
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric' });
}
