import { ExternalLink } from 'lucide-react';
import { useState } from 'react';
import { buttonClasses, TextField } from '../../components/ui';

/** What the embed script looks for in a page's address to show the owner's note (widget.js). */
export const OWNER_CHECK_HASH = 'agentloom-check';

/**
 * The page's address with the owner's check flag: the widget there shows a note only this link
 * brings up — the chat works, or which site to allow. Visitors, without the flag, see nothing
 * when the site is not allowed.
 */
export function ownerCheckUrl(page: string): string | null {
  const value = page.trim();
  if (!value) return null;
  try {
    const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = OWNER_CHECK_HASH;
    return url.toString();
  } catch {
    return null;
  }
}

/** A test page on this computer or network (localhost, 127.0.0.1, *.local) is most often http. */
const LOCAL_HOST =
  /^https:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\]|[^/]+\.(local|localhost|test))(:\d+)?$/;

/**
 * The page offered for the test: the first allowed site, but its http:// twin for a local host (a
 * plain `localhost:8080` allows both, and that test page is rarely https).
 */
export function defaultTestPage(allowed: readonly string[]): string {
  const first = allowed[0];
  if (!first) return '';
  const twin = first.replace(/^https:/, 'http:');
  return `${LOCAL_HOST.test(first) && allowed.includes(twin) ? twin : first}/`;
}

/**
 * "Test it on my site": the owner names a page that has the snippet, and opens it with the check
 * flag. An allowed site is offered, as typed (http:// stays http://).
 */
export function WidgetTest({ allowed }: { allowed: readonly string[] }) {
  const [page, setPage] = useState(() => defaultTestPage(allowed));
  const href = ownerCheckUrl(page);
  return (
    <div className="space-y-2">
      <h5 className="font-semibold text-slate-900 dark:text-white">Test it on my site</h5>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <TextField
          className="min-w-0"
          label="Page with the snippet"
          value={page}
          onChange={(event) => setPage(event.target.value)}
        />
        {href ? (
          <a
            href={href}
            target="_blank"
            rel="noreferrer"
            className={buttonClasses('outline', 'md', 'gap-2')}
          >
            Test it on my site
            <ExternalLink aria-hidden="true" className="h-4 w-4" />
          </a>
        ) : (
          <span className={buttonClasses('outline', 'md', 'pointer-events-none opacity-50')}>
            Test it on my site
          </span>
        )}
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        Opens your page with a note only you see: that the chat works there, or which site to add
        here. Visitors of a site that is not allowed see nothing. No note at all? The snippet is not
        on that page yet.
      </p>
    </div>
  );
}
