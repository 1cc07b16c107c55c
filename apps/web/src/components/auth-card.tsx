import { PASSWORD_MIN_LENGTH } from '@agentloom/contracts';
import { ArrowLeft } from 'lucide-react';
import type { ChangeEventHandler, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses, Card, TextField, type TextFieldProps } from './ui';

/** The centred card the login, signup and password screens share. */
export function AuthCard({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="flex min-h-[calc(100vh-4rem)] items-center justify-center bg-gradient-to-b from-indigo-50 to-white px-4 py-12 dark:from-slate-900 dark:to-slate-950">
      <Card className="w-full max-w-md p-8">
        <div className="mb-6 space-y-2 text-center">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 dark:text-white">
            {title}
          </h1>
          {description && (
            <p className="text-sm text-slate-600 dark:text-slate-300">{description}</p>
          )}
        </div>
        {children}
        {footer && (
          <div className="mt-6 space-y-2 text-center text-sm text-slate-600 dark:text-slate-300">
            {footer}
          </div>
        )}
      </Card>
    </div>
  );
}

export const inlineLinkClasses =
  'font-medium text-indigo-700 underline-offset-4 hover:underline rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-indigo-300';

/** "Already have an account? Log in" and the way back home, under the login and signup forms. */
export function AuthSwitchFooter({
  question,
  to,
  label,
}: {
  question: string;
  to: string;
  label: string;
}) {
  return (
    <>
      <p>
        {question}{' '}
        <Link to={to} className={inlineLinkClasses}>
          {label}
        </Link>
      </p>
      <Link to="/" className={buttonClasses('ghost', 'sm', 'mt-2')}>
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        Back to Home
      </Link>
    </>
  );
}

/** The e-mail field of the login, signup and forgot-password forms. */
export function EmailField({
  value,
  onChange,
}: {
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
}) {
  return (
    <TextField
      label="Email"
      type="email"
      name="email"
      autoComplete="email"
      required
      value={value}
      onChange={onChange}
      placeholder="you@example.com"
    />
  );
}

/**
 * A required password field of the login, signup and reset forms. `autoComplete` tells the
 * browser whether to fill the saved password or to suggest a new one.
 */
export function PasswordField(
  props: Omit<TextFieldProps, 'type' | 'required' | 'autoComplete'> & {
    autoComplete: 'current-password' | 'new-password';
  },
) {
  return <TextField type="password" required {...props} />;
}

export type NewPasswords = { password: string; confirm: string };

/**
 * A new password, with the length rule as its hint, and its confirmation (signup, reset). The
 * confirmation is marked invalid while `mismatch` holds.
 */
export function NewPasswordFields({
  labels,
  name,
  value,
  onChange,
  mismatch,
}: {
  labels: { password: string; confirm: string };
  /** The new password's form name; its confirmation is always confirm_password. */
  name: string;
  value: NewPasswords;
  onChange: (value: NewPasswords) => void;
  mismatch?: boolean;
}) {
  return (
    <>
      <PasswordField
        label={labels.password}
        name={name}
        autoComplete="new-password"
        value={value.password}
        onChange={(event) => onChange({ ...value, password: event.target.value })}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      />
      <PasswordField
        label={labels.confirm}
        name="confirm_password"
        autoComplete="new-password"
        value={value.confirm}
        onChange={(event) => onChange({ ...value, confirm: event.target.value })}
        aria-invalid={mismatch || undefined}
      />
    </>
  );
}
