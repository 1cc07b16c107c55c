import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { notify } from '../../lib/notify';
import { Button } from './button';

/**
 * Copies a text (an address, a snippet, a key) and says so on the button for two seconds; when
 * the browser refuses the clipboard, it says to select the text instead.
 */
export function CopyButton({
  text,
  label,
  what,
}: {
  text: string;
  /** The button's accessible name, such as "Copy share link". */
  label: string;
  /** What was copied, for the toast: "Share link". */
  what: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      size="sm"
      variant="outline"
      aria-label={label}
      onClick={() =>
        void navigator.clipboard.writeText(text).then(
          () => {
            setCopied(true);
            notify.success(`${what} copied`);
          },
          () => notify.error('Copy failed', 'Select the text and copy it.'),
        )
      }
    >
      {copied ? (
        <Check aria-hidden="true" className="h-4 w-4" />
      ) : (
        <Copy aria-hidden="true" className="h-4 w-4" />
      )}
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}
