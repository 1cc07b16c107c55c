import { useEffect } from 'react';
import { matchPath, useLocation, type Params } from 'react-router-dom';

const SITE = 'Agentloom';
/** The same as index.html's title, which shows until the app has started. */
export const HOME_TITLE = `${SITE} — build AI agents without code`;

type RouteTitle = { path: string; title: string | ((params: Params) => string) };

/**
 * WCAG 2.4.2: each screen names itself in the tab and to screen readers. One entry per path of
 * App.tsx's route table (its unit test checks none is missing); anything else is the 404 page.
 */
export const ROUTE_TITLES: readonly RouteTitle[] = [
  { path: '/login', title: 'Log in' },
  { path: '/signup', title: 'Sign up' },
  { path: '/forgot-password', title: 'Forgot password' },
  { path: '/reset-password', title: 'Reset password' },
  { path: '/features', title: 'Features' },
  { path: '/docs', title: 'Documentation' },
  { path: '/developers', title: 'Developers' },
  { path: '/privacy-policy', title: 'Privacy Policy' },
  { path: '/dashboard', title: 'Dashboard' },
  { path: '/dashboard/create-agent', title: 'Create agent' },
  {
    path: '/pipeline/:type/:sessionId?',
    // The same rule as the wizard page: only rag and sql are wizards.
    title: ({ type }) =>
      type === 'rag'
        ? 'RAG agent wizard'
        : type === 'sql'
          ? 'SQL agent wizard'
          : 'Invalid pipeline type',
  },
  // Before /build/:type, which would match it too (the router ranks static segments higher).
  { path: '/build/image', title: 'AI Image Generation Agent' },
  { path: '/build/:type/:sessionId?', title: 'Agent build' },
  { path: '/sql/build/animation/:type/:sessionId?', title: 'SQL agent build' },
];

export function documentTitle(pathname: string): string {
  if (matchPath('/', pathname)) return HOME_TITLE;
  for (const route of ROUTE_TITLES) {
    const match = matchPath(route.path, pathname);
    if (match) {
      const title = typeof route.title === 'string' ? route.title : route.title(match.params);
      return `${title} · ${SITE}`;
    }
  }
  return `Page not found · ${SITE}`;
}

/** Sets document.title on every route change; mounted once, in the layout. */
export function DocumentTitle() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = documentTitle(pathname);
  }, [pathname]);
  return null;
}
