import type { TLoginResponse, TPublicUser } from '@agentloom/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { api, errorDetail, onSessionEnded } from '../lib/api';
import { notify } from '../lib/notify';
import { STORAGE_KEYS } from '../lib/storage';

type Credentials = { email: string; password: string };
type SignupInput = { username: string; email: string; password: string };

export type AuthState = {
  user: TPublicUser | null;
  token: string | null;
  /** True until the saved session has been checked (docs/product.md#sign-up-and-sign-in). */
  loading: boolean;
  /** Signs in; shows the sign-in toasts; resolves false on failure. */
  login: (email: string, password: string) => Promise<boolean>;
  /** The login call is in flight (the login page's, or the one that follows a signup). */
  loginPending: boolean;
  /** Creates the account, then signs in with the same e-mail and password. */
  signup: (input: SignupInput) => Promise<boolean>;
  /** The signup call is in flight (the automatic login after it is `loginPending`). */
  signupPending: boolean;
  logout: () => void;
  /** The server refused the saved token (401): signed out without a click of the user's. */
  sessionEnded: boolean;
};

/** What the login page says after a 401 signed the app out. */
export const SESSION_ENDED = 'Your session ended — please log in again';

const AuthContext = createContext<AuthState | null>(null);

function parseUser(raw: string): TPublicUser | null {
  try {
    const user: unknown = JSON.parse(raw);
    return user && typeof user === 'object' ? (user as TPublicUser) : null;
  } catch {
    return null;
  }
}

/**
 * The restore rule (docs/product.md#sign-up-and-sign-in): the saved token and user are restored
 * only when both exist and the user parses; otherwise the session counts as logged out. What is
 * left of a broken session is removed too: a leftover token would still be sent as the bearer
 * header of every call (api.ts).
 */
export function restoreSession(storage: Storage): { token: string; user: TPublicUser } | null {
  const token = storage.getItem(STORAGE_KEYS.token);
  const rawUser = storage.getItem(STORAGE_KEYS.user);
  const user = token && rawUser ? parseUser(rawUser) : null;
  if (token && user) return { token, user };
  storage.removeItem(STORAGE_KEYS.token);
  storage.removeItem(STORAGE_KEYS.user);
  return null;
}

/**
 * Any call the server answers 401 ends the session: RequireAuth then sends the user to log in,
 * and back to the page they were on afterwards.
 */
function useSignOutOnSessionEnd(signOut: () => void) {
  const latest = useRef(signOut);
  useEffect(() => {
    latest.current = signOut;
  });
  useEffect(() => onSessionEnded(() => latest.current()), []);
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // localStorage is synchronous, so the check finishes before the first render completes;
  // `loading` still exists so protected routes never flash a redirect during it.
  const [session, setSession] = useState(() => restoreSession(localStorage));
  const loading = false;
  const [sessionEnded, setSessionEnded] = useState(false);
  useSignOutOnSessionEnd(() => {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.user);
    queryClient.clear();
    setSession(null);
    setSessionEnded(true);
  });

  const loginMutation = useMutation({
    mutationFn: (credentials: Credentials) =>
      api<TLoginResponse>('/auth/login', { json: credentials }),
    onSuccess: (answer) => {
      localStorage.setItem(STORAGE_KEYS.token, answer.access_token);
      localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(answer.user));
      // Whatever is cached (another account's profile, agents, keys) was fetched for someone else.
      queryClient.clear();
      setSession({ token: answer.access_token, user: answer.user });
      setSessionEnded(false);
      notify.success('Success', 'Logged in successfully');
    },
    onError: (error) =>
      notify.error('Login Failed', errorDetail(error) ?? 'Invalid email or password'),
  });
  const loginAsync = loginMutation.mutateAsync;
  const login = useCallback(
    (email: string, password: string) =>
      loginAsync({ email, password }).then(
        () => true,
        // The failure toast is already shown by onError.
        () => false,
      ),
    [loginAsync],
  );

  const signupMutation = useMutation({
    mutationFn: (input: SignupInput) =>
      api('/auth/signup', { json: { ...input, confirm_password: input.password } }),
    onSuccess: () => notify.success('Success', 'Account created successfully'),
    onError: (error) => notify.error('Signup Failed', errorDetail(error) ?? 'Signup error'),
  });
  const signupAsync = signupMutation.mutateAsync;
  const signup = useCallback(
    async (input: SignupInput) => {
      try {
        await signupAsync(input);
      } catch {
        return false; // toast shown by onError
      }
      return login(input.email, input.password);
    },
    [signupAsync, login],
  );

  const logout = useCallback(() => {
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.user);
    // The next person in this tab must not see this user's cached profile, agents or keys.
    queryClient.clear();
    setSession(null);
    setSessionEnded(false);
    notify.info('Logged out');
  }, [queryClient]);

  const loginPending = loginMutation.isPending;
  const signupPending = signupMutation.isPending;
  const value = useMemo<AuthState>(
    () => ({
      user: session?.user ?? null,
      token: session?.token ?? null,
      loading,
      login,
      loginPending,
      signup,
      signupPending,
      logout,
      sessionEnded,
    }),
    [session, loading, login, loginPending, signup, signupPending, logout, sessionEnded],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}
