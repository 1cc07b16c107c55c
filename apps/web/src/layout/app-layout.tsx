import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Spinner } from '../components/ui';
import { dismissScreenErrors } from '../lib/notify';
import { DocumentTitle } from './document-title';
import { Footer } from './footer';
import { Navbar } from './navbar';
import { ScrollManager } from './scroll-manager';

/** The parent route of every screen: navigation bar, the screen, footer. */
export function AppLayout() {
  const { pathname, search } = useLocation();
  useEffect(dismissScreenErrors, [pathname, search]);
  return (
    <div className="flex min-h-screen flex-col bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-indigo-600 px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <ScrollManager />
      <DocumentTitle />
      <Navbar />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {/* Inside the layout, so the bar and footer stay put while a screen's chunk loads. */}
        <Suspense
          fallback={
            <div className="grid min-h-screen place-items-center text-indigo-600 dark:text-indigo-400">
              <Spinner size="lg" />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
