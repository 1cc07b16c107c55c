import type { User } from '@agentloom/db';

/** What a valid access token resolves to: the user row without its password hash. */
export type AuthenticatedUser = Omit<User, 'passwordHash'>;
