import { clsx } from 'clsx';
import { type HTMLAttributes, type ReactNode } from 'react';

export type BadgeTone = 'green' | 'yellow' | 'red' | 'grey' | 'indigo' | 'blue';

const badgeTones: Record<BadgeTone, string> = {
  green:
    'bg-green-100 text-green-800 ring-green-600/20 dark:bg-green-950 dark:text-green-300 dark:ring-green-400/30',
  yellow:
    'bg-yellow-100 text-yellow-900 ring-yellow-600/30 dark:bg-yellow-950 dark:text-yellow-200 dark:ring-yellow-400/30',
  red: 'bg-red-100 text-red-800 ring-red-600/20 dark:bg-red-950 dark:text-red-300 dark:ring-red-400/30',
  grey: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-400/30',
  indigo:
    'bg-indigo-100 text-indigo-800 ring-indigo-600/20 dark:bg-indigo-950 dark:text-indigo-200 dark:ring-indigo-400/30',
  blue: 'bg-sky-100 text-sky-800 ring-sky-600/20 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-400/30',
};

export function Badge({
  tone = 'grey',
  className,
  ...rest
}: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return (
    <span
      className={clsx(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
        badgeTones[tone],
        className,
      )}
      {...rest}
    />
  );
}

const spinnerSizes = { sm: 'h-4 w-4 border-2', md: 'h-6 w-6 border-2', lg: 'h-10 w-10 border-4' };

/**
 * A spinning ring. With a label (default 'Loading…') it is a polite status for screen readers;
 * with `label={null}` it is decoration (for example inside a busy button).
 */
export function Spinner({
  size = 'md',
  label = 'Loading…',
  className,
}: {
  size?: keyof typeof spinnerSizes;
  label?: string | null;
  className?: string;
}) {
  const ring = (
    <span
      aria-hidden="true"
      className={clsx(
        'inline-block animate-spin rounded-full border-current border-r-transparent motion-reduce:animate-[spin_1.5s_linear_infinite]',
        spinnerSizes[size],
        className,
      )}
    />
  );
  if (label === null) return ring;
  return (
    <span role="status" className="inline-flex items-center gap-2">
      {ring}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** An inline, announced message (in place of a browser alert). */
export function Alert({
  tone = 'error',
  className,
  children,
}: {
  tone?: 'error' | 'info' | 'success';
  className?: string;
  children: ReactNode;
}) {
  const tones = {
    error:
      'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200',
    info: 'border-sky-200 bg-sky-50 text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100',
    success:
      'border-green-200 bg-green-50 text-green-900 dark:border-green-900 dark:bg-green-950 dark:text-green-100',
  };
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={clsx('rounded-lg border px-4 py-3 text-sm', tones[tone], className)}
    >
      {children}
    </div>
  );
}

/**
 * A 0–100 bar with its accessible name. `valueText` reads the value in words where a number
 * alone says little ("Step 3 of 9: …"); `fillClassName` gives the fill its colour and speed.
 */
export function ProgressBar({
  label,
  percent,
  valueText,
  className,
  fillClassName,
}: {
  label: string;
  percent: number;
  valueText?: string;
  className?: string;
  fillClassName?: string;
}) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
      className={clsx('overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800', className)}
    >
      <div
        className={clsx(
          'h-full rounded-full transition-[width] motion-reduce:transition-none',
          fillClassName,
        )}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
