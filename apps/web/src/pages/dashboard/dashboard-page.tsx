import { LogOut, UserRound } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../auth/auth-context';
import { Button, PageContainer } from '../../components/ui';
import { AgentsView } from './agents-view';
import { VIEW_TITLE_ID } from './back-button';
import { isDashboardView, type DashboardView } from './dashboard-views';
import { KeysView } from './keys-view';
import { OverviewView } from './overview-view';
import { ProfileView } from './profile-view';

/** The username, or the part of the e-mail before the @ sign. */
export function displayName(user: { username?: string | null; email?: string | null } | null) {
  if (user?.username) return user.username;
  return user?.email?.split('@')[0] ?? '';
}

/**
 * docs/product.md#the-dashboard: views switched without a route change. The view is in the query
 * (`/dashboard?view=agents`), so reload, Back and a shared link keep it.
 */
export function DashboardPage() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const state: unknown = useLocation().state;
  const [search, setSearch] = useSearchParams();
  const asked = search.get('view');
  const view: DashboardView = isDashboardView(asked) ? asked : 'overview';
  const newUser = (state as { newUser?: boolean } | null)?.newUser === true;
  // The path stays /dashboard, so bring the new view into sight like a page change would.
  const setView = (next: DashboardView) => {
    setSearch(next === 'overview' ? {} : { view: next });
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };
  const back = () => setView('overview');
  const welcome = useRef<HTMLHeadingElement>(null);
  const focusedView = useRef(view);

  // A switch unmounts the tile or Back button that caused it; keyboard and screen-reader users
  // continue from the new view's heading instead of from <body>. Comparing with the last view
  // (not skipping the first run) keeps StrictMode's second effect run from moving focus on load.
  useEffect(() => {
    if (focusedView.current === view) return;
    focusedView.current = view;
    const heading = view === 'overview' ? welcome.current : document.getElementById(VIEW_TITLE_ID);
    // The page is already being scrolled to the top.
    heading?.focus({ preventScroll: true });
  }, [view]);

  function secureLogout() {
    logout();
    void navigate('/login', { replace: true });
  }

  return (
    <PageContainer size="xl">
      <div className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1
            ref={welcome}
            tabIndex={-1}
            className="text-3xl font-bold tracking-tight [overflow-wrap:anywhere] text-slate-900 focus:outline-none sm:text-4xl dark:text-white"
          >
            {newUser ? 'Welcome' : 'Welcome back'}, {displayName(user)}!
          </h1>
          <p className="mt-1 text-slate-600 dark:text-slate-300">
            Build, manage and deploy your AI agents.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            onClick={() => setView('profile')}
            aria-pressed={view === 'profile'}
          >
            <UserRound aria-hidden="true" className="h-4 w-4" />
            Profile
          </Button>
          <Button variant="danger" onClick={secureLogout}>
            <LogOut aria-hidden="true" className="h-4 w-4" />
            Secure Logout
          </Button>
        </div>
      </div>
      {renderView()}
    </PageContainer>
  );

  function renderView() {
    switch (view) {
      case 'overview':
        return <OverviewView onOpen={setView} />;
      case 'profile':
        return <ProfileView onBack={back} />;
      case 'agents':
        return <AgentsView onBack={back} />;
      case 'keys':
        return <KeysView onBack={back} />;
    }
  }
}
