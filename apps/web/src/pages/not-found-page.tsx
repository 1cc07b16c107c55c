import { Home } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '../components/ui';

/** Any other path (docs/product.md#routes-and-access). */
export function NotFoundPage() {
  return (
    <div className="flex min-h-[calc(100vh-4rem)] flex-col items-center justify-center px-4 py-16 text-center">
      <p className="text-7xl font-extrabold tracking-tight text-indigo-600 dark:text-indigo-400">
        404
      </p>
      <h1 className="mt-4 text-2xl font-bold text-slate-900 sm:text-3xl dark:text-white">
        Oops! Page not found
      </h1>
      <p className="mt-3 max-w-md text-slate-600 dark:text-slate-300">
        The page you are looking for does not exist or has moved.
      </p>
      <Link to="/" className={buttonClasses('primary', 'lg', 'mt-8')}>
        <Home aria-hidden="true" className="h-5 w-5" />
        Return to Home
      </Link>
    </div>
  );
}
