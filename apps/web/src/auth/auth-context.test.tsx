import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../lib/storage';
import { restoreSession } from './auth-context';

describe('restoreSession (SPEC §4 startup rules)', () => {
  const user = { id: 'u1', username: 'ada', email: 'ada@example.com' };

  it('restores when both the token and a parsable user are saved', () => {
    localStorage.setItem(STORAGE_KEYS.token, 'jwt');
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
    expect(restoreSession(localStorage)).toEqual({ token: 'jwt', user });
  });

  it('is logged out when either is missing', () => {
    localStorage.setItem(STORAGE_KEYS.token, 'jwt');
    expect(restoreSession(localStorage)).toBeNull();
    localStorage.clear();
    localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(user));
    expect(restoreSession(localStorage)).toBeNull();
  });

  it('removes a user that fails to parse and counts the session as logged out', () => {
    localStorage.setItem(STORAGE_KEYS.token, 'jwt');
    localStorage.setItem(STORAGE_KEYS.user, '{not json');
    expect(restoreSession(localStorage)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBeNull();
  });
});
