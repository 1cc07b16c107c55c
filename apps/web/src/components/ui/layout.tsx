import { clsx } from 'clsx';
import { type HTMLAttributes, type ReactNode } from 'react';

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
