/** Local-storage keys of SPEC §3. Other code reads and writes them only through these names. */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  theme: 'theme',
  sessionId: 'session_id',
} as const;
