import type { ReactNode } from 'react';
import { Card } from './ui';

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
