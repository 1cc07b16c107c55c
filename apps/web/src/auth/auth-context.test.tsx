import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../features/testing/render';
import { STORAGE_KEYS } from '../lib/storage';
import { AuthProvider, restoreSession, useAuth } from './auth-context';

describe('restoreSession (the start-up rules)', () => {
  const user = { id: 'u1', username: 'ada', email: 'ada@example.com' };

  it('restores when both the token and a parsable user are saved', () => {
    localStorage.setItem(STORAGE_KEYS.token, 'jwt');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
    expect(restoreSession(localStorage)).toEqual({ token: 'jwt', user });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('jwt');
  });

  it('is logged out when either is missing, and removes the other (no stale bearer token)', () => {
    localStorage.setItem(STORAGE_KEYS.token, 'jwt');
    expect(restoreSession(localStorage)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();

    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
    expect(restoreSession(localStorage)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });

  it('removes a user that fails to parse, and its token, and counts the session as logged out', () => {
    for (const broken of ['{not json', 'null', '42']) {
      localStorage.setItem(STORAGE_KEYS.token, 'jwt');
      localStorage.setItem(STORAGE_KEYS.user, broken);
      expect(restoreSession(localStorage)).toBeNull();
      expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
      expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    }
  });
});

describe('AuthProvider and the react-query cache (one tab, two users)', () => {
  afterEach(() => vi.unstubAllGlobals());

  const PROFILE_KEY = ['dashboard', 'profile'];

  /** Shows the cached profile the way the dashboard would, plus the auth controls. */
  function Screen() {
    const { user, login, logout } = useAuth();
    const profile = useQuery({
      queryKey: PROFILE_KEY,
      queryFn: () => new Promise<{ full_name: string }>(() => {}), // never answers: cache only
      enabled: Boolean(user),
      staleTime: Infinity,
    });
    return (
      <>
        <p>{profile.data ? `Profile of ${profile.data.full_name}` : 'No profile'}</p>
        <button onClick={logout}>Log out</button>
        <button onClick={() => void login('bob@example.com', 'pw-bob-123')}>Log in</button>
      </>
    );
  }

  function renderSignedIn() {
    localStorage.setItem(STORAGE_KEYS.token, 'jwt-ada');
    localStorage.setItem(
      STORAGE_KEYS.user,
      JSON.stringify({ id: 'u1', username: 'ada', email: 'ada@example.com' }),
    );
    const client = new QueryClient();
    client.setQueryData(PROFILE_KEY, { full_name: 'Ada Lovelace' });
    client.setQueryData(['dashboard', 'apikeys'], [{ id: 'k1', key: 'sk-…ADA1' }]);
    render(
      <QueryClientProvider client={client}>
        <AuthProvider>
          <Screen />
        </AuthProvider>
      </QueryClientProvider>,
    );
    expect(screen.getByText('Profile of Ada Lovelace')).toBeInTheDocument();
    return { client };
  }

  it('logout empties the cache, so the next user never sees the previous one’s data', () => {
    const { client } = renderSignedIn();
    fireEvent.click(screen.getByRole('button', { name: 'Log out' }));
    expect(client.getQueryData(PROFILE_KEY)).toBeUndefined();
    expect(client.getQueryData(['dashboard', 'apikeys'])).toBeUndefined();
    expect(screen.getByText('No profile')).toBeInTheDocument();
    expect(screen.queryByText('Profile of Ada Lovelace')).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('a successful login empties the cache too', async () => {
    const { client } = renderSignedIn();
    mockFetch(() => ({
      json: {
        access_token: 'jwt-bob',
        token_type: 'bearer',
        user: { id: 'u2', username: 'bob', email: 'bob@example.com' },
      },
    }));
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await vi.waitFor(() => expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('jwt-bob'));
    expect(client.getQueryData(['dashboard', 'apikeys'])).toBeUndefined();
    // Bob's screen waits for his own profile instead of showing Ada's cached one.
    expect(await screen.findByText('No profile')).toBeInTheDocument();
    expect(client.getQueryData(PROFILE_KEY)).toBeUndefined();
  });
});
