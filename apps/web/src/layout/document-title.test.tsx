import { fireEvent, screen } from '@testing-library/react';
import { Link, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import appSource from '../App.tsx?raw';
import { renderWithProviders } from '../components/test-utils';
import { AppLayout } from './app-layout';
import { documentTitle, HOME_TITLE, ROUTE_TITLES } from './document-title';

const NOT_FOUND = 'Page not found · Agentloom';

describe('documentTitle (WCAG 2.4.2: a title per route)', () => {
  it('names each screen', () => {
    expect(documentTitle('/')).toBe(HOME_TITLE);
    expect(documentTitle('/login')).toBe('Log in · Agentloom');
    expect(documentTitle('/signup')).toBe('Sign up · Agentloom');
    expect(documentTitle('/dashboard')).toBe('Dashboard · Agentloom');
    expect(documentTitle('/dashboard/create-agent')).toBe('Create agent · Agentloom');
    expect(documentTitle('/pipeline/rag')).toBe('RAG agent wizard · Agentloom');
    expect(documentTitle('/pipeline/sql')).toBe('SQL agent wizard · Agentloom');
    expect(documentTitle('/pipeline/xyz')).toBe('Invalid pipeline type · Agentloom');
    expect(documentTitle('/build/image')).toBe('AI Image Generation Agent · Agentloom');
    expect(documentTitle('/build/rag/abc')).toBe('Agent build · Agentloom');
    expect(documentTitle('/build/rag')).toBe('Agent build · Agentloom');
    expect(documentTitle('/sql/build/animation/sql/abc')).toBe('SQL agent build · Agentloom');
    expect(documentTitle('/no-such-page')).toBe(NOT_FOUND);
    expect(documentTitle('/dashboard/nope')).toBe(NOT_FOUND);
  });

  it('has exactly the paths of the route table in App.tsx', () => {
    const appPaths = [...appSource.matchAll(/path="([^"]+)"/g)]
      .map((match) => match[1]!)
      .filter((path) => path !== '*' && path !== '/');
    expect(appPaths.length).toBeGreaterThan(10);
    expect(ROUTE_TITLES.map((route) => route.path).sort()).toEqual([...appPaths].sort());
    for (const path of appPaths) {
      expect(documentTitle(path.replace(/:\w+\??/g, 'abc')), path).not.toBe(NOT_FOUND);
    }
  });
});

describe('DocumentTitle in the layout', () => {
  beforeEach(() => vi.stubGlobal('scrollTo', vi.fn())); // ScrollManager; jsdom has no scrolling
  afterEach(() => vi.unstubAllGlobals());

  it('follows every route change', async () => {
    renderWithProviders(
      <Routes>
        <Route element={<AppLayout />}>
          <Route path="*" element={<Link to="/no-such-page">Somewhere odd</Link>} />
        </Route>
      </Routes>,
      { route: '/login' },
    );
    await vi.waitFor(() => expect(document.title).toBe('Log in · Agentloom'));
    fireEvent.click(screen.getByRole('link', { name: 'Somewhere odd' }));
    await vi.waitFor(() => expect(document.title).toBe(NOT_FOUND));
    fireEvent.click(
      screen.getAllByRole('link', { name: 'Features' }).find((link) => link.closest('header'))!,
    );
    await vi.waitFor(() => expect(document.title).toBe('Features · Agentloom'));
  });
});
