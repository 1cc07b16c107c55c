/** The SQL dialects the agent runtime reads, lexes, guards and runs (a leaf: imports nothing). */
export type SqlDialect = 'sqlite' | 'postgresql' | 'mysql';
