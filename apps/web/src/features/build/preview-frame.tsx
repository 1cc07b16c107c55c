import { clsx } from 'clsx';
import { currentTheme } from '../../layout/theme';
import { previewFrameUrl } from './build-api';

/**
 * A built agent's live preview: the address the preview start call returned, opened in the app's
 * theme, full width and 80% of the viewport high (docs/product.md#limits-and-timings). Used by the
 * build screens and the dashboard's agent list, so both frames carry the same sandbox.
 */
export function PreviewFrame({
  url,
  title,
  className,
}: {
  url: string;
  title: string;
  className?: string;
}) {
  return (
    // Gradio and Streamlit need scripts, forms and their own origin's storage; the preview runs
    // on the gateway's origin, so same-origin here is that origin, never the app's. A click on
    // a failed answer's fix ("Update the key") may take the whole app to the agent's LLM step.
    <iframe
      title={title}
      src={previewFrameUrl(url, currentTheme())}
      className={clsx(
        'h-[80vh] w-full rounded-xl border border-slate-200 bg-white dark:border-slate-800',
        className,
      )}
      sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-downloads allow-top-navigation-by-user-activation"
    />
  );
}
