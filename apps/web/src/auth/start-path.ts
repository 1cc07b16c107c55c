import { useAuth } from './auth-context';

/**
 * Where "Start Building" leads: a visitor logs in first (docs/product.md#routes-and-access), a
 * logged-in user goes straight to choosing an agent instead of a login form they do not need.
 */
export function useStartPath(): string {
  const { user } = useAuth();
  return user ? '/dashboard/create-agent' : '/login';
}
