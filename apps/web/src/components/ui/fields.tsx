import { clsx } from 'clsx';
import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import { focusRing } from './button';

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

/**
 * Splits a field's props: the chrome goes to FieldWrapper, the rest to the control, which also
 * gets its id (given, or generated) and the ARIA links to the hint and error under it.
 */
function useLabelledControl<P extends FieldChrome & { id?: string; required?: boolean }>(props: P) {
  const { label, hint, error, wrapperClassName, id, ...rest } = props;
  const autoId = useId();
  const controlId = id ?? autoId;
  const described = [hint ? `${controlId}-hint` : null, error ? `${controlId}-error` : null];
  return {
    wrapper: { id: controlId, label, hint, error, wrapperClassName, required: rest.required },
    control: {
      id: controlId,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': described.filter(Boolean).join(' ') || undefined,
    },
    rest,
  };
}

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & FieldChrome;

/** A labelled <input>. */
export function TextField({ className, ...props }: TextFieldProps) {
  const { wrapper, control, rest } = useLabelledControl(props);
  return (
    <FieldWrapper {...wrapper}>
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
export function TextArea({ className, ...props }: TextAreaProps) {
  const { wrapper, control, rest } = useLabelledControl(props);
  return (
    <FieldWrapper {...wrapper}>
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
export function Select({ className, options, placeholder, ...props }: SelectProps) {
  const { wrapper, control, rest } = useLabelledControl(props);
  return (
    <FieldWrapper {...wrapper}>
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
