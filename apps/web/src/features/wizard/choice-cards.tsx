import { clsx } from 'clsx';
import { Check } from 'lucide-react';
import type { ReactNode } from 'react';

/** The options of a choice step (source type, vector store, framework). */
export type Choice<T extends string> = {
  value: T;
  label: string;
  description?: string;
  icon?: ReactNode;
  disabled?: boolean;
  note?: string;
};

/** Large toggle buttons; the chosen one is marked (aria-pressed) and ticked. */
export function ChoiceCards<T extends string>({
  label,
  choices,
  selected,
  busy,
  onChoose,
  columns = 'sm:grid-cols-2 lg:grid-cols-4',
}: {
  label: string;
  choices: readonly Choice<T>[];
  selected: T | '';
  busy: boolean;
  onChoose: (value: T) => void;
  columns?: string;
}) {
  return (
    <div role="group" aria-label={label} className={clsx('grid grid-cols-2 gap-3', columns)}>
      {choices.map((choice) => {
        const active = choice.value === selected;
        return (
          <button
            key={choice.value}
            type="button"
            aria-pressed={active}
            disabled={busy || choice.disabled}
            onClick={() => onChoose(choice.value)}
            className={clsx(
              'relative flex min-h-24 flex-col items-start gap-2 rounded-xl border-2 p-4 text-left transition-colors',
              'focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:outline-none dark:focus-visible:ring-indigo-400 dark:focus-visible:ring-offset-slate-900',
              'disabled:cursor-not-allowed disabled:opacity-60',
              active
                ? 'border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950'
                : 'border-slate-200 bg-white hover:border-indigo-300 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:border-indigo-500 dark:hover:bg-slate-800',
            )}
          >
            {choice.icon && (
              <span aria-hidden="true" className="text-indigo-700 dark:text-indigo-300">
                {choice.icon}
              </span>
            )}
            <span className="font-semibold text-slate-900 dark:text-white">{choice.label}</span>
            {choice.description && (
              <span className="text-xs text-slate-600 dark:text-slate-300">
                {choice.description}
              </span>
            )}
            {choice.note && (
              <span className="text-xs font-medium text-amber-800 dark:text-amber-300">
                {choice.note}
              </span>
            )}
            {/* On the card's corner, outside the text: inside it, at 375 px, it covered "ChromaDB". */}
            {active && (
              <span
                aria-hidden="true"
                className="absolute -top-2.5 -right-2.5 grid h-6 w-6 place-items-center rounded-full bg-indigo-600 text-white ring-2 ring-white dark:bg-indigo-400 dark:text-slate-950 dark:ring-slate-900"
              >
                <Check className="h-4 w-4" strokeWidth={3} />
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
