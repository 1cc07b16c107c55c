import { clsx } from 'clsx';
import { LayoutDashboard, Menu, Moon, Sun, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/auth-context';
import { buttonClasses, type ButtonVariant } from '../components/ui';
import { Logo } from './logo';
import { useTheme } from './theme';

/** The top links, in order (docs/product.md#navigation-footer-and-theme). */
export const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/features', label: 'Features' },
  // The page the route calls Developers introduces the people who make Agentloom: to someone who is
  // not a programmer, "Developers" in a menu promises developer documentation instead.
  { to: '/developers', label: 'Our team' },
  { to: '/#how-it-works', label: 'How it works' },
  { to: '/docs', label: 'Docs' },
] as const;

const linkBase =
  'rounded-md px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:focus-visible:ring-indigo-400';

function linkClasses(active: boolean) {
  return clsx(
    linkBase,
    active
      ? 'text-indigo-700 dark:text-indigo-300'
      : 'text-slate-700 hover:text-slate-950 dark:text-slate-300 dark:hover:text-white',
  );
}

function NavItems({ onNavigate, vertical }: { onNavigate?: () => void; vertical?: boolean }) {
  const { hash } = useLocation();
  return (
    <>
      {NAV_LINKS.map((link) =>
        link.to.includes('#') ? (
          <Link
            key={link.to}
            to={link.to}
            onClick={onNavigate}
            className={clsx(linkClasses(hash === '#how-it-works'), vertical && 'block')}
          >
            {link.label}
          </Link>
        ) : (
          <NavLink
            key={link.to}
            to={link.to}
            end
            onClick={onNavigate}
            className={({ isActive }) =>
              clsx(linkClasses(isActive && !(link.to === '/' && hash)), vertical && 'block')
            }
          >
            {link.label}
          </NavLink>
        ),
      )}
    </>
  );
}

function AccountActions({ onNavigate, stacked }: { onNavigate?: () => void; stacked?: boolean }) {
  const { user } = useAuth();
  // Button-styled links; in the mobile menu they fill its width, and following one closes it.
  const asButton = (variant: ButtonVariant) => ({
    onClick: onNavigate,
    className: buttonClasses(variant, 'sm', stacked ? 'w-full' : undefined),
  });
  if (user) {
    return (
      <Link to="/dashboard" {...asButton('primary')}>
        <LayoutDashboard aria-hidden="true" className="h-4 w-4" />
        Dashboard
      </Link>
    );
  }
  return (
    <>
      <Link to="/login" {...asButton('ghost')}>
        Log in
      </Link>
      <Link to="/signup" {...asButton('primary')}>
        Get Started
      </Link>
    </>
  );
}

function ThemeToggle() {
  const { theme, toggleTheme } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      onClick={toggleTheme}
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      className={buttonClasses('ghost', 'sm', 'w-9 px-0')}
    >
      {theme === 'dark' ? (
        <Sun aria-hidden="true" className="h-5 w-5" />
      ) : (
        <Moon aria-hidden="true" className="h-5 w-5" />
      )}
    </button>
  );
}

export function Navbar() {
  const [open, setOpen] = useState(false);
  const { pathname, hash } = useLocation();
  // Following any link closes the mobile menu.
  useEffect(() => setOpen(false), [pathname, hash]);
  const close = () => setOpen(false);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-7xl items-center gap-4 px-4 sm:px-6 lg:px-8"
      >
        <Link
          to="/"
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          aria-label="Agentloom home"
        >
          <Logo />
        </Link>
        <div className="hidden flex-1 items-center justify-center gap-1 lg:flex">
          <NavItems />
        </div>
        <div className="ml-auto flex items-center gap-2 lg:ml-0">
          <ThemeToggle />
          <div className="hidden items-center gap-2 lg:flex">
            <AccountActions />
          </div>
          <button
            type="button"
            className={buttonClasses('ghost', 'sm', 'w-9 px-0 lg:hidden')}
            aria-expanded={open}
            aria-controls="mobile-menu"
            aria-label={open ? 'Close menu' : 'Open menu'}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? (
              <X aria-hidden="true" className="h-5 w-5" />
            ) : (
              <Menu aria-hidden="true" className="h-5 w-5" />
            )}
          </button>
        </div>
      </nav>
      {/*
        The mobile menu opens and collapses with a 300 ms transition. Its own landmark,
        so on a phone screen-reader users still find the links under navigation.
      */}
      <nav
        id="mobile-menu"
        aria-label="Main (mobile)"
        data-state={open ? 'open' : 'closed'}
        inert={!open}
        className={clsx(
          'grid transition-[grid-template-rows,opacity,visibility] duration-300 ease-in-out lg:hidden',
          open ? 'visible grid-rows-[1fr] opacity-100' : 'invisible grid-rows-[0fr] opacity-0',
        )}
      >
        <div className="overflow-hidden">
          <div className="space-y-1 border-t border-slate-200 px-4 py-3 dark:border-slate-800">
            <NavItems vertical onNavigate={close} />
            <div className="flex flex-col gap-2 pt-3">
              <AccountActions stacked onNavigate={close} />
            </div>
          </div>
        </div>
      </nav>
    </header>
  );
}
