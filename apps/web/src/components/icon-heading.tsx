import { clsx } from 'clsx';
import type { ComponentType, SVGProps } from 'react';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

/**
 * The head of the site's feature-style cards: an icon in an indigo tile, a title and one line
 * of text (features, docs, agent kinds). `tileClassName` adds states such as a link's hover.
 */
export function IconHeading({
  icon: Icon,
  title,
  text,
  tileClassName,
}: {
  icon: Icon;
  title: string;
  text: string;
  tileClassName?: string;
}) {
  return (
    <>
      <span
        className={clsx(
          'grid h-12 w-12 place-items-center rounded-xl bg-indigo-100 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300',
          tileClassName,
        )}
      >
        <Icon aria-hidden="true" className="h-6 w-6" />
      </span>
      <h2 className="mt-4 text-xl font-semibold text-slate-900 dark:text-white">{title}</h2>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{text}</p>
    </>
  );
}
