import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from './auth-context';

/** Protected routes (docs/product.md#routes-and-access): visitors are sent to /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user, loading, sessionEnded } = useAuth();
  const location = useLocation();
  if (loading) return null;
  // Where the visitor was going, query included (a wizard's step, a dashboard view).
  const from = location.pathname + location.search;
  if (!user) return <Navigate to="/login" replace state={{ from, sessionEnded }} />;
  return children;
}
