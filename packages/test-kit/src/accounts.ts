import { randomBytes } from 'node:crypto';
import { apiCall, expectStatus, rotation, type Gateway } from './http';

/** A user a test signed up and in: credentials, access token and the header that carries it. */
export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
  token: string;
  auth: { Authorization: string };
  /** The user as the login answered it, which the web app keeps in local storage. */
  profile: unknown;
}

/**
 * Signs a fresh, unique user up and in through the public API (POST /auth/signup, then
 * /auth/login). `prefix` starts the username, so a failing test's rows say whose they are.
 */
export async function signUpAndLogIn(gateway: Gateway, prefix = 'user'): Promise<TestUser> {
  const next = rotation(gateway);
  const suffix = randomBytes(4).toString('hex');
  const username = `${prefix}_${suffix}`;
  const email = `${username}@example.com`;
  const password = `Pw-${suffix}-9x`;
  expectStatus(
    await apiCall(next(), '/auth/signup', {
      json: { username, email, password, confirm_password: password },
    }),
    201,
    'signup',
  );
  const login = expectStatus(
    await apiCall(next(), '/auth/login', { json: { email, password } }),
    200,
    'login',
  );
  const token = login.body.access_token as string;
  return {
    id: login.body.user.id as string,
    username,
    email,
    password,
    token,
    auth: { Authorization: `Bearer ${token}` },
    profile: login.body.user,
  };
}

/** Stores a key in the user's vault (POST /apikeys, as the keys view does); its id. */
export async function addVaultKey(
  gateway: Gateway,
  user: TestUser,
  key: { provider: string; key: string; name?: string },
): Promise<string> {
  const saved = await apiCall(rotation(gateway)(), '/apikeys', { token: user.token, json: key });
  return expectStatus(saved, 201, 'add vault key').body.id as string;
}
