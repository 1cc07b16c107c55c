/** SPEC §5: the launched app's URL must start with http or https; anything else is refused. */
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
export const LAUNCH_FAILED = 'Could not start the Streamlit service. Check server logs.';
/** SPEC §9: the preview frame appears half a second after Preview Agent. */
export const PREVIEW_DELAY_MS = 500;
