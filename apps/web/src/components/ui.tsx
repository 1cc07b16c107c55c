import { clsx } from 'clsx';
import {
  useId,
  type ButtonHTMLAttributes,
  type HTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

/*
 * Shared UI primitives. Every colour pair here is chosen for WCAG AA contrast in both the light
 * and the dark theme; every control shows a visible focus ring for keyboard users.
 */

export type ButtonVariant =
  | 'primary'
  | 'secondary'
  | 'outline'
  | 'ghost'
  | 'danger'
  /** A quiet destructive action, e.g. a row's delete icon. */
  | 'dangerGhost'
  /** For use on a dark or coloured background (the landing page banner). */
  | 'inverse'
  | 'outlineInverse';
export type ButtonSize = 'sm' | 'md' | 'lg';

const focusRing =
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 focus-visible:ring-offset-white dark:focus-visible:ring-indigo-400 dark:focus-visible:ring-offset-slate-950';

const variantClasses: Record<ButtonVariant, string> = {
  primary:
    'bg-indigo-600 text-white shadow-sm hover:bg-indigo-700 dark:bg-indigo-600 dark:hover:bg-indigo-500 dark:text-white',
  secondary:
    'bg-slate-100 text-slate-900 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700',
  outline:
    'border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
  ghost:
    'text-slate-700 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-200 dark:hover:bg-slate-800 dark:hover:text-white',
  inverse: 'bg-white text-indigo-800 shadow-sm hover:bg-indigo-50',
  outlineInverse: 'border border-white/80 text-white hover:bg-white/10',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700 dark:bg-red-600 dark:hover:bg-red-500',
  dangerGhost:
    'text-red-700 hover:bg-red-50 hover:text-red-800 dark:text-red-400 dark:hover:bg-red-950 dark:hover:text-red-300',
};

const sizeClasses: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-sm gap-1.5',
  md: 'h-10 px-4 text-sm gap-2',
  lg: 'h-12 px-6 text-base gap-2',
};

/** The classes of a Button, for links (`<Link className={buttonClasses()}>`) that look like one. */
export function buttonClasses(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  className?: string,
): string {
  return clsx(
    'inline-flex items-center justify-center rounded-lg font-medium whitespace-nowrap transition-colors disabled:pointer-events-none disabled:opacity-50',
    focusRing,
    variantClasses[variant],
    sizeClasses[size],
    className,
  );
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  /** React 19 passes refs as props: screens move focus to a button after a state change. */
  ref?: Ref<HTMLButtonElement>;
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner and disables the button (a busy flag, SPEC §4). */
  loading?: boolean;
};

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  className,
  disabled,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses(variant, size, className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading && <Spinner size="sm" label={null} />}
      {children}
    </button>
  );
}

export type CardProps = HTMLAttributes<HTMLElement> & {
  /** Renders the card as a <section>/<article> when it stands for one. */
  as?: 'div' | 'section' | 'article';
};

export function Card({ as: Tag = 'div', className, ...rest }: CardProps) {
  return (
    <Tag
      className={clsx(
        'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900',
        className,
      )}
      {...rest}
    />
  );
}

const controlClasses = clsx(
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 placeholder:text-slate-500',
  'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-600',
  'dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-400 dark:disabled:bg-slate-800 dark:disabled:text-slate-300',
  'aria-[invalid=true]:border-red-600 dark:aria-[invalid=true]:border-red-400',
  focusRing,
  'focus-visible:ring-offset-0',
);

type FieldChrome = {
  label: ReactNode;
  /** Help text under the control, linked with aria-describedby. */
  hint?: ReactNode;
  /** Error text under the control; marks it aria-invalid. */
  error?: ReactNode;
  /** Classes of the wrapper (the control keeps its own via className). */
  wrapperClassName?: string;
};

