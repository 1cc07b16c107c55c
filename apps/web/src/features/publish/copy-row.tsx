import { CopyButton } from '../../components/ui';

/** A value to copy as it is (an address, a snippet): shown whole, with its copy button. */
export function CopyRow({ text, label, what }: { text: string; label: string; what: string }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code className="min-w-0 flex-1 rounded bg-slate-100 p-2 break-all dark:bg-slate-800">
        {text}
      </code>
      <CopyButton text={text} label={label} what={what} />
    </div>
  );
}
