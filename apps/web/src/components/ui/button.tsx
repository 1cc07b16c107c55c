import { clsx } from 'clsx';
import { type ButtonHTMLAttributes, type ComponentType, type Ref, type SVGProps } from 'react';
import { Spinner } from './feedback';

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

export const focusRing =
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
  /** Shows a spinner and disables the button (a busy flag, docs/product.md#the-wizards). */
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

/**
 * A small button that shows only an icon. `label` is its accessible name, so it says what the
 * button does and to what ("Delete Acme key"); a `title` can add a shorter tooltip.
 */
export function IconButton({
  icon: Icon,
  label,
  iconClassName,
  variant = 'ghost',
  ...rest
}: Omit<ButtonProps, 'children' | 'size' | 'aria-label'> & {
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  label: string;
  iconClassName?: string;
}) {
  return (
    <Button variant={variant} size="sm" aria-label={label} {...rest}>
      <Icon aria-hidden="true" className={clsx('h-4 w-4', iconClassName)} />
    </Button>
  );
}

/** A form's closing row, on the right: Cancel (held while the form saves) and its submit button. */
export function CancelAndSubmit({
  submitLabel,
  busy,
  onCancel,
  className,
}: {
  submitLabel: string;
  busy: boolean;
  onCancel: () => void;
  className?: string;
}) {
  return (
    <div className={clsx('flex flex-wrap justify-end gap-2', className)}>
      <Button variant="outline" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" loading={busy}>
        {submitLabel}
      </Button>
    </div>
  );
}