function FieldWrapper({
  id,
  label,
  hint,
  error,
  wrapperClassName,
  required,
  children,
}: FieldChrome & { id: string; required?: boolean; children: ReactNode }) {
  return (
    <div className={clsx('space-y-1.5', wrapperClassName)}>
      {/* The asterisk sits outside the <label> so the control's name stays the label text. */}
      <div className="flex items-baseline gap-0.5">
        <label
          htmlFor={id}
          className="block text-sm font-medium text-slate-800 dark:text-slate-200"
        >
          {label}
        </label>
        {required && (
          <span aria-hidden="true" className="text-sm text-red-600 dark:text-red-400">
            *
          </span>
        )}
      </div>
      {children}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

/** The control's id (given, or generated) and the ARIA links to the hint and error under it. */
function useFieldControl(id: string | undefined, hint: unknown, error: unknown) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const described = [hint ? `${controlId}-hint` : null, error ? `${controlId}-error` : null];
  return {
    id: controlId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described.filter(Boolean).join(' ') || undefined,
  };
}

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & FieldChrome;

/** A labelled <input>. */
export function TextField({
  label,
  hint,
  error,
  wrapperClassName,
  id,
  className,
  ...rest
}: TextFieldProps) {
  const control = useFieldControl(id, hint, error);
  return (
    <FieldWrapper
      id={control.id}
      label={label}
      hint={hint}
      error={error}
      wrapperClassName={wrapperClassName}
      required={rest.required}
    >
      <input
        {...control}
        className={clsx(
          controlClasses,
          rest.type === 'file' &&
            'file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1 file:text-sm file:font-medium file:text-indigo-800 dark:file:bg-indigo-950 dark:file:text-indigo-200',
          className,
        )}
        {...rest}
      />
    </FieldWrapper>
  );
}

export type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & FieldChrome;

/** A labelled <textarea>. */
export function TextArea({
  label,
  hint,
  error,
  wrapperClassName,
  id,
  className,
  ...rest
}: TextAreaProps) {
  const control = useFieldControl(id, hint, error);
  return (
    <FieldWrapper
      id={control.id}
      label={label}
      hint={hint}
      error={error}
      wrapperClassName={wrapperClassName}
      required={rest.required}
    >
      <textarea {...control} className={clsx(controlClasses, className)} {...rest} />
    </FieldWrapper>
  );
}

export type SelectOption = { value: string; label: string; disabled?: boolean };

export type SelectProps = SelectHTMLAttributes<HTMLSelectElement> &
  FieldChrome & {
    options: readonly SelectOption[];
    /** A first, empty option ("Select a provider") shown while nothing is chosen. */
    placeholder?: string;
  };

/** A labelled native <select>. */
export function Select({
  label,
  hint,
  error,
  wrapperClassName,
  id,
  className,
  options,
  placeholder,
  ...rest
}: SelectProps) {
  const control = useFieldControl(id, hint, error);
  return (
    <FieldWrapper
      id={control.id}
      label={label}
      hint={hint}
      error={error}
      wrapperClassName={wrapperClassName}
      required={rest.required}
    >
      <select {...control} className={clsx(controlClasses, 'pr-8', className)} {...rest}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldWrapper>
  );
}

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

/** The centred, padded column every screen sits in. */
export function PageContainer({
  className,
  size = 'lg',
  ...rest
}: HTMLAttributes<HTMLDivElement> & { size?: 'sm' | 'md' | 'lg' | 'xl' }) {
  const width = { sm: 'max-w-md', md: 'max-w-3xl', lg: 'max-w-6xl', xl: 'max-w-7xl' }[size];
  return (
    <div
      className={clsx('mx-auto w-full px-4 py-10 sm:px-6 lg:px-8 lg:py-14', width, className)}
      {...rest}
    />
  );
}

/** A page's main heading with an optional lead paragraph. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white">
          {title}
        </h1>
        {description && (
          <p className="mt-2 max-w-2xl text-base text-slate-600 dark:text-slate-300">
            {description}
          </p>
        )}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** An inline, announced message (used where the spec shows a browser alert). */
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
