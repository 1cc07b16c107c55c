import type { TLoginResponse, TPublicUser } from '@agentloom/contracts';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { api, errorDetail } from '../lib/api';
import { notify } from '../lib/notify';
import { STORAGE_KEYS } from '../lib/storage';

export type AuthState = {
  user: TPublicUser | null;
  token: string | null;
  /** True until the saved session has been checked (SPEC §4). */
  loading: boolean;
  /** Signs in; shows the SPEC §8 toasts; resolves false on failure. */
  login: (email: string, password: string) => Promise<boolean>;
  /** Creates the account, then signs in with the same e-mail and password. */
  signup: (input: { username: string; email: string; password: string }) => Promise<boolean>;
  logout: () => void;
};

const AuthContext = createContext<AuthState | null>(null);

/**
 * SPEC §4 restore rule: the saved token and user are restored only when both exist and the user
 * parses; a user that fails to parse is removed and the session counts as logged out.
 */
export function restoreSession(storage: Storage): { token: string; user: TPublicUser } | null {
  const token = storage.getItem(STORAGE_KEYS.token);
  const rawUser = storage.getItem(STORAGE_KEYS.user);
  if (!token || !rawUser) return null;
  try {
    const user = JSON.parse(rawUser) as TPublicUser;
    if (!user || typeof user !== 'object') throw new Error('not an object');
    return { token, user };
  } catch {
    storage.removeItem(STORAGE_KEYS.user);
    return null;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  // localStorage is synchronous, so the check finishes before the first render completes;
  // `loading` still exists so protected routes never flash a redirect during it.
  const [session, setSession] = useState(() => restoreSession(localStorage));
  const loading = false;

  const login = useCallback(async (email: string, password: string) => {
    try {
      const answer = await api<TLoginResponse>('/auth/login', { json: { email, password } });
      localStorage.setItem(STORAGE_KEYS.token, answer.access_token);
      localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(answer.user));
      setSession({ token: answer.access_token, user: answer.user });
      notify.success('Success', 'Logged in successfully');
      return true;
    } catch (error) {
      notify.error('Login Failed', errorDetail(error) ?? 'Invalid email or password');
      return false;
    }
  }, []);

  const signup = useCallback(
    async (input: { username: string; email: string; password: string }) => {
      try {
        await api('/auth/signup', {
          json: { ...input, confirm_password: input.password },
        });
      } catch (error) {
        notify.error('Signup Failed', errorDetail(error) ?? 'Signup error');
        return false;
      }
      notify.success('Success', 'Account created successfully');
      return login(input.email, input.password);
    },
    [login],
  );

  const logout = useCallback(() => {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.user);
    setSession(null);
    notify.info('Logged out');
  }, []);

  const value = useMemo<AuthState>(
    () => ({
      user: session?.user ?? null,
      token: session?.token ?? null,
      loading,
      login,
      signup,
      logout,
    }),
    [session, loading, login, signup, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}
