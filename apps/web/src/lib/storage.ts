/**
 * Local-storage keys (docs/product.md#stored-in-the-browser). Other code reads and writes them only
 * through these names.
 */
export const STORAGE_KEYS = {
  token: 'token',
  user: 'user',
  theme: 'theme',
  sessionId: 'session_id',
} as const;
