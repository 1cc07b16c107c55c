import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useStartPath } from '../auth/start-path';
import { buttonClasses, type ButtonVariant } from './ui';

/** The large "start building" call of the public pages: to the agent picker, or to log in first. */
export function StartLink({
  variant = 'primary',
  children,
}: {
  variant?: ButtonVariant;
  children: ReactNode;
}) {
  const startPath = useStartPath();
  return (
    <Link to={startPath} className={buttonClasses(variant, 'lg')}>
      {children}
      <ArrowRight aria-hidden="true" className="h-5 w-5" />
    </Link>
  );
}
