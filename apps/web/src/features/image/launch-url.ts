/**
 * docs/product.md#the-image-agent: the launched app's URL must start with http or https; anything
 * else is refused.
 */
export function isLaunchUrl(url: unknown): url is string {
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return false;
  try {
    new URL(url);
    return true;
  } catch {
    return false;
  }
}

export const INVALID_URL = 'Invalid URL received from server.';
/** The launch answered, but without an address to open. */
export const URL_NOT_AVAILABLE = 'Streamlit URL not available';

/** Why a launch answer's `url` cannot be opened, or null when it can. */
export function launchUrlProblem(url: unknown): string | null {
  if (url === undefined || url === null || url === '') return URL_NOT_AVAILABLE;
  return isLaunchUrl(url) ? null : INVALID_URL;
}
export const LAUNCH_FAILED = 'Could not start the Streamlit service. Check server logs.';
/** The preview frame appears half a second after Preview Agent. */
export const PREVIEW_DELAY_MS = 500;
/**
 * A frame never reports a page that failed to load (no `error` event), so one whose `load` event
 * has not come by then is treated as failed. Generous: the app is already running when it is shown.
 */
export const PREVIEW_LOAD_TIMEOUT_MS = 15_000;
