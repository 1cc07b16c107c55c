import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred, mockFetch, renderRoute, signIn } from '../../features/testing/render';
import { DashboardPage, displayName } from './dashboard-page';

describe('displayName (the welcome header)', () => {
  it('is the username when there is one', () => {
    expect(displayName({ username: 'ada', email: 'ada.lovelace@example.com' })).toBe('ada');
  });

  it('is the part of the e-mail before the @ sign otherwise', () => {
    expect(displayName({ username: '', email: 'ada.lovelace@example.com' })).toBe('ada.lovelace');
    expect(displayName({ username: null, email: 'grace@example.com' })).toBe('grace');
    expect(displayName({ email: 'no-at-sign' })).toBe('no-at-sign');
  });

  it('is empty with neither', () => {
    expect(displayName({ username: null, email: null })).toBe('');
    expect(displayName(null)).toBe('');
  });
});

describe('DashboardPage view switches (keyboard focus)', () => {
  beforeEach(() => {
    // jsdom has no layout to scroll; the page scrolls to the top on every switch.
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("moves focus to the new view's heading, and back to the welcome heading", async () => {
    // The profile stays in flight: its heading must be there to take focus before it loads.
    const profile = deferred<{ json: unknown }>();
    mockFetch((call) => {
      if (call.path === '/users/me') return profile.promise;
      return { json: [] };
    });
    const user = userEvent.setup();
    signIn();
    renderRoute('/dashboard', '/dashboard', <DashboardPage />);
    const welcome = screen.getByRole('heading', { level: 1, name: 'Welcome back, ada!' });
    expect(welcome).not.toHaveFocus();

    await user.click(screen.getByRole('button', { name: /My Agents/ }));
    expect(screen.getByRole('heading', { level: 2, name: 'My Agents' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Back to Dashboard' }));
    expect(welcome).toHaveFocus();

    await user.click(screen.getByRole('button', { name: /API Keys/ }));
    expect(screen.getByRole('heading', { level: 2, name: 'API Keys' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Profile' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Profile' })).toHaveFocus();
    expect(screen.getByText('Loading profile…')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Back to Dashboard' }));
    expect(welcome).toHaveFocus();
    // Keyboard users carry on from the top of the overview.
    await user.tab();
    expect(screen.getByRole('button', { name: 'Profile' })).toHaveFocus();
  });
});
