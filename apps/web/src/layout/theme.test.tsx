import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../components/test-utils';
import { Navbar } from './navbar';
import { readTheme } from './theme';

describe('theme (light by default, toggled, persisted)', () => {
  afterEach(() => document.documentElement.classList.remove('dark'));

  it('reads light unless dark was saved', () => {
    expect(readTheme(localStorage)).toBe('light');
    localStorage.setItem('theme', 'dark');
    expect(readTheme(localStorage)).toBe('dark');
    localStorage.setItem('theme', 'purple');
    expect(readTheme(localStorage)).toBe('light');
  });

  it('toggles the dark class on <html>, saves it, and restores it on the next visit', () => {
    const first = renderWithProviders(<Navbar />);
    expect(document.documentElement).not.toHaveClass('dark');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    first.unmount();
    document.documentElement.classList.remove('dark');

    // A new visit: the saved theme is applied again.
    renderWithProviders(<Navbar />);
    expect(document.documentElement).toHaveClass('dark');
    fireEvent.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(document.documentElement).not.toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('light');
  });

  it('shows Log in and Get Started only when logged out', () => {
    const view = renderWithProviders(<Navbar />);
    expect(screen.getAllByRole('link', { name: 'Log in' }).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('link', { name: 'Get Started' }).length).toBeGreaterThan(0);
    view.unmount();

    localStorage.setItem('token', 'jwt');
    localStorage.setItem('user', JSON.stringify({ id: 'u1', username: 'ada', email: 'a@b.c' }));
    renderWithProviders(<Navbar />);
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Get Started' })).toBeNull();
    expect(screen.getAllByRole('link', { name: 'Dashboard' }).length).toBeGreaterThan(0);
  });

  it('the mobile menu toggle opens and collapses the menu', () => {
    renderWithProviders(<Navbar />);
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    const menu = document.getElementById('mobile-menu')!;
    expect(menu).toHaveAttribute('data-state', 'closed');
    expect(menu.className).toContain('duration-300');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toHaveAttribute('data-state', 'open');
    // The menu is a navigation landmark of its own, holding the same links.
    const landmark = screen.getByRole('navigation', { name: 'Main (mobile)' });
    expect(landmark).toBe(menu);
    for (const name of ['Home', 'Features', 'Our team', 'How it works', 'Docs', 'Log in']) {
      expect(within(landmark).getByRole('link', { name })).toBeInTheDocument();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(menu).toHaveAttribute('data-state', 'closed');
  });
});
